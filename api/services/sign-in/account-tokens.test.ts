import { describe, expect, it } from 'vitest';
import {
  isTokenUsable,
  RESET_TOKEN_LIFETIME_MS,
  tokenExpiry,
  UNLOCK_TOKEN_LIFETIME_MS,
} from './account-tokens.ts';
import { HOUR } from '../../../platform/clock.ts';

const issuedAt = new Date('2026-01-15T09:00:00.000Z');

describe('tokenExpiry', () => {
  it('gives a reset link 2 hours and an unlock link 24 hours', () => {
    expect(RESET_TOKEN_LIFETIME_MS).toBe(2 * HOUR);
    expect(UNLOCK_TOKEN_LIFETIME_MS).toBe(24 * HOUR);
    expect(tokenExpiry('reset_password', issuedAt)).toEqual(new Date('2026-01-15T11:00:00.000Z'));
    expect(tokenExpiry('unlock', issuedAt)).toEqual(new Date('2026-01-16T09:00:00.000Z'));
  });
});

describe('isTokenUsable', () => {
  const expiresAt = tokenExpiry('reset_password', issuedAt);

  it('accepts an unused token until the moment it expires', () => {
    expect(isTokenUsable({ usedAt: null, expiresAt }, issuedAt)).toBe(true);
    expect(isTokenUsable({ usedAt: null, expiresAt }, new Date(expiresAt.getTime() - 1))).toBe(
      true,
    );
  });

  it('refuses it from the moment it expires', () => {
    expect(isTokenUsable({ usedAt: null, expiresAt }, expiresAt)).toBe(false);
  });

  it('refuses a used token, even before it would expire', () => {
    expect(isTokenUsable({ usedAt: issuedAt, expiresAt }, issuedAt)).toBe(false);
  });
});
