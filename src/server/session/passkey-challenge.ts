import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * The token that ties a passkey sign-in's challenge to this browser: the API gives it with the
 * options, and takes the browser's answer only with it. Kept where no script can read it, for the
 * five minutes the challenge lives, and taken once.
 */

const lifetimeSeconds = 5 * 60;

/** Tokens as the API makes them: base64url, well under this length. */
const maxTokenLength = 128;

export function keepPasskeyChallenge(cookies: AstroCookies, token: string): void {
  cookies.set(cookieName('passkeyChallenge'), token, cookieOptions({ maxAge: lifetimeSeconds }));
}

/** The token kept for this browser's latest challenge, forgotten as it is read. */
export function takePasskeyChallenge(cookies: AstroCookies): string | undefined {
  const token = cookies.get(cookieName('passkeyChallenge'))?.value;
  if (cookies.has(cookieName('passkeyChallenge'))) {
    cookies.delete(cookieName('passkeyChallenge'), cookieOptions());
  }
  return token && token.length <= maxTokenLength && /^[\w-]+$/.test(token) ? token : undefined;
}
