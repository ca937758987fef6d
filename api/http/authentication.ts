import { MFA_TOKEN_HEADER } from '../../contract/headers.ts';
import type { Context, MiddlewareHandler } from 'hono';
import { awaitsMfa, requestHasVerifiedMfa } from '../services/factors/step.ts';
import { authenticateSession, type AuthenticatedSession } from '../services/sign-in/sessions.ts';
import type { ApiDependencies, ApiEnv } from './context.ts';
import { errorResponse } from './errors.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if the request carries one. */
export function bearerToken(c: Context): string | undefined {
  return BEARER.exec(c.req.header('authorization') ?? '')?.[1];
}

interface RequireSessionOptions {
  /**
   * Let a request through that has not completed MFA, for the calls that complete it (the /mfa
   * routes). Every other route refuses it with 401 "MFA authentication required", which tells the
   * client to ask for a code: the request of an enrolled user without the `mfa-token` of a verified
   * session, and any request of a user whose company requires MFA and who has not enrolled yet.
   */
  allowUnverifiedMfa?: boolean;
}

/** A session checked by requireSession, with what the check found. */
interface CheckedSession extends AuthenticatedSession {
  mfaVerified: boolean;
}

/**
 * The reads a batch (routes/batch.ts) sends in-process, each with the session the batch itself
 * checked. Keyed by the very Request object the batch made: nothing sent from outside can be one.
 */
const checkedByBatch = new WeakMap<Request, CheckedSession>();

/** Marks `read`, a request the batch is about to send in-process, as made with `checked`. */
export function shareCheckedSession(read: Request, checked: CheckedSession): void {
  checkedByBatch.set(read, checked);
}

/**
 * Admits only requests with a live session token, renewing the session's idle timeout, and sets
 * `session`, `user`, `companyName`, `companyRequiresMfa`, `mfaVerified` and `memberFacts` on the
 * context. Any unknown, expired or revoked token answers 401 with the same message. A read of a
 * batch comes with the session the batch checked, which is not checked again.
 */
export function requireSession(
  { db, clock }: ApiDependencies,
  options: RequireSessionOptions = {},
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const checked = checkedByBatch.get(c.req.raw) ?? (await checkSession(c, db, clock.now()));
    if (!checked) return errorResponse(c, 401, ErrorMessage.sessionExpired);
    const { session, user, companyName, companyRequiresMfa, mfaVerified, memberFacts } = checked;
    if (!options.allowUnverifiedMfa && awaitsMfa(user, companyRequiresMfa, mfaVerified)) {
      return errorResponse(c, 401, ErrorMessage.mfaRequired);
    }
    c.set('session', session);
    c.set('user', user);
    c.set('companyName', companyName);
    c.set('companyRequiresMfa', companyRequiresMfa);
    c.set('mfaVerified', mfaVerified);
    c.set('memberFacts', memberFacts);
    await next();
    return undefined;
  };
}

async function checkSession(
  c: Context,
  db: ApiDependencies['db'],
  now: Date,
): Promise<CheckedSession | null> {
  const token = bearerToken(c);
  const authenticated = token ? await authenticateSession(db, token, now) : null;
  if (!authenticated) return null;
  const mfaVerified = requestHasVerifiedMfa(authenticated.session, c.req.header(MFA_TOKEN_HEADER));
  return { ...authenticated, mfaVerified };
}
