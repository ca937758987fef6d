import { describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.ts';
import { secondsUntilWindowEnds, SIGN_IN_PER_IP, windowStartFor } from './rate-limits.ts';

describe('fixed rate-limit windows', () => {
  it('allows 60 sign-in attempts per address per 10 minutes', () => {
    expect(SIGN_IN_PER_IP).toMatchObject({ limit: 60, windowMs: 10 * MINUTE });
  });

  it('aligns windows to the clock so every server picks the same bucket', () => {
    expect(windowStartFor(new Date('2026-01-15T09:07:31.250Z'), 10 * MINUTE)).toEqual(
      new Date('2026-01-15T09:00:00.000Z'),
    );
    expect(windowStartFor(new Date('2026-01-15T09:10:00.000Z'), 10 * MINUTE)).toEqual(
      new Date('2026-01-15T09:10:00.000Z'),
    );
  });

  it('asks to retry when the window ends, in whole seconds rounded up', () => {
    expect(secondsUntilWindowEnds(new Date('2026-01-15T09:07:31.250Z'), 10 * MINUTE)).toBe(149);
    expect(secondsUntilWindowEnds(new Date('2026-01-15T09:00:00.000Z'), 10 * MINUTE)).toBe(600);
  });

  it('never asks to retry in zero seconds', () => {
    expect(secondsUntilWindowEnds(new Date('2026-01-15T09:09:59.999Z'), 10 * MINUTE)).toBe(1);
  });
});
