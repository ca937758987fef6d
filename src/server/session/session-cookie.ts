/**
 * The session cookie's value, `<expiry in epoch ms>.<token>`. Kept apart from the cookie handling
 * so that the production entry point can tell a visitor with a session from one without before
 * Astro sees the request.
 */
interface SessionCookieValue {
  readonly token: string;
  readonly expiresAt: Date;
}

// Tokens are base64url, so no dot.
const sessionValuePattern = /^(\d{1,16})\.([A-Za-z0-9_-]{16,512})$/;

/** The token and expiry a session cookie holds, or undefined for anything else. */
export function parseSessionCookie(value: string | undefined): SessionCookieValue | undefined {
  const match = sessionValuePattern.exec(value ?? '');
  if (!match?.[1] || !match[2]) return undefined;
  return { token: match[2], expiresAt: new Date(Number(match[1])) };
}

export const sessionCookieValue = ({ token, expiresAt }: SessionCookieValue): string =>
  `${expiresAt.getTime()}.${token}`;

/** The value of the cookie `name` in a request's Cookie header (the first, as browsers send). */
export function cookieFromHeader(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      return pair.slice(separator + 1).trim();
    }
  }
  return undefined;
}
