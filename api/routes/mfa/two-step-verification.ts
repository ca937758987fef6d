import { Hono } from 'hono';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { declineMfaEnrollment } from '../../services/factors/offer.ts';
import { countUnusedRecoveryCodes } from '../../services/factors/recovery-code-store.ts';
import { mfaStatus, turnOffMfa } from '../../services/factors/two-step-verification.ts';
import { MFA_TURN_OFF_PER_IP, MFA_TURN_OFF_PER_USER } from '../../services/rate-limits.ts';
import { isRecentlyProven } from '../../services/sign-in/recent-proof.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { currentPasswordBody } from './factor-changes.ts';

/**
 * Two-step verification as a whole, at /api/v1/mfa: where the member stands, turning it off, and
 * declining the offer.
 */
export function createTwoStepVerificationRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  return new Hono<ApiEnv>()
    .get('/', session, async (c) => {
      const user = c.get('user');
      const recoveryCodesLeft = await countUnusedRecoveryCodes(db, user.id);
      return c.json(
        mfaStatus(user, c.get('companyRequiresMfa'), c.get('mfaVerified'), recoveryCodesLeft, {
          recentlyProven: isRecentlyProven(c.get('session'), clock.now()),
        }),
      );
    })
    .delete(
      '/',
      // Past the MFA step: turning it off takes a session that completed it.
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_TURN_OFF_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_TURN_OFF_PER_USER),
      async (c) => {
        const result = await turnOffMfa(db, clock, c.get('user'), {
          currentPassword: c.req.valid('json').user.current_password,
          publicOrigin,
          origin: requestOrigin(c, trustedProxies),
        });
        if (result.turnedOff) return c.body(null, 204);
        switch (result.reason) {
          case 'wrong_current_password':
            return wrongCurrentPasswordResponse(c);
          case 'company_requires':
            return errorResponse(c, 403, ErrorMessage.companyRequiresMfa);
          case 'not_enrolled':
            return errorResponse(c, 422, ErrorMessage.twoStepAlreadyOff);
        }
      },
    )
    .post('/skip', session, async (c) => {
      if (c.get('companyRequiresMfa')) {
        return errorResponse(c, 403, ErrorMessage.companyRequiresMfa);
      }
      await declineMfaEnrollment(db, clock, c.get('user').id);
      return c.body(null, 204);
    });
}
