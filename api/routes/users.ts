import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { companies } from '../db/schema.ts';
import { bearerToken, requireSession } from '../http/authentication.ts';
import { clientAddress } from '../http/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse, ErrorMessage } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody } from '../http/validation.ts';
import { signIn } from '../services/authentication.ts';
import { signInMfaFlags } from '../services/mfa.ts';
import { SIGN_IN_PER_IP } from '../services/rate-limits.ts';
import { revokeSession } from '../services/sessions.ts';
import { createPasswordRoutes } from './passwords.ts';
import { createUnlockRoutes } from './unlock.ts';

/** Long enough for any real password, short enough that argon2 is never fed megabytes. */
const SIGN_IN_PASSWORD_MAX_LENGTH = 1024;

const signInBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
    password: z.string().min(1).max(SIGN_IN_PASSWORD_MAX_LENGTH),
  }),
});

/**
 * Accounts and sessions: /api/v1/users/… (docs/PRODUCT.md §7), with the password reset
 * (`/password`) and unlock (`/unlock`) routes mounted from their own files.
 */
export function createUsersRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>()
    .post(
      '/sign_in',
      jsonBody(signInBody),
      rateLimit(dependencies, SIGN_IN_PER_IP, (c) => clientAddress(c, trustedProxies)),
      async (c) => {
        const { user: credentials } = c.req.valid('json');
        const result = await signIn(db, clock, credentials, publicOrigin);
        if (!result.signedIn) return errorResponse(c, 401, ErrorMessage.invalidCredentials);
        c.header('Authorization', `Bearer ${result.issued.token}`);
        return c.json({
          expires_at: result.issued.expiresAt.toISOString(),
          ...signInMfaFlags(result.user),
        });
      },
    )
    .get('/current', requireSession(dependencies), async (c) => {
      const user = c.get('user');
      const [company] =
        user.companyId === null
          ? []
          : await db
              .select({ name: companies.name })
              .from(companies)
              .where(eq(companies.id, user.companyId));
      return c.json({
        external_id: user.externalId,
        full_name: `${user.name} ${user.lastName}`,
        email: user.email,
        company: company ? { name: company.name } : null,
        // Requests are stored in a table that this schema does not have yet; until it does, every
        // member has made none. Clients increment the count locally after making one.
        request_count: 0,
      });
    })
    .delete('/sign_out', async (c) => {
      // Sign-out succeeds whatever the token's state: the client clears its session either way,
      // and a stale or unknown token has nothing left to revoke.
      const token = bearerToken(c);
      if (token) await revokeSession(db, token, clock.now());
      return c.body(null, 204);
    })
    .route('/password', createPasswordRoutes(dependencies))
    .route('/unlock', createUnlockRoutes(dependencies));
}
