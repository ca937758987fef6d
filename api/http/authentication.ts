import type { Context, MiddlewareHandler } from 'hono';
import { sessionAwaitsMfaVerification } from '../services/mfa.ts';
import { authenticateSession } from '../services/sessions.ts';
import type { ApiDependencies, ApiEnv } from './context.ts';
import { errorResponse, ErrorMessage } from './errors.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if the request carries one. */
export function bearerToken(c: Context): string | undefined {
  return BEARER.exec(c.req.header('authorization') ?? '')?.[1];
}

export interface RequireSessionOptions {
  /**
   * Let an MFA-enrolled user whose session has not been verified yet through, for the calls that
   * complete the verification (the /mfa routes). Every other route refuses such a session with
   * 401 "MFA authentication required", which tells the client to ask for a code.
   */
  allowUnverifiedMfa?: boolean;
}

/**
 * Admits only requests with a live session token, renewing the session's idle timeout, and sets
 * `session` and `user` on the context. Any unknown, expired or revoked token answers 401 with
 * the same message.
 */
export function requireSession(
  { db, clock }: ApiDependencies,
  options: RequireSessionOptions = {},
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    const authenticated = token ? await authenticateSession(db, token, clock.now()) : null;
    if (!authenticated) return errorResponse(c, 401, ErrorMessage.sessionExpired);
    const { session, user } = authenticated;
    if (!options.allowUnverifiedMfa && sessionAwaitsMfaVerification(user, session)) {
      return errorResponse(c, 401, ErrorMessage.mfaRequired);
    }
    c.set('session', session);
    c.set('user', user);
    await next();
    return undefined;
  };
}
