import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * The token of this browser's sign-in with its company's provider: the API ties the provider's
 * answer to it, so an answer carried into another browser does nothing there. Kept where no script
 * can read it, for the ten minutes the sign-in lives; SameSite=Lax, so it comes back with the
 * provider's redirect.
 */

/** Tokens as the API makes them: base64url, well under this length. */
const maxTokenLength = 128;

export function keepCompanySignIn(cookies: AstroCookies, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  cookies.set(cookieName('companySignIn'), token, cookieOptions({ maxAge }));
}

export function readCompanySignIn(cookies: AstroCookies): string | undefined {
  const token = cookies.get(cookieName('companySignIn'))?.value;
  return token && token.length <= maxTokenLength && /^[\w-]+$/.test(token) ? token : undefined;
}

export function forgetCompanySignIn(cookies: AstroCookies): void {
  if (cookies.has(cookieName('companySignIn'))) {
    cookies.delete(cookieName('companySignIn'), cookieOptions());
  }
}
