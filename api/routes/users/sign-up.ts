import { Hono } from 'hono';
import { z } from 'zod';
import { clientAddress } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { memberName } from '../../http/member-name.ts';
import { jsonBody } from '../../http/validation.ts';
import { SIGN_UP_PER_IP } from '../../services/rate-limits.ts';
import { signUp } from '../../services/account/sign-up.ts';
import {
  companySignInRequiredFor,
  connectionForCompanySlug,
} from '../../services/company-sign-in/connections.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** Long enough for any real password; the policy's own limit (128) answers with its sentence. */
const PASSWORD_INPUT_MAX_LENGTH = 1024;

const signUpBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
    password: z.string().max(PASSWORD_INPUT_MAX_LENGTH),
    name: memberName(),
    last_name: memberName(),
    // Any of these shapes; whether it says "accepted" is checked below, as a 422 about the field.
    terms_of_service: z.union([z.boolean(), z.number(), z.string().max(16), z.null()]).optional(),
    company_slug: z.string().trim().toLowerCase().max(100).nullish(),
  }),
});

/**
 * `terms_of_service` defaults to 1 (docs/PRODUCT.md §3, §9) and must say "accepted": 1, "1" or
 * true. Anything else (0, false, "0", null) refuses the sign-up.
 */
function acceptsTerms(value: boolean | number | string | null | undefined): boolean {
  return value === undefined || value === 1 || value === '1' || value === true;
}

/**
 * POST /api/v1/users/sign_up: 201 `{"data": "{\"email\":\"…\"}"}`, the `data` being a JSON string,
 * as the contract has it. The client then signs in. Refusals are 422 `{"error", "field"}` with
 * `field` the input at fault (`user.email`, `user.password`, `user.company_slug`,
 * `user.terms_of_service`).
 */
export function createSignUpRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;

  return new Hono<ApiEnv>().post(
    '/',
    jsonBody(signUpBody),
    rateLimit(dependencies, SIGN_UP_PER_IP, (c) => clientAddress(c, trustedProxies)),
    async (c) => {
      const { user: input } = c.req.valid('json');
      if (!acceptsTerms(input.terms_of_service)) {
        return errorResponse(c, 422, ErrorMessage.termsNotAccepted, 'user.terms_of_service');
      }
      // A company that signs its people in itself takes no passwords (docs/PRODUCT.md §15).
      if (await companySignInRequiredFor(db, input.email)) {
        return errorResponse(c, 403, ErrorMessage.companySignInRequired, 'user.email');
      }
      const slug = input.company_slug?.trim();
      if (slug && (await connectionForCompanySlug(db, slug))?.connection.signInRequired) {
        return errorResponse(c, 403, ErrorMessage.companySignInRequired, 'user.company_slug');
      }
      const result = await signUp(db, clock, {
        email: input.email,
        password: input.password,
        name: input.name,
        lastName: input.last_name,
        companySlug: input.company_slug ?? null,
        publicOrigin,
      });
      if (result.created) {
        return c.json({ data: JSON.stringify({ email: result.user.email }) }, 201);
      }
      switch (result.reason) {
        case 'unknown_company':
          return errorResponse(c, 422, ErrorMessage.unknownCompany, 'user.company_slug');
        case 'email_taken':
          return errorResponse(c, 422, ErrorMessage.emailTaken, 'user.email');
        case 'password_policy':
          return errorResponse(c, 422, result.message ?? ErrorMessage.badRequest, 'user.password');
      }
    },
  );
}
