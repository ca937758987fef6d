import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * This browser as a remembered device: the API's token, kept in an httpOnly cookie for as long as
 * the API honours it (30 days). It outlives sign-outs on purpose: only the API can end it (a
 * password change, "Sign out of all other devices", Devices' "Forget"), and a sign-in whose token
 * the API refuses forgets it here too.
 */

/** Tokens as the API makes them: base64url, well under this length. */
const maxTokenLength = 128;

export function readRememberedDevice(cookies: AstroCookies): string | undefined {
  const token = cookies.get(cookieName('rememberedDevice'))?.value;
  return token && token.length <= maxTokenLength && /^[\w-]+$/.test(token) ? token : undefined;
}

export function rememberDevice(cookies: AstroCookies, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  cookies.set(cookieName('rememberedDevice'), token, cookieOptions({ maxAge }));
}

export function forgetRememberedDevice(cookies: AstroCookies): void {
  if (cookies.has(cookieName('rememberedDevice'))) {
    cookies.delete(cookieName('rememberedDevice'), cookieOptions());
  }
}
