import { describe, expect, it } from 'vitest';
import { HOUR } from '../../../platform/clock.ts';
import {
  awaitsMfa,
  isEnrollmentOfferDue,
  requestHasVerifiedMfa,
  secondFactors,
  signInMfaFlags,
} from './mfa.ts';
import { generateToken, hashToken } from '../tokens.ts';

const DAY = 24 * HOUR;
const now = new Date('2026-01-15T09:00:00.000Z');
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
const phone = '+15555550123';
const noFactor = { mfaPhone: null, totpConfirmedAt: null, passkeyCount: 0 };
const phoneOnly = { ...noFactor, mfaPhone: phone };
const appOnly = { ...noFactor, totpConfirmedAt: ago(DAY) };
const passkeysOnly = { ...noFactor, passkeyCount: 2 };

describe('isEnrollmentOfferDue', () => {
  it('is due for a member who never declined it', () => {
    expect(isEnrollmentOfferDue({ ...noFactor, mfaDeclinedAt: null }, false, now)).toBe(true);
  });

  it('is due again only more than 30 days after the member declined it', () => {
    const declined = (days: number) => ({ ...noFactor, mfaDeclinedAt: ago(days * DAY) });

    expect(isEnrollmentOfferDue(declined(10), false, now)).toBe(false);
    expect(isEnrollmentOfferDue(declined(30), false, now)).toBe(false);
    expect(isEnrollmentOfferDue(declined(31), false, now)).toBe(true);
  });

  it('is always due when the company requires MFA, and never once enrolled', () => {
    expect(isEnrollmentOfferDue({ ...noFactor, mfaDeclinedAt: ago(DAY) }, true, now)).toBe(true);
    expect(isEnrollmentOfferDue({ ...phoneOnly, mfaDeclinedAt: null }, true, now)).toBe(false);
  });
});

describe('signInMfaFlags', () => {
  it('requires verification from an enrolled member', () => {
    expect(signInMfaFlags({ ...phoneOnly, mfaDeclinedAt: null }, false, now)).toEqual({
      mfa_requires_verification: false,
      mfa_required: true,
    });
  });
});

describe('requestHasVerifiedMfa', () => {
  const mfaToken = generateToken();
  const verified = { mfaVerifiedAt: now, mfaTokenHash: hashToken(mfaToken) };

  it('is true only with the token of the verified session', () => {
    expect(requestHasVerifiedMfa(verified, mfaToken)).toBe(true);
    expect(requestHasVerifiedMfa(verified, generateToken())).toBe(false);
    expect(requestHasVerifiedMfa(verified, undefined)).toBe(false);
    expect(requestHasVerifiedMfa(verified, 'not a token')).toBe(false);
    expect(requestHasVerifiedMfa({ mfaVerifiedAt: null, mfaTokenHash: null }, mfaToken)).toBe(
      false,
    );
  });
});

describe('awaitsMfa', () => {
  it('holds back an enrolled member until the request proves MFA', () => {
    expect(awaitsMfa(phoneOnly, false, false)).toBe(true);
    expect(awaitsMfa(phoneOnly, true, true)).toBe(false);
  });

  it('holds back a member whose only factor is an authenticator app, as one with a phone', () => {
    expect(awaitsMfa(appOnly, false, false)).toBe(true);
    expect(awaitsMfa(appOnly, false, true)).toBe(false);
    expect(isEnrollmentOfferDue({ ...appOnly, mfaDeclinedAt: null }, true, now)).toBe(false);
  });

  it('holds back a member whose only factors are passkeys, as one with a phone', () => {
    expect(awaitsMfa(passkeysOnly, false, false)).toBe(true);
    expect(awaitsMfa(passkeysOnly, false, true)).toBe(false);
    expect(isEnrollmentOfferDue({ ...passkeysOnly, mfaDeclinedAt: null }, true, now)).toBe(false);
  });

  it('holds back an unenrolled member only when the company requires MFA', () => {
    expect(awaitsMfa(noFactor, false, false)).toBe(false);
    expect(awaitsMfa(noFactor, true, false)).toBe(true);
  });
});

describe('secondFactors', () => {
  const both = { ...noFactor, mfaPhone: phone, totpConfirmedAt: now };
  const all = { ...both, passkeyCount: 1 };
  const last = (lastSecondFactor: 'sms' | 'app' | 'passkey' | null) => ({ lastSecondFactor });

  it('lists the app before the phone, and nothing for a member without a factor', () => {
    expect(secondFactors({ ...both, ...last(null) })).toEqual(['app', 'sms']);
    expect(secondFactors({ ...phoneOnly, ...last(null) })).toEqual(['sms']);
    expect(secondFactors({ ...appOnly, ...last(null) })).toEqual(['app']);
    expect(secondFactors({ ...noFactor, ...last(null) })).toEqual([]);
  });

  it('lists passkeys first, once however many the member has', () => {
    expect(secondFactors({ ...all, ...last(null) })).toEqual(['passkey', 'app', 'sms']);
    expect(secondFactors({ ...passkeysOnly, ...last(null) })).toEqual(['passkey']);
  });

  it('lists the factor of the last successful step first', () => {
    expect(secondFactors({ ...both, ...last('sms') })).toEqual(['sms', 'app']);
    expect(secondFactors({ ...both, ...last('app') })).toEqual(['app', 'sms']);
    expect(secondFactors({ ...all, ...last('sms') })).toEqual(['sms', 'passkey', 'app']);
  });

  it('ignores a last factor the member no longer has', () => {
    expect(secondFactors({ ...appOnly, ...last('sms') })).toEqual(['app']);
    expect(secondFactors({ ...both, ...last('passkey') })).toEqual(['app', 'sms']);
    expect(secondFactors({ ...noFactor, ...last('app') })).toEqual([]);
  });
});
