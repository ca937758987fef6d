import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to';

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
