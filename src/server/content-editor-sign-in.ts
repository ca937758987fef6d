import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OAuth's `state` for the content editor's GitHub sign-in, which Keystatic neither requires nor
 * checks: without it, a page anywhere could send an editor's browser to the callback with the code
 * of the attacker's own GitHub sign-in, and the editor would save as the attacker. Each sign-in
 * that leaves for GitHub carries a new random `state`, kept in an httpOnly cookie that only the
 * callback receives; the callback is refused, before Keystatic trades the code for a token, unless
 * both are there and the same.
 */

/** Where GitHub sends the editor back, as Keystatic gives it to GitHub. */
export const signInCallbackPath = '/api/keystatic/github/oauth/callback';

/** The cookie holding the state of the sign-in under way in this browser. */
export const signInStateCookie = 'keystatic-oauth-state';

/** Long enough to sign in at GitHub, with its second step. */
export const signInStateMaxAgeSeconds = 10 * 60;

const gitHubAuthorizeAddress = 'https://github.com/login/oauth/authorize';

/**
 * Keystatic keeps where the editor was in a cookie named after its own `state` (`ks-<state>`,
 * and only when there was somewhere to return to), which its callback reads by the `state` it
 * gets back.
 */
const keystaticReturnCookiePrefix = 'ks-';

export function newSignInState(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The path under /api/keystatic/ as Keystatic's API reads it (each segment decoded, empty ones
 * dropped: `github//oauth%2Fcallback/` is its callback too), or `undefined` for a path it cannot
 * read.
 */
function keystaticApiPath(pathname: string): string | undefined {
  try {
    return pathname
      .replace(/^\/api\/keystatic\/?/, '')
      .split('/')
      .map((segment) => decodeURIComponent(segment))
      .filter(Boolean)
      .join('/');
  } catch {
    return undefined;
  }
}

/** Whether the path reaches Keystatic's GitHub callback, however it is written. */
export function isSignInCallback(pathname: string): boolean {
  const path = keystaticApiPath(pathname);
  return path === undefined || path === 'github/oauth/callback';
}

/** Whether the callback's `state` is the one this browser's sign-in left with. */
export function isThisBrowsersSignIn(
  returnedState: string | null,
  keptState: string | undefined,
): boolean {
  if (!returnedState || !keptState) return false;
  const returned = Buffer.from(returnedState);
  const kept = Buffer.from(keptState);
  return returned.length === kept.length && timingSafeEqual(returned, kept);
}

/**
 * Keystatic's answer sending the browser to GitHub's sign-in, carrying `state` instead of
 * Keystatic's own (whose cookie, if it set one, is renamed to match); `undefined` for any other
 * answer.
 */
export function withSignInState(response: Response, state: string): Response | undefined {
  const location = response.headers.get('location');
  if (location === null || !location.startsWith(`${gitHubAuthorizeAddress}?`)) return undefined;
  const toGitHub = new URL(location);
  const keystaticState = toGitHub.searchParams.get('state');
  toGitHub.searchParams.set('state', state);
  const headers = new Headers();
  for (const [name, value] of response.headers) {
    if (name === 'location' || name === 'set-cookie') continue;
    headers.set(name, value);
  }
  headers.set('location', toGitHub.href);
  const keystaticCookie = `${keystaticReturnCookiePrefix}${keystaticState ?? ''}=`;
  for (const cookie of response.headers.getSetCookie()) {
    headers.append(
      'set-cookie',
      keystaticState && cookie.startsWith(keystaticCookie)
        ? `${keystaticReturnCookiePrefix}${state}=${cookie.slice(keystaticCookie.length)}`
        : cookie,
    );
  }
  return new Response(null, { status: response.status, headers });
}
