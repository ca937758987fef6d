import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * A member who has just signed up goes through the welcome pages once the MFA offer is settled
 * (enrolled or skipped). The flag lives for the browser session: `1` while the welcome pages are
 * due, `done` after them, so that the rest of that first visit greets a new member rather than
 * welcoming them back.
 */
export function startOnboarding(cookies: AstroCookies): void {
  cookies.set(cookieName('onboarding'), '1', cookieOptions());
}

export function isOnboarding(cookies: AstroCookies): boolean {
  return cookies.get(cookieName('onboarding'))?.value === '1';
}

export function finishOnboarding(cookies: AstroCookies): void {
  cookies.set(cookieName('onboarding'), 'done', cookieOptions());
}

/** The member signed up in this browser session (signing out ends it with the cookies). */
export function isNewMember(cookies: AstroCookies): boolean {
  const value = cookies.get(cookieName('onboarding'))?.value;
  return value === '1' || value === 'done';
}
