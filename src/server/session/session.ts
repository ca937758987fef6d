import type { AstroCookies } from 'astro';
import { cookieKeys, cookieName, cookieOptions } from './cookies';
import { parseSessionCookie, sessionCookieValue } from './session-cookie';
import { issueXsrfCookie } from './xsrf';

/** The MFA step a signed-in browser is in, if any. */
export type MfaStep = 'enrollment-available' | 'verification-required';

/**
 * What the browser's cookies say about its session. The token itself never
 * reaches page scripts: these cookies are httpOnly.
 */
export interface WebSession {
  readonly token: string | undefined;
  readonly expiresAt: Date | undefined;
  readonly mfaToken: string | undefined;
  readonly mfaStep: MfaStep | undefined;
}

const emptySession: WebSession = {
  token: undefined,
  expiresAt: undefined,
  mfaToken: undefined,
  mfaStep: undefined,
};

const mfaSteps: readonly MfaStep[] = ['enrollment-available', 'verification-required'];

/** A token is present and its expiry lies in the future. */
export function isAuthenticated(session: WebSession, now: Date = new Date()): boolean {
  return (
    session.token !== undefined &&
    session.expiresAt !== undefined &&
    session.expiresAt.getTime() > now.getTime()
  );
}

/** A signed-in user who still has to enter a code before using the product. */
export function hasPendingMfaStep(session: WebSession): boolean {
  return session.mfaStep === 'verification-required';
}

export function readSession(cookies: AstroCookies): WebSession {
  const session = parseSessionCookie(cookies.get(cookieName('session'))?.value);
  if (!session) return emptySession;
  const mfaStep = cookies.get(cookieName('mfaStep'))?.value;
  return {
    ...session,
    mfaToken: cookies.get(cookieName('mfaToken'))?.value || undefined,
    mfaStep: mfaSteps.find((step) => step === mfaStep),
  };
}

const secondsUntil = (expiresAt: Date) =>
  Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));

/** What changing the session needs: the cookies, and the request's view of the session. */
interface SessionContext {
  readonly cookies: AstroCookies;
  readonly locals: { session: WebSession; xsrfToken: string };
}

/**
 * Stores a freshly issued token. Every cookie of an earlier session (a stale or planted mfa
 * token, an old MFA step) goes first, so nothing from before travels with the new session, and
 * the XSRF token is made anew for it. Cookies last exactly as long as the token.
 */
export function startSession(
  context: SessionContext,
  { token, expiresAt }: { token: string; expiresAt: Date },
): void {
  removeSessionCookies(context.cookies);
  context.cookies.set(
    cookieName('session'),
    sessionCookieValue({ token, expiresAt }),
    cookieOptions({ maxAge: secondsUntil(expiresAt) }),
  );
  context.locals.session = { ...emptySession, token, expiresAt };
  rebindXsrfToken(context);
}

export function writeMfaStep(
  cookies: AstroCookies,
  step: MfaStep | undefined,
  expiresAt: Date,
): void {
  if (step) {
    cookies.set(cookieName('mfaStep'), step, cookieOptions({ maxAge: secondsUntil(expiresAt) }));
  } else {
    cookies.delete(cookieName('mfaStep'), cookieOptions());
  }
}

/** Keeps a new mfa token: in its cookie, and for the rest of this request's API calls. */
export function writeMfaToken(context: SessionContext, mfaToken: string, expiresAt: Date): void {
  context.cookies.set(
    cookieName('mfaToken'),
    mfaToken,
    cookieOptions({ maxAge: secondsUntil(expiresAt) }),
  );
  context.locals.session = { ...context.locals.session, mfaToken };
}

/**
 * Clears all session data (token, expiry, mfa token, MFA flags). A session that ended takes its
 * XSRF token with it.
 */
export function clearSession(context: SessionContext): void {
  removeSessionCookies(context.cookies);
  const hadSession = context.locals.session.token !== undefined;
  context.locals.session = emptySession;
  if (hadSession) rebindXsrfToken(context);
}

/**
 * At sign-out, what the visit left besides the session (a remembered page, the onboarding mark,
 * toasts): everything of this site's but a remembered device, which outlives sign-outs.
 */
export function forgetSignedInCookies(cookies: AstroCookies): void {
  for (const key of cookieKeys) {
    if (key !== 'rememberedDevice' && cookies.has(cookieName(key))) {
      cookies.delete(cookieName(key), cookieOptions());
    }
  }
}

function removeSessionCookies(cookies: AstroCookies): void {
  for (const key of ['session', 'mfaToken', 'mfaStep'] as const) {
    cookies.delete(cookieName(key), cookieOptions());
  }
}

/** The forms rendered from here on, and the browser's cookie, carry a token for the new session. */
function rebindXsrfToken({ cookies, locals }: SessionContext): void {
  locals.xsrfToken = issueXsrfCookie(cookies, locals.session.token);
}
