import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../../platform/clock.ts';
import {
  generateOneTimeCode,
  hashOneTimeCode,
  isOneTimeCodeUsable,
  oneTimeCodeMatches,
  oneTimeCodeText,
  resendVerdict,
} from './one-time-codes.ts';

const now = new Date('2026-01-15T09:00:00.000Z');
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
/** A code sent `milliseconds` ago and still waiting to be entered. */
const sentAgo = (milliseconds: number) => ({
  createdAt: ago(milliseconds),
  usedAt: null,
  expiresAt: new Date(ago(milliseconds).getTime() + 10 * MINUTE),
  failedAttempts: 0,
});

describe('generateOneTimeCode', () => {
  it('is always six digits, leading zeros kept', () => {
    for (let draw = 0; draw < 1000; draw += 1) {
      expect(generateOneTimeCode()).toMatch(/^\d{6}$/);
    }
  });

  it('varies', () => {
    const codes = new Set(Array.from({ length: 50 }, generateOneTimeCode));
    expect(codes.size).toBeGreaterThan(45);
  });
});

describe('hashOneTimeCode and oneTimeCodeMatches', () => {
  it('matches the code it was made from, and no other', () => {
    const stored = hashOneTimeCode('012345');

    expect(oneTimeCodeMatches('012345', stored)).toBe(true);
    expect(oneTimeCodeMatches('012346', stored)).toBe(false);
    expect(oneTimeCodeMatches('12345', stored)).toBe(false);
    expect(oneTimeCodeMatches('', stored)).toBe(false);
  });

  it('salts each hash, so the same code is stored differently', () => {
    expect(hashOneTimeCode('123456')).not.toBe(hashOneTimeCode('123456'));
  });

  it('never matches a malformed stored value', () => {
    expect(oneTimeCodeMatches('123456', 'no-separator')).toBe(false);
    expect(oneTimeCodeMatches('123456', 'salt$abc')).toBe(false);
  });
});

describe('isOneTimeCodeUsable', () => {
  const code = { usedAt: null, expiresAt: new Date(now.getTime() + SECOND), failedAttempts: 4 };

  it('is usable while unused, unexpired and with tries left', () => {
    expect(isOneTimeCodeUsable(code, now)).toBe(true);
  });

  it('is not usable once used, expired or tried 5 times', () => {
    expect(isOneTimeCodeUsable({ ...code, usedAt: now }, now)).toBe(false);
    expect(isOneTimeCodeUsable({ ...code, expiresAt: now }, now)).toBe(false);
    expect(isOneTimeCodeUsable({ ...code, failedAttempts: 5 }, now)).toBe(false);
  });
});

describe('oneTimeCodeText', () => {
  it('says the code and how long it lasts', () => {
    expect(oneTimeCodeText('123456')).toBe(
      'Your Member Concierge code is 123456. It expires in 10 minutes.',
    );
  });
});

describe('resendVerdict', () => {
  it('allows the first code', () => {
    expect(resendVerdict([], now)).toEqual({ allowed: true });
  });

  it('refuses a second code within a minute, until the minute is over', () => {
    expect(resendVerdict([sentAgo(15 * SECOND)], now)).toEqual({
      allowed: false,
      reason: 'too_soon',
      retryAfterSeconds: 45,
    });
    expect(resendVerdict([sentAgo(MINUTE)], now)).toEqual({ allowed: true });
  });

  it('refuses a sixth code within an hour, until the oldest of the five is an hour old', () => {
    const sent = [5, 20, 30, 40].map((minutes) => sentAgo(minutes * MINUTE));

    expect(resendVerdict([...sent, sentAgo(50 * MINUTE)], now)).toEqual({
      allowed: false,
      reason: 'hourly_limit',
      retryAfterSeconds: 10 * 60,
    });
    expect(resendVerdict([...sent, sentAgo(60 * MINUTE)], now)).toEqual({ allowed: true });
  });

  it('sends a new sign-in its first code at once when the code sent a moment ago was used', () => {
    const used = { ...sentAgo(15 * SECOND), usedAt: ago(5 * SECOND) };
    expect(resendVerdict([used], now)).toEqual({ allowed: true });
  });

  it('sends a code at once when the one before was voided by wrong tries', () => {
    const voided = { ...sentAgo(15 * SECOND), failedAttempts: 5 };
    expect(resendVerdict([voided], now)).toEqual({ allowed: true });
  });

  it('still counts used codes toward the five an hour', () => {
    const used = [1, 5, 20, 30, 40].map((minutes) => ({
      ...sentAgo(minutes * MINUTE),
      usedAt: ago(minutes * MINUTE - SECOND),
    }));
    expect(resendVerdict(used, now)).toMatchObject({ allowed: false, reason: 'hourly_limit' });
  });
});
