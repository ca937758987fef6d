import type { Context, MiddlewareHandler } from 'hono';
import { awaitsMfa, requestHasVerifiedMfa } from '../services/mfa.ts';
import { authenticateSession } from '../services/sessions.ts';
import type { ApiDependencies, ApiEnv } from './context.ts';
import { errorResponse, ErrorMessage } from './errors.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if the request carries one. */
export function bearerToken(c: Context): string | undefined {
  return BEARER.exec(c.req.header('authorization') ?? '')?.[1];
}

/** The header that carries the mfa token issued by POST /mfa/verify (docs/PRODUCT.md §7.1). */
export const MFA_TOKEN_HEADER = 'mfa-token';

export interface RequireSessionOptions {
  /**
   * Let a request through that has not completed MFA, for the calls that complete it (the /mfa
   * routes). Every other route refuses it with 401 "MFA authentication required", which tells the
   * client to ask for a code: the request of an enrolled user without the `mfa-token` of a
   * verified session, and any request of a user whose company requires MFA and who has not
   * enrolled yet (docs/PRODUCT.md §12).
   */
  allowUnverifiedMfa?: boolean;
}

/**
 * Admits only requests with a live session token, renewing the session's idle timeout, and sets
 * `session`, `user`, `companyRequiresMfa` and `mfaVerified` on the context. Any unknown, expired
 * or revoked token answers 401 with the same message.
 */
export function requireSession(
  { db, clock }: ApiDependencies,
  options: RequireSessionOptions = {},
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    const authenticated = token ? await authenticateSession(db, token, clock.now()) : null;
    if (!authenticated) return errorResponse(c, 401, ErrorMessage.sessionExpired);
    const { session, user, companyRequiresMfa } = authenticated;
    const mfaVerified = requestHasVerifiedMfa(session, c.req.header(MFA_TOKEN_HEADER));
    if (!options.allowUnverifiedMfa && awaitsMfa(user, companyRequiresMfa, mfaVerified)) {
      return errorResponse(c, 401, ErrorMessage.mfaRequired);
    }
    c.set('session', session);
    c.set('user', user);
    c.set('companyRequiresMfa', companyRequiresMfa);
    c.set('mfaVerified', mfaVerified);
    await next();
    return undefined;
  };
}
