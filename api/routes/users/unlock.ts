import { Hono } from 'hono';
import { z } from 'zod';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit, tooManyRequests } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import {
  accountSubject,
  UNLOCK_REQUEST_PER_ACCOUNT,
  UNLOCK_REQUEST_PER_IP,
} from '../../services/rate-limits.ts';
import { requestUnlockLink, unlockWithToken } from '../../services/sign-in/unlock.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** The answers of the unlock routes that are not errors. */
const UnlockMessage = {
  unlocked: 'Your account has been unlocked. You can now sign in.',
  linkRequested: 'If that account is locked, we have emailed a link to unlock it.',
} as const;

const unlockRequestBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  }),
});

/**
 * Unlocking a locked account: /api/v1/users/unlock. Mounted by the users routes.
 */
export function createUnlockRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>()
    .get('/', async (c) => {
      const token = c.req.query('unlock_token');
      if (!token) return errorResponse(c, 400, 'unlock_token is required.');
      const unlocked = await unlockWithToken(db, clock, token, requestOrigin(c, trustedProxies));
      if (unlocked !== true) {
        return errorResponse(
          c,
          422,
          unlocked === 'superseded_token'
            ? ErrorMessage.supersededUnlockToken
            : ErrorMessage.invalidUnlockToken,
        );
      }
      return c.json({ message: UnlockMessage.unlocked });
    })
    .post(
      '/',
      jsonBody(unlockRequestBody),
      rateLimit(dependencies, UNLOCK_REQUEST_PER_IP, (c) => clientAddress(c, trustedProxies)),
      async (c) => {
        const { email } = c.req.valid('json').user;
        const refusal = await tooManyRequests(
          c,
          dependencies,
          UNLOCK_REQUEST_PER_ACCOUNT,
          accountSubject(email),
        );
        if (refusal) return refusal;
        await requestUnlockLink(db, clock, email, publicOrigin);
        return c.json({ message: UnlockMessage.linkRequested });
      },
    );
}
