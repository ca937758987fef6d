/**
 * A visitor's cookies, kept as a browser keeps them from `Set-Cookie` lines, for the browser
 * tests, the bench and the load test, which visit the product over plain HTTP. No imports, so
 * that the bench's `.mjs` scripts load it as it is.
 */
export type CookieJar = Map<string, string>;

/** Keeps (or, when it expires or empties it, forgets) the cookie one `Set-Cookie` line sets. */
export function keepSetCookie(jar: CookieJar, setCookie: string): void {
  const [pair = '', ...attributes] = setCookie.split(';');
  const separator = pair.indexOf('=');
  const name = pair.slice(0, separator).trim();
  const value = pair.slice(separator + 1).trim();
  const expired = attributes.some((attribute) =>
    /^\s*(max-age=0|expires=thu, 01 jan 1970\b.*)\s*$/i.test(attribute),
  );
  if (expired || value === '') jar.delete(name);
  else jar.set(name, value);
}

/** The `Cookie` header a browser holding `jar` sends. */
export function cookieHeaderOf(jar: CookieJar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
