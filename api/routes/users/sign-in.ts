import { Hono } from 'hono';
import { z } from 'zod';
import { bearerToken } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { jsonBody, passwordInput } from '../../http/validation.ts';
import { signIn, signOut } from '../../services/sign-in/authentication.ts';
import { companySignInRequiredFor } from '../../services/company-sign-in/connections.ts';
import { companyRequiresMfa } from '../../services/factors/two-step-verification.ts';
import { signInMfaFlags } from '../../services/factors/offer.ts';
import { SIGN_IN_PER_IP } from '../../services/rate-limits.ts';
import { MFA_TOKEN_HEADER } from '../../../contract/headers.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

const signInBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
    password: passwordInput,
  }),
  /**
   * The token of a remembered device, which the browser keeps from an earlier step. Any string up
   * to the cap is taken, so that a stale or mangled cookie is answered `device_remembered: false`
   * (and dropped) rather than refused.
   */
  device_token: z.string().max(128).optional(),
});

/** Signing in and out: /api/v1/users/sign_in and /sign_out. */
export function createSignInRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>()
    .post(
      '/sign_in',
      jsonBody(signInBody),
      rateLimit(dependencies, SIGN_IN_PER_IP, (c) => clientAddress(c, trustedProxies)),
      async (c) => {
        const { user: credentials, device_token: deviceToken } = c.req.valid('json');
        // Before the password is looked at: the domain says it, and the domain is public.
        if (await companySignInRequiredFor(db, credentials.email)) {
          return errorResponse(c, 403, ErrorMessage.companySignInRequired);
        }
        const result = await signIn(
          db,
          clock,
          { ...credentials, deviceToken },
          publicOrigin,
          requestOrigin(c, trustedProxies),
        );
        if (!result.signedIn) return errorResponse(c, 401, ErrorMessage.invalidCredentials);
        const requiresMfa = await companyRequiresMfa(db, result.user.companyId);
        c.header('Authorization', `Bearer ${result.issued.token}`);
        // A remembered device took the step: the session is as after POST /mfa/verify.
        if (result.mfaToken !== undefined) c.header(MFA_TOKEN_HEADER, result.mfaToken);
        // Without a device token the answer keeps the shape of docs/PRODUCT.md §7.1.
        return c.json({
          expires_at: result.issued.expiresAt.toISOString(),
          ...(result.mfaToken === undefined
            ? signInMfaFlags(result.user, requiresMfa, clock.now())
            : { mfa_requires_verification: false, mfa_required: false }),
          ...(result.deviceRemembered === undefined
            ? {}
            : { device_remembered: result.deviceRemembered }),
        });
      },
    )
    .delete('/sign_out', async (c) => {
      // Sign-out succeeds whatever the token's state: the client clears its session either way,
      // and a stale or unknown token has nothing left to revoke.
      const token = bearerToken(c);
      if (token) await signOut(db, clock, token, requestOrigin(c, trustedProxies));
      return c.body(null, 204);
    });
}
