import type { AstroCookies } from 'astro';
import { cookieName, cookieOptions } from './cookies';

/**
 * The return target: where a visitor goes after signing in. Only a path on
 * this site is ever stored or followed; anything that could leave the site
 * (`//host`, `/\host`, `https://…`, their percent-encoded forms, control
 * characters) is refused, and the caller falls back to the Dashboard.
 */
export function safeReturnPath(candidate: string | null | undefined): string | undefined {
  if (!candidate || !staysOnThisSite(candidate)) return undefined;
  const path = resolvedPath(candidate);
  // Dot segments resolve away (`/..//evil.example` becomes `//evil.example`): what would be
  // followed is what gets checked.
  return path !== undefined && staysOnThisSite(path) && resolvedPath(path) === path
    ? path
    : undefined;
}

const base = 'http://return-to.invalid';

/** The path the browser's own parser makes of `candidate`, if it stays on our origin. */
function resolvedPath(candidate: string): string | undefined {
  const resolved = new URL(candidate, base);
  if (resolved.origin !== base) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** A path on this site, however often it is decoded: no `//` or `\` start, no control characters. */
function staysOnThisSite(candidate: string): boolean {
  if (candidate.length > 2048 || !candidate.startsWith('/')) return false;
  let decoded = candidate;
  // Decode repeatedly so that `%252F%252F` cannot hide a `//` from the checks.
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return !/[\p{Cc}\\]/u.test(decoded) && !decoded.startsWith('//');
}

/**
 * Remembers where to go after signing in, for this browser session only
 * (no Max-Age: the cookie ends with the browser session).
 */
export function rememberReturnTo(cookies: AstroCookies, candidate: string): void {
  const path = safeReturnPath(candidate);
  if (path) cookies.set(cookieName('returnTo'), path, cookieOptions());
}

/** The remembered path, once: reading it forgets it. */
export function takeReturnTo(cookies: AstroCookies): string | undefined {
  const path = safeReturnPath(cookies.get(cookieName('returnTo'))?.value);
  cookies.delete(cookieName('returnTo'), cookieOptions());
  return path;
}
