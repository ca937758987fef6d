import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to';

const site = 'https://portal.example.com';

/** Where a browser on the site goes when an answer's `Location` is `path`. */
const followedFrom = (path: string) => new URL(path, `${site}/sign-in`);

describe('safeReturnPath', () => {
  it('keeps a plain path with its query and hash', () => {
    expect(safeReturnPath('/requests/42?tab=files#notes')).toBe('/requests/42?tab=files#notes');
  });

  it.each([
    ['a protocol-relative address', '//evil.example'],
    ['a backslash address', '/\\evil.example'],
    ['an absolute address', 'https://evil.example/dashboard'],
    ['a javascript address', 'javascript:alert(1)'],
    ['an encoded double slash', '/%2F%2Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['a double-encoded double slash', '/%252F%252Fevil.example'],
    ['a tab inside the slashes', '/\t/evil.example'],
    ['a relative path without a leading slash', 'dashboard'],
    ['an empty value', ''],
    ['a malformed escape', '/%E0%A4%A'],
    ['a parent segment before a double slash', '/..//evil.example'],
    ['a current segment before a double slash', '/.//evil.example'],
    ['an encoded dot segment before a double slash', '/%2e//evil.example'],
    ['an encoded parent segment before a double slash', '/%2E%2E//evil.example'],
    ['a segment that resolves away before a double slash', '/x/..//evil.example'],
    ['dot segments before a backslash', '/x/../\\evil.example'],
  ])('ignores %s', (_label, candidate) => {
    expect(safeReturnPath(candidate)).toBeUndefined();
  });

  it('resolves harmless dot segments to the path they name', () => {
    expect(safeReturnPath('/requests/../dashboard')).toBe('/dashboard');
    expect(safeReturnPath('/./requests')).toBe('/requests');
  });

  it('returns only paths that it would itself accept again', () => {
    for (const candidate of ['/a/../b', '/a/./b?x=1', '/%2e%2e/dashboard', '/a//b']) {
      const path = safeReturnPath(candidate);
      if (path !== undefined) expect(safeReturnPath(path)).toBe(path);
    }
  });

  it('ignores nothing at all', () => {
    expect(safeReturnPath(undefined)).toBeUndefined();
    expect(safeReturnPath(null)).toBeUndefined();
  });

  it('ignores an absurdly long value', () => {
    expect(safeReturnPath(`/${'a'.repeat(5000)}`)).toBeUndefined();
  });
});

/**
 * The classic open-redirect payloads (OWASP's unvalidated redirects cheat sheet and the usual
 * lists): each must be refused outright, so that the visitor goes to the Dashboard.
 */
const offSitePayloads = [
  '//evil.example',
  '///evil.example',
  '////evil.example',
  '/\\evil.example',
  '\\evil.example',
  '\\/\\/evil.example',
  '/\\/evil.example',
  'https:evil.example',
  'https:/evil.example',
  'http://evil.example',
  'HTTPS://evil.example',
  '//evil.example@portal.example.com',
  '%2F%2Fevil.example',
  '/%2F%2Fevil.example',
  '/%2f%2fevil.example',
  '/%5C%5Cevil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d%0a/evil.example',
  '/\t/evil.example',
  '/\r\n/evil.example',
  '/dashboard\r\nLocation: https://evil.example',
  '/dashboard%0d%0aSet-Cookie:%20planted=1',
  '/\u0000/evil.example',
  '/%00/evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '/javascript:alert(1)//%0d%0a',
  'data:text/html,<script>alert(1)</script>',
  '/.//..//evil.example',
  '/..//evil.example',
  '/./\\evil.example',
  '/%2e%2e//evil.example',
  '/%252F%252Fevil.example',
  '/%25252F%25252Fevil.example',
  ' //evil.example',
  'evil.example',
];

/** Unicode look-alikes of the slash: no parser takes them for one, so they stay on the site. */
const lookAlikeSlashes = [
  '/\u2215evil.example',
  '/\uFF0F\uFF0Fevil.example',
  '/\u2044evil.example',
];

describe('safeReturnPath against open-redirect payloads', () => {
  it.each(offSitePayloads)('refuses %j', (payload) => {
    expect(safeReturnPath(payload)).toBeUndefined();
  });

  it.each(lookAlikeSlashes)('keeps %j on the site if it keeps it at all', (payload) => {
    const path = safeReturnPath(payload);
    if (path !== undefined) expect(followedFrom(path).origin).toBe(site);
  });
});

/** Pieces that redirect payloads are made of, so that generated strings look like attacks. */
const attackPiece = fc.constantFrom(
  '/',
  '//',
  '\\',
  '.',
  '..',
  '%2F',
  '%2f',
  '%5C',
  '%2e',
  '%25',
  '%09',
  '%0d%0a',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u2215',
  '\uFF0F',
  ' ',
  ':',
  '@',
  '?',
  '#',
  'http:',
  'https:',
  'javascript:',
  'data:',
  'evil.example',
  'dashboard',
);
const attackLike = fc.array(attackPiece, { maxLength: 12 }).map((pieces) => pieces.join(''));
const anyString = fc.oneof(fc.string({ unit: 'binary', maxLength: 64 }), attackLike);

describe('safeReturnPath for any string', () => {
  it('gives either nothing, so the caller falls back to the Dashboard, or a path that stays on the site', () => {
    fc.assert(
      fc.property(anyString, (candidate) => {
        const target = safeReturnPath(candidate) ?? '/dashboard';
        expect(target.startsWith('/')).toBe(true);
        expect(followedFrom(target).origin).toBe(site);
      }),
      { numRuns: 5000 },
    );
  });

  it('gives a path that it would itself give again, so that storing and reading it agree', () => {
    fc.assert(
      fc.property(anyString, (candidate) => {
        const path = safeReturnPath(candidate);
        if (path !== undefined) expect(safeReturnPath(path)).toBe(path);
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps any plain path made of ordinary segments as it is', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(safeReturnPath(path)).toBe(path);
      }),
    );
  });
});
