import { describe, expect, it } from 'vitest';
import { cookieHeaderOf, keepSetCookie, type CookieJar } from './cookie-jar';

describe('keepSetCookie', () => {
  it('keeps a cookie by its name, without its attributes', () => {
    const jar: CookieJar = new Map();
    keepSetCookie(jar, 'XSRF-TOKEN=abc.def; Path=/; SameSite=Lax');
    keepSetCookie(jar, 'session=1.2; Path=/; HttpOnly; Max-Age=3600');
    expect(cookieHeaderOf(jar)).toBe('XSRF-TOKEN=abc.def; session=1.2');
  });

  it('forgets a cookie the server expires or empties', () => {
    const jar: CookieJar = new Map([
      ['session', 'a'],
      ['flash', 'b'],
      ['mfa', 'c'],
    ]);
    keepSetCookie(jar, 'session=deleted; Path=/; Max-Age=0');
    keepSetCookie(jar, 'flash=; Path=/');
    keepSetCookie(jar, 'mfa=x; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(jar.size).toBe(0);
  });
});
