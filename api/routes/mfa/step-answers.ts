import type { Context } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import {
  CODES_PAUSED_MESSAGE,
  type CodeRefusal,
  type CompletedStep,
  type MfaRequestContext,
} from '../../services/factors/step.ts';
import { MFA_TOKEN_HEADER } from '../../../contract/headers.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** Skip the step on this browser for 30 days once it succeeds ("Remember this device"). */
export const rememberDevice = z.boolean().optional();

/** Who asks, for the services of the step: the member, the session, and whether it is past it. */
export function requestContext(c: Context<ApiEnv>, remember = false): MfaRequestContext {
  return {
    userId: c.get('user').id,
    sessionId: c.get('session').id,
    mfaVerified: c.get('mfaVerified'),
    rememberDevice: remember,
  };
}

/**
 * The answer to a code that took the MFA step: the new mfa token, what else it brought, and the
 * remembered device's token when the member asked for one (shown only here, as the mfa token).
 */
export function verifiedAnswer(
  c: Context<ApiEnv>,
  step: CompletedStep,
  more: Record<string, unknown> = {},
  status: 200 | 201 = 200,
) {
  c.header(MFA_TOKEN_HEADER, step.mfaToken);
  const device = step.rememberedDevice;
  return c.json(
    {
      success: true,
      ...more,
      ...(device
        ? { device_token: device.token, device_token_expires_at: device.expiresAt.toISOString() }
        : {}),
    },
    status,
  );
}

/** The answer to a code that did not take the step: paused codes, or the code's own refusal. */
export function refusedCode(
  c: Context<ApiEnv>,
  refusal: CodeRefusal,
  invalid: string = ErrorMessage.invalidMfaCode,
) {
  return refusal.reason === 'codes_paused'
    ? errorResponse(c, 403, CODES_PAUSED_MESSAGE)
    : errorResponse(c, 422, invalid);
}
