import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../../platform/clock.ts';
import {
  MAX_DELIVERY_ATTEMPTS,
  maskRecipient,
  nextAttemptAfterFailure,
  retryDelayMs,
} from './outbox.ts';

describe('retryDelayMs', () => {
  it('waits 30 seconds after the first failure and doubles after each further one', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([
      30 * SECOND,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      32 * MINUTE,
    ]);
  });

  it('never waits longer than an hour', () => {
    expect(retryDelayMs(8)).toBe(HOUR);
    expect(retryDelayMs(9)).toBe(HOUR);
    expect(retryDelayMs(1000)).toBe(HOUR);
  });

  it('treats zero failures like the first', () => {
    expect(retryDelayMs(0)).toBe(30 * SECOND);
  });
});

describe('nextAttemptAfterFailure', () => {
  const now = new Date('2026-01-15T09:00:00.000Z');

  it('schedules the next attempt after the back-off', () => {
    expect(nextAttemptAfterFailure(1, now)).toEqual(new Date(now.getTime() + 30 * SECOND));
    expect(nextAttemptAfterFailure(9, now)).toEqual(new Date(now.getTime() + HOUR));
  });

  it('gives up after the tenth failed attempt, about three hours after the first', () => {
    expect(MAX_DELIVERY_ATTEMPTS).toBe(10);
    expect(nextAttemptAfterFailure(10, now)).toBeNull();
    const totalWait = Array.from({ length: 9 }, (_, index) => retryDelayMs(index + 1)).reduce(
      (sum, delay) => sum + delay,
      0,
    );
    expect(totalWait).toBeGreaterThan(3 * HOUR);
    expect(totalWait).toBeLessThan(4 * HOUR);
  });
});

describe('maskRecipient', () => {
  it('keeps only the first letter and the domain of an email address', () => {
    expect(maskRecipient('member@example.com')).toBe('m***@example.com');
  });

  it('keeps only the last four digits of a phone number', () => {
    expect(maskRecipient('+15555550123')).toBe('***0123');
  });
});
