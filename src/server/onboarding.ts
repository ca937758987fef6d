import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * docs/PRODUCT.md §4: a member who has just signed up goes through the welcome pages once the MFA
 * offer is settled (enrolled or skipped). The flag lives for the browser session.
 */
export function startOnboarding(cookies: AstroCookies): void {
  cookies.set(cookieName('onboarding'), '1', cookieOptions());
}

export function isOnboarding(cookies: AstroCookies): boolean {
  return cookies.get(cookieName('onboarding'))?.value === '1';
}

export function finishOnboarding(cookies: AstroCookies): void {
  cookies.delete(cookieName('onboarding'), cookieOptions());
}
