import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AstroCookies } from 'astro';
import { config } from '../config.ts';
import { xsrfCookieName } from './cookies.ts';
import { sessionSecret } from '../secret.ts';

/**
 * Signed double-submit token (OWASP): `<nonce>.<hmac(nonce, session)>`. The cookie and the
 * submitted copy (header or hidden field) must be equal, and the signature must be ours and made
 * for the session the request carries (none, before sign-in). So a token made by another site, or
 * one issued to an anonymous visitor or to another session, is refused, and signing in or out makes
 * the old token useless.
 */

/** The session a token is bound to: its API token, or none before sign-in. */
type XsrfBinding = string | undefined;

const sign = (nonce: string, binding: XsrfBinding, secret: string) =>
  createHmac('sha256', secret)
    .update(`xsrf:${nonce}:${binding ?? 'anonymous'}`)
    .digest('base64url');

export function issueXsrfToken(secret: string, binding: XsrfBinding): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${sign(nonce, binding, secret)}`;
}

export function isWellSignedXsrfToken(
  token: string | undefined,
  secret: string,
  binding: XsrfBinding,
): boolean {
  if (!token) return false;
  const [nonce, signature, ...rest] = token.split('.');
  if (!nonce || !signature || rest.length > 0) return false;
  return equal(signature, sign(nonce, binding, secret));
}

/** The submitted token matches the cookie's, and the cookie's is ours, for this session. */
export function isValidXsrfSubmission(
  cookieToken: string | undefined,
  submitted: string | undefined,
  secret: string,
  binding: XsrfBinding,
): boolean {
  if (!cookieToken || !submitted) return false;
  return equal(cookieToken, submitted) && isWellSignedXsrfToken(cookieToken, secret, binding);
}

/**
 * What a browser says about where an action call comes from, judged before the token: a call
 * from another site is refused even when it somehow carries a valid token (OWASP's "verify the
 * origin with standard headers"). `Sec-Fetch-Site` must be `same-origin` (or `none`, a call the
 * person made themselves); `same-site` is refused too, since a sibling host is another party.
 * An `Origin` must be this site's own; `null` (an opaque origin: a sandboxed frame, a data
 * address) is another site. Browsers old enough to send neither header are judged by the token.
 */
export function isCrossSiteCall(headers: Headers, siteOrigin: string): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = headers.get('origin');
  return origin !== null && origin !== siteOrigin;
}

/**
 * Gives the browser a new token for `binding` (the session now in force) and returns it: on a
 * first visit, and whenever the session changes (sign-in, sign-out).
 */
export function issueXsrfCookie(cookies: AstroCookies, binding: XsrfBinding): string {
  const token = issueXsrfToken(sessionSecret(), binding);
  cookies.set(xsrfCookieName, token, {
    path: '/',
    sameSite: 'lax',
    secure: config().secureCookies,
    // Readable by the islands on purpose: they echo it in the X-XSRF-TOKEN header.
    httpOnly: false,
  });
  return token;
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
