import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody, passwordInput, queryParameters } from '../../http/validation.ts';
import { deleteAccount } from '../../services/account/account-deletion.ts';
import { describeCurrentUser } from '../../services/account/profile.ts';
import { changePassword } from '../../services/account/password-change.ts';
import { describeUserAgent } from '../../services/sign-in/user-agents.ts';
import {
  ACCOUNT_DELETION_PER_IP,
  ACCOUNT_DELETION_PER_USER,
  PASSWORD_CHANGE_PER_IP,
  PASSWORD_CHANGE_PER_USER,
} from '../../services/rate-limits.ts';
import {
  listSecurityEvents,
  parseSecurityEventCursor,
  type SecurityEventCursor,
} from '../../services/audit/security-events.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/**
 * The current password is capped as sign-in's is; the new one too, not at the policy's 128: the
 * policy counts characters of the NFKC form, which a cap on UTF-16 units cannot, and answers with
 * its own sentence.
 */
const passwordChangeBody = z.object({
  user: z.object({
    current_password: passwordInput,
    password: passwordInput,
  }),
});

const accountDeletionBody = z.object({
  user: z.object({
    current_password: passwordInput,
  }),
});
/** A `before`/`after` cursor of GET /users/events: as given in `next`/`previous`, else 400. */
const eventCursor = z
  .string()
  .max(40)
  .transform((text, context): SecurityEventCursor => {
    const cursor = parseSecurityEventCursor(text);
    if (cursor) return cursor;
    context.addIssue({
      code: 'custom',
      message: "must be the next or previous of an earlier page's answer",
    });
    return z.NEVER;
  })
  .optional();

const eventsQuery = z
  .object({ before: eventCursor, after: eventCursor })
  .refine((query) => !(query.before && query.after), {
    message: 'cannot be given with before',
    path: ['after'],
  });

/**
 * The account proved with the current password, and its history: PATCH /api/v1/users (password
 * change), DELETE /api/v1/users (deletion) and GET /api/v1/users/events.
 */
export function createAccountRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, storage } = dependencies;

  return new Hono<ApiEnv>()
    .patch(
      '/',
      requireSession(dependencies),
      jsonBody(passwordChangeBody),
      rateLimit(dependencies, PASSWORD_CHANGE_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, PASSWORD_CHANGE_PER_USER),
      async (c) => {
        const { user: change } = c.req.valid('json');
        const result = await changePassword(
          db,
          clock,
          { user: c.get('user'), session: c.get('session') },
          {
            currentPassword: change.current_password,
            password: change.password,
            publicOrigin,
            origin: requestOrigin(c, trustedProxies),
          },
        );
        if (result.changed)
          return c.json(
            await describeCurrentUser(db, result.user, c.get('companyName'), clock.now()),
          );
        switch (result.reason) {
          case 'wrong_current_password':
            return wrongCurrentPasswordResponse(c);
          case 'same_password':
            return errorResponse(c, 422, ErrorMessage.samePassword, 'user.password');
          case 'password_policy':
            return errorResponse(
              c,
              422,
              result.message ?? ErrorMessage.badRequest,
              'user.password',
            );
        }
      },
    )
    .delete(
      '/',
      requireSession(dependencies),
      jsonBody(accountDeletionBody),
      rateLimit(dependencies, ACCOUNT_DELETION_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, ACCOUNT_DELETION_PER_USER),
      async (c) => {
        const { user: deletion } = c.req.valid('json');
        const result = await deleteAccount(db, clock, storage, c.get('user'), {
          currentPassword: deletion.current_password,
          publicOrigin,
          origin: requestOrigin(c, trustedProxies),
        });
        if (result.deleted) return c.body(null, 204);
        return wrongCurrentPasswordResponse(c);
      },
    )
    .get('/events', requireSession(dependencies), queryParameters(eventsQuery), async (c) => {
      const page = await listSecurityEvents(db, c.get('user').id, c.req.valid('query'));
      return c.json({
        events: page.events.map((event) => {
          // In the Devices page's words: every client of the API names a browser alike.
          const { browser, system } = describeUserAgent(event.userAgent);
          return {
            kind: event.kind,
            occurred_at: event.occurredAt.toISOString(),
            network: event.network,
            user_agent: event.userAgent,
            browser: event.userAgent === null ? null : browser,
            system,
          };
        }),
        next: page.older,
        previous: page.newer,
      });
    });
}
