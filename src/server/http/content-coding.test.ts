import { describe, expect, it } from 'vitest';
import { acceptsCoding } from './content-coding';

describe('acceptsCoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'gzip', true],
    ['br, gzip', 'gzip', true],
    ['br;q=1, GZIP;q=0.5', 'gzip', true],
    ['*', 'gzip', true],
    ['gzip;q=0', 'gzip', false],
    ['br', 'gzip', false],
    ['', 'gzip', false],
    ['gzip, deflate, br, zstd', 'br', true],
    ['BR;q=0.1', 'br', true],
    ['br;q=0, gzip', 'br', false],
    ['gzip', 'br', false],
  ] as const)('%j takes %s: %s', (header, coding, accepted) => {
    expect(acceptsCoding(header, coding)).toBe(accepted);
  });

  it('takes nothing from a request that names no coding', () => {
    expect(acceptsCoding(undefined, 'gzip')).toBe(false);
    expect(acceptsCoding(null, 'br')).toBe(false);
  });
});
