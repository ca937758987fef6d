import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { rateLimit, tooManyRequests } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { requestPasswordReset, resetPassword } from '../../services/account/password-reset.ts';
import { companySignInRequiredFor } from '../../services/company-sign-in/connections.ts';
import { errorResponse } from '../../http/errors.ts';
import {
  accountSubject,
  PASSWORD_RESET_PER_ACCOUNT,
  PASSWORD_RESET_PER_IP,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** The answers of the password routes that are not errors. */
const PasswordMessage = {
  resetRequested:
    'If that email address has an account, we have emailed a link to reset its password.',
  changed: 'Your password has been changed.',
} as const;

/** Long enough for any real password; the policy's own limit (128) answers with its sentence. */
const PASSWORD_INPUT_MAX_LENGTH = 1024;

const resetRequestBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  }),
});

const resetBody = z.object({
  reset_password_token: z.string().max(256),
  password: z.string().max(PASSWORD_INPUT_MAX_LENGTH),
  password_confirmation: z.string().max(PASSWORD_INPUT_MAX_LENGTH),
});

/**
 * The refusal of PUT /users/password. Its contract (docs/PRODUCT.md §7.1) has clients read
 * `status.message`; the API's usual `error` (§7.3) carries the same sentence. A refusal about one
 * input names it in `field` and `status.field` (`password`, `password_confirmation`).
 */
function refuseReset(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  field?: string,
): Response {
  if (field === undefined) return c.json({ error: message, status: { message } }, status);
  return c.json({ error: message, field, status: { message, field } }, status);
}

/**
 * Password reset: /api/v1/users/password. Mounted by the users routes.
 */
export function createPasswordRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>()
    .post(
      '/',
      jsonBody(resetRequestBody),
      rateLimit(dependencies, PASSWORD_RESET_PER_IP, (c) => clientAddress(c, trustedProxies)),
      async (c) => {
        const { email } = c.req.valid('json').user;
        // Counted per address typed, known or not, so that a 429 reveals nothing either.
        const refusal = await tooManyRequests(
          c,
          dependencies,
          PASSWORD_RESET_PER_ACCOUNT,
          accountSubject(email),
        );
        if (refusal) return refusal;
        // The company keeps its people's passwords (docs/PRODUCT.md §15): said for the domain,
        // which is public, so it tells nothing of who has an account.
        if (await companySignInRequiredFor(db, email)) {
          return errorResponse(c, 403, ErrorMessage.companySignInRequired, 'user.email');
        }
        await requestPasswordReset(db, clock, email, publicOrigin);
        return c.json({ message: PasswordMessage.resetRequested });
      },
    )
    .put('/', jsonBody(resetBody, { refuse: refuseReset }), async (c) => {
      const body = c.req.valid('json');
      const result = await resetPassword(db, clock, {
        token: body.reset_password_token,
        password: body.password,
        passwordConfirmation: body.password_confirmation,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (result.changed) return c.json({ message: PasswordMessage.changed });
      switch (result.reason) {
        case 'invalid_token':
          return refuseReset(c, 422, ErrorMessage.invalidResetToken);
        case 'superseded_token':
          return refuseReset(c, 422, ErrorMessage.supersededResetToken);
        case 'confirmation_mismatch':
          return refuseReset(
            c,
            422,
            ErrorMessage.passwordConfirmationMismatch,
            'password_confirmation',
          );
        case 'password_policy':
          return refuseReset(c, 422, result.message ?? ErrorMessage.badRequest, 'password');
      }
    });
}
