import { describe, expect, it } from 'vitest';
import { percentOf, toPercent } from './progress-value';

describe('toPercent', () => {
  it('rounds to a whole percent', () => {
    expect(toPercent(41.5)).toBe(42);
    expect(toPercent(41.4)).toBe(41);
  });

  it('keeps the figure between 0 and 100', () => {
    expect(toPercent(-5)).toBe(0);
    expect(toPercent(150)).toBe(100);
  });

  it('counts not-a-number as nothing done', () => {
    expect(toPercent(Number.NaN)).toBe(0);
  });
});

describe('percentOf', () => {
  it('gives the whole percentage of bytes sent', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(3, 3)).toBe(100);
  });

  it('gives nothing when the total is unknown', () => {
    expect(percentOf(10, 0)).toBe(0);
  });
});
