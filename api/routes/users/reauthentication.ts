import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody, passwordInput } from '../../http/validation.ts';
import { REAUTHENTICATION_PER_IP, REAUTHENTICATION_PER_USER } from '../../services/rate-limits.ts';
import { reauthenticate } from '../../services/sign-in/recent-proof.ts';

const reauthenticationBody = z.object({
  user: z.object({ current_password: passwordInput }),
});

/**
 * The password given again: /api/v1/users/reauthentication, mounted by the users routes. Past the
 * second step, so that a stolen password alone proves nothing.
 */
export function createReauthenticationRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>().post(
    '/',
    requireSession(dependencies),
    jsonBody(reauthenticationBody),
    rateLimit(dependencies, REAUTHENTICATION_PER_IP, (c) => clientAddress(c, trustedProxies)),
    rateLimitPerUser(dependencies, REAUTHENTICATION_PER_USER),
    async (c) => {
      const result = await reauthenticate(
        db,
        clock,
        { user: c.get('user'), session: c.get('session') },
        {
          currentPassword: c.req.valid('json').user.current_password,
          publicOrigin,
          origin: requestOrigin(c, trustedProxies),
        },
      );
      return result.proven ? c.body(null, 204) : wrongCurrentPasswordResponse(c);
    },
  );
}
