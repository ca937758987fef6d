import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser, tooManyRequests } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { confirmApp, startAppSetup } from '../../services/factors/authenticator-app.ts';
import {
  MFA_APP_REMOVAL_PER_IP,
  MFA_APP_REMOVAL_PER_USER,
  MFA_APP_SETUP_PER_USER,
  MFA_VERIFY_PER_USER,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { currentPasswordBody, mayAddFactor, removeFactor } from './factor-changes.ts';
import { refusedCode, rememberDevice, requestContext, verifiedAnswer } from './step-answers.ts';

const appCodeBody = z.object({ otp: z.string().max(64), remember_device: rememberDevice });

/** The authenticator app as a factor, at /api/v1/mfa/app: set up, confirmed, removed. */
export function createAuthenticatorAppRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, factorSecrets } = dependencies;
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  return new Hono<ApiEnv>()
    .post('/', session, mayAddFactor(dependencies), async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(
        c,
        dependencies,
        MFA_APP_SETUP_PER_USER,
        String(user.id),
      );
      if (refusal) return refusal;
      return c.json(await startAppSetup(db, clock, factorSecrets, user));
    })
    .post('/confirm', session, mayAddFactor(dependencies), jsonBody(appCodeBody), async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(c, dependencies, MFA_VERIFY_PER_USER, String(user.id));
      if (refusal) return refusal;
      const { otp, remember_device: remember } = c.req.valid('json');
      const result = await confirmApp(db, clock, factorSecrets, requestContext(c, remember), {
        otp,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (!result.verified) {
        return result.reason === 'no_setup'
          ? errorResponse(c, 422, ErrorMessage.noAppSetUp)
          : refusedCode(c, result);
      }
      // The first set is shown once, here: the key is absent when the member already had codes.
      return verifiedAnswer(
        c,
        result,
        result.recoveryCodes ? { recovery_codes: result.recoveryCodes } : {},
      );
    })
    .delete(
      '/',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_APP_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_APP_REMOVAL_PER_USER),
      (c) =>
        removeFactor(dependencies, c, { factor: 'app' }, c.req.valid('json').user.current_password),
    );
}
