import { describe, expect, it } from 'vitest';
import { createMovableClock, HOUR, systemClock } from './clock.ts';

describe('clocks', () => {
  it('the movable clock stands still until moved', () => {
    const clock = createMovableClock(new Date('2026-01-15T09:00:00.000Z'));

    expect(clock.now()).toEqual(new Date('2026-01-15T09:00:00.000Z'));
    clock.advanceBy(HOUR);
    expect(clock.now()).toEqual(new Date('2026-01-15T10:00:00.000Z'));
    clock.set(new Date('2027-01-01T00:00:00.000Z'));
    expect(clock.now()).toEqual(new Date('2027-01-01T00:00:00.000Z'));
  });

  it('the movable clock hands out copies that callers cannot change', () => {
    const clock = createMovableClock(new Date('2026-01-15T09:00:00.000Z'));

    clock.now().setFullYear(1999);

    expect(clock.now()).toEqual(new Date('2026-01-15T09:00:00.000Z'));
  });

  it('the system clock tells the current time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();

    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
