import { describe, expect, it } from 'vitest';
import { listPositionFrom, pageNumberFrom, writeListPosition } from './list-position';

describe('listPositionFrom', () => {
  it('reads a cursor before a page number, and after before before', () => {
    expect(listPositionFrom(new URLSearchParams('after=abc_-1&page=4'))).toEqual({
      after: 'abc_-1',
    });
    expect(listPositionFrom(new URLSearchParams('before=xyz&after=abc'))).toEqual({ after: 'abc' });
    expect(listPositionFrom(new URLSearchParams('before=xyz'))).toEqual({ before: 'xyz' });
    expect(listPositionFrom(new URLSearchParams('page=3'))).toEqual({ page: 3 });
  });

  it('takes what cannot be a cursor or a page number for the first page', () => {
    expect(listPositionFrom(new URLSearchParams('after=%3Cscript%3E'))).toEqual({ page: 1 });
    expect(listPositionFrom(new URLSearchParams(`before=${'a'.repeat(201)}`))).toEqual({ page: 1 });
    expect(listPositionFrom(new URLSearchParams(''))).toEqual({ page: 1 });
  });
});

describe('pageNumberFrom', () => {
  it('reads a whole page number from 1, and the first page for anything else', () => {
    expect(pageNumberFrom('2')).toBe(2);
    expect(pageNumberFrom(null)).toBe(1);
    expect(pageNumberFrom('0')).toBe(1);
    expect(pageNumberFrom('-3')).toBe(1);
    expect(pageNumberFrom('2.5')).toBe(1);
    expect(pageNumberFrom('9999999')).toBe(1);
  });
});

describe('writeListPosition', () => {
  it('keeps a cursor or a page past the first, and nothing for the first page', () => {
    const written = (position: Parameters<typeof writeListPosition>[1]) => {
      const query = new URLSearchParams({ tab: 'Open' });
      writeListPosition(query, position);
      return query.toString();
    };
    expect(written({ after: 'abc' })).toBe('tab=Open&after=abc');
    expect(written({ before: 'xyz' })).toBe('tab=Open&before=xyz');
    expect(written({ page: 3 })).toBe('tab=Open&page=3');
    expect(written({ page: 1 })).toBe('tab=Open');
  });
});
