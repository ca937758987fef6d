import { describe, expect, it } from 'vitest';
import { HOUR } from './clock.ts';
import { awaitsMfa, isEnrollmentOfferDue, requestHasVerifiedMfa, signInMfaFlags } from './mfa.ts';
import { generateToken, hashToken } from './tokens.ts';

const DAY = 24 * HOUR;
const now = new Date('2026-01-15T09:00:00.000Z');
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
const phone = '+15555550123';

describe('isEnrollmentOfferDue', () => {
  it('is due for a member who never declined it', () => {
    expect(isEnrollmentOfferDue({ mfaPhone: null, mfaDeclinedAt: null }, false, now)).toBe(true);
  });

  it('is due again only more than 30 days after the member declined it', () => {
    const declined = (days: number) => ({ mfaPhone: null, mfaDeclinedAt: ago(days * DAY) });

    expect(isEnrollmentOfferDue(declined(10), false, now)).toBe(false);
    expect(isEnrollmentOfferDue(declined(30), false, now)).toBe(false);
    expect(isEnrollmentOfferDue(declined(31), false, now)).toBe(true);
  });

  it('is always due when the company requires MFA, and never once enrolled', () => {
    expect(isEnrollmentOfferDue({ mfaPhone: null, mfaDeclinedAt: ago(DAY) }, true, now)).toBe(true);
    expect(isEnrollmentOfferDue({ mfaPhone: phone, mfaDeclinedAt: null }, true, now)).toBe(false);
  });
});

describe('signInMfaFlags', () => {
  it('requires verification from an enrolled member', () => {
    expect(signInMfaFlags({ mfaPhone: phone, mfaDeclinedAt: null }, false, now)).toEqual({
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
    expect(awaitsMfa({ mfaPhone: phone }, false, false)).toBe(true);
    expect(awaitsMfa({ mfaPhone: phone }, true, true)).toBe(false);
  });

  it('holds back an unenrolled member only when the company requires MFA', () => {
    expect(awaitsMfa({ mfaPhone: null }, false, false)).toBe(false);
    expect(awaitsMfa({ mfaPhone: null }, true, false)).toBe(true);
  });
});
