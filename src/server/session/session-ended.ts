import type { AstroCookies } from 'astro';
import { paths } from '../../routes';
import type { ApiError } from '../api/client';
import { rememberReturnTo } from './return-to';
import { clearSession, writeMfaStep, type WebSession } from './session';

interface UnauthorizedContext {
  readonly cookies: AstroCookies;
  readonly locals: { session: WebSession; xsrfToken: string; unauthorizedRedirect?: string };
}

/**
 * A 401 the API gave: "MFA authentication required" flags the verification step and returns its
 * page; any other 401 clears the session, remembers `currentPage` for after the next sign-in, and
 * returns SignIn.
 */
export function endSessionAfterUnauthorized(
  context: UnauthorizedContext,
  error: ApiError,
  currentPage: URL | undefined,
): string {
  const { cookies, locals } = context;
  const { expiresAt } = locals.session;
  if (error.isMfaRequired && expiresAt) {
    writeMfaStep(cookies, 'verification-required', expiresAt);
    locals.unauthorizedRedirect = paths.mfaEnrollment;
    return paths.mfaEnrollment;
  }
  clearSession(context);
  locals.unauthorizedRedirect = paths.signIn;
  if (currentPage) rememberReturnTo(cookies, `${currentPage.pathname}${currentPage.search}`);
  return paths.signIn;
}
