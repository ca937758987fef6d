import { Hono } from 'hono';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { renewRecoveryCodes } from '../../services/factors/recovery-codes.ts';
import {
  MFA_RECOVERY_CODES_PER_IP,
  MFA_RECOVERY_CODES_PER_USER,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { currentPasswordBody } from './factor-changes.ts';

/** A new set of recovery codes, at /api/v1/mfa/recovery-codes. */
export function createRecoveryCodesRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;
  return new Hono<ApiEnv>().post(
    '/',
    // Past the MFA step: a password alone must not get codes that stand in for the factor.
    requireSession(dependencies),
    jsonBody(currentPasswordBody),
    rateLimit(dependencies, MFA_RECOVERY_CODES_PER_IP, (c) => clientAddress(c, trustedProxies)),
    rateLimitPerUser(dependencies, MFA_RECOVERY_CODES_PER_USER),
    async (c) => {
      const result = await renewRecoveryCodes(db, clock, c.get('user'), {
        currentPassword: c.req.valid('json').user.current_password,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (result.renewed) return c.json({ recovery_codes: result.recoveryCodes }, 201);
      switch (result.reason) {
        case 'wrong_current_password':
          return wrongCurrentPasswordResponse(c);
        case 'not_enrolled':
          return errorResponse(c, 422, ErrorMessage.noTwoStepForRecoveryCodes);
      }
    },
  );
}
