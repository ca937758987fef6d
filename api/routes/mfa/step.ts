import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { tooManyRequests } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { verifyAppCode } from '../../services/factors/authenticator-app.ts';
import { verifyMfaCode } from '../../services/factors/phone.ts';
import { verifyRecoveryCode } from '../../services/factors/recovery-codes.ts';
import { MFA_VERIFY_PER_USER } from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { refusedCode, rememberDevice, requestContext, verifiedAnswer } from './step-answers.ts';

const verifyBody = z.object({
  otp: z.string().max(64),
  /**
   * Where the code comes from: a text (the default), the authenticator app, or the member's
   * recovery codes.
   */
  method: z.enum(['sms', 'app', 'recovery_code']).optional(),
  remember_device: rememberDevice,
});

/** The step by a code, at /api/v1/mfa/verify: texted, of the app, or a recovery code. */
export function createStepRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, factorSecrets } = dependencies;
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  return new Hono<ApiEnv>().post('/verify', session, jsonBody(verifyBody), async (c) => {
    const user = c.get('user');
    const refusal = await tooManyRequests(c, dependencies, MFA_VERIFY_PER_USER, String(user.id));
    if (refusal) return refusal;
    const { otp, method, remember_device: remember } = c.req.valid('json');
    const context = requestContext(c, remember);
    const origin = requestOrigin(c, trustedProxies);
    if (method === 'recovery_code') {
      const result = await verifyRecoveryCode(db, clock, context, { otp, publicOrigin, origin });
      if (!result.verified) return refusedCode(c, result, ErrorMessage.invalidRecoveryCode);
      return verifiedAnswer(c, result, { recovery_codes_left: result.recoveryCodesLeft });
    }
    const result =
      method === 'app'
        ? await verifyAppCode(db, clock, factorSecrets, context, { otp, publicOrigin, origin })
        : await verifyMfaCode(db, clock, context, otp, publicOrigin, origin);
    if (!result.verified) return refusedCode(c, result);
    return verifiedAnswer(c, result);
  });
}
