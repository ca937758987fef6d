import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed double-submit token (DESIGN.md §4, OWASP): `<nonce>.<hmac(nonce)>`.
 * The cookie and the submitted copy (header or hidden field) must be equal and
 * carry a valid signature, so a value planted by another site is refused.
 */

const sign = (nonce: string, secret: string) =>
  createHmac('sha256', secret).update(`xsrf:${nonce}`).digest('base64url');

export function issueXsrfToken(secret: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${sign(nonce, secret)}`;
}

export function isWellSignedXsrfToken(token: string | undefined, secret: string): boolean {
  if (!token) return false;
  const [nonce, signature, ...rest] = token.split('.');
  if (!nonce || !signature || rest.length > 0) return false;
  return equal(signature, sign(nonce, secret));
}

/** The submitted token matches the cookie's, and the cookie's is ours. */
export function isValidXsrfSubmission(
  cookieToken: string | undefined,
  submitted: string | undefined,
  secret: string,
): boolean {
  if (!cookieToken || !submitted) return false;
  return equal(cookieToken, submitted) && isWellSignedXsrfToken(cookieToken, secret);
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
