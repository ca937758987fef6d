import type { AstroCookieSetOptions } from 'astro';
import { config } from '../config.ts';

/**
 * Names and flags of every cookie the web server sets. Over HTTPS the names carry the `__Host-`
 * prefix, which makes the browser refuse them unless they are Secure, host-only and for the whole
 * site.
 */
const baseNames = {
  session: 'session',
  mfaToken: 'mfa_token',
  mfaStep: 'mfa_step',
  returnTo: 'return_to',
  flash: 'flash',
  onboarding: 'onboarding',
  rememberedDevice: 'remembered_device',
  passkeyChallenge: 'passkey_challenge',
  companySignIn: 'company_sign_in',
} as const;

type CookieKey = keyof typeof baseNames;

/** Every cookie the web server sets but the double-submit token. */
export const cookieKeys = Object.keys(baseNames) as readonly CookieKey[];

export function cookieName(key: CookieKey): string {
  return config().secureCookies ? `__Host-${baseNames[key]}` : baseNames[key];
}

/** The name docs/PRODUCT.md §7.1 gives it, readable by scripts on purpose (double-submit). */
export const xsrfCookieName = 'XSRF-TOKEN';

export function cookieOptions(extra: AstroCookieSetOptions = {}): AstroCookieSetOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config().secureCookies,
    ...extra,
  };
}
