import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../../http/errors.ts';
import { passwordInput } from '../../http/validation.ts';
import { removeSecondFactor, type FactorToRemove } from '../../services/factors/factor-removal.ts';
import { hasEnrolledMfa } from '../../services/member-factors.ts';
import { isRecentlyProven } from '../../services/sign-in/recent-proof.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

/** The body of every change proved with the current password. */
export const currentPasswordBody = z.object({
  user: z.object({ current_password: passwordInput }),
});

/**
 * Adding or changing a factor, checked before the body is read. Once the member has one, only a
 * session that proved it may, or a stolen password would be enough to move the second step to the
 * thief's phone, app or passkey; and only a session proven lately, or a stolen session alone would
 * be enough to add the thief's own.
 */
export function mayAddFactor({ clock }: ApiDependencies): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (hasEnrolledMfa(c.get('user')) && !c.get('mfaVerified')) {
      return errorResponse(c, 401, ErrorMessage.mfaRequired);
    }
    if (!isRecentlyProven(c.get('session'), clock.now())) {
      return errorResponse(c, 403, ErrorMessage.recentPasswordRequired);
    }
    await next();
    return undefined;
  };
}

/** DELETE /mfa/app, /mfa/phone and /mfa/passkeys/:id: one factor removed, by the same rules. */
export async function removeFactor(
  { db, clock, trustedProxies, publicOrigin }: ApiDependencies,
  c: Context<ApiEnv>,
  target: FactorToRemove,
  currentPassword: string,
) {
  const result = await removeSecondFactor(db, clock, c.get('user'), target, {
    currentPassword,
    companyRequiresMfa: c.get('companyRequiresMfa'),
    publicOrigin,
    origin: requestOrigin(c, trustedProxies),
  });
  if (result.removed) return c.body(null, 204);
  switch (result.reason) {
    case 'wrong_current_password':
      return wrongCurrentPasswordResponse(c);
    case 'not_enrolled':
      return target.factor === 'passkey'
        ? errorResponse(c, 404, ErrorMessage.passkeyNotFound)
        : errorResponse(
            c,
            422,
            target.factor === 'app' ? ErrorMessage.noAppToRemove : ErrorMessage.noPhoneToRemove,
          );
    case 'last_factor_required':
      return errorResponse(c, 403, ErrorMessage.lastFactorRequired);
  }
}
