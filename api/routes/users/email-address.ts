import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody, passwordInput } from '../../http/validation.ts';
import {
  confirmEmail,
  requestEmailChange,
  resendVerificationLink,
} from '../../services/account/email-address.ts';
import {
  EMAIL_CHANGE_PER_IP,
  EMAIL_CHANGE_PER_USER,
  EMAIL_CONFIRMATION_PER_USER,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** The answers of the email address routes that are not errors. */
const EmailAddressMessage = {
  confirmed: 'Your email address has been confirmed.',
  changed: 'Your email address has been changed.',
  linkSent: (email: string) => `We sent a new link to ${email}.`,
  changeRequested: (email: string) =>
    `We sent a link to ${email}. Your address changes when you follow it.`,
} as const;

const confirmBody = z.object({ confirmation_token: z.string().max(256) });

const changeBody = z.object({
  user: z.object({
    current_password: passwordInput,
    // As at sign-up (routes/sign-up.ts).
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  }),
});

/**
 * Proving and changing the account's address: /api/v1/users/confirmation (POST: a new link for the
 * signed-in member; PUT: follow a link) and PATCH /api/v1/users/email (ask for a change). Mounted
 * by the users routes.
 */
export function createConfirmationRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>()
    .post(
      '/',
      requireSession(dependencies),
      rateLimitPerUser(dependencies, EMAIL_CONFIRMATION_PER_USER),
      async (c) => {
        // The session says whose address, never a body: nobody can probe other addresses here.
        const result = await resendVerificationLink(db, clock, c.get('user').id, publicOrigin);
        if (!result.sent) return errorResponse(c, 422, ErrorMessage.emailAlreadyVerified);
        return c.json({ message: EmailAddressMessage.linkSent(result.email), email: result.email });
      },
    )
    .put('/', jsonBody(confirmBody), async (c) => {
      const { confirmation_token: token } = c.req.valid('json');
      const result = await confirmEmail(
        db,
        clock,
        token,
        requestOrigin(c, trustedProxies),
        publicOrigin,
      );
      if (result.confirmed) {
        return c.json({
          message: result.changed ? EmailAddressMessage.changed : EmailAddressMessage.confirmed,
          email: result.email,
          changed: result.changed,
        });
      }
      const refusals = {
        email_taken: ErrorMessage.emailTakenSinceAsked,
        superseded_token: ErrorMessage.supersededConfirmationToken,
        invalid_token: ErrorMessage.invalidConfirmationToken,
      } as const;
      return errorResponse(c, 422, refusals[result.reason]);
    });
}

export function createEmailChangeRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>().patch(
    '/',
    requireSession(dependencies),
    jsonBody(changeBody),
    rateLimit(dependencies, EMAIL_CHANGE_PER_IP, (c) => clientAddress(c, trustedProxies)),
    rateLimitPerUser(dependencies, EMAIL_CHANGE_PER_USER),
    async (c) => {
      const { user: change } = c.req.valid('json');
      const result = await requestEmailChange(db, clock, c.get('user'), {
        currentPassword: change.current_password,
        email: change.email,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (result.requested) {
        return c.json({ message: EmailAddressMessage.changeRequested(change.email) });
      }
      if (result.reason === 'same_email') {
        return errorResponse(c, 422, ErrorMessage.sameEmail, 'user.email');
      }
      return wrongCurrentPasswordResponse(c);
    },
  );
}
