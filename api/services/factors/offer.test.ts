import { describe, expect, it } from 'vitest';
import { HOUR } from '../../../platform/clock.ts';
import { isEnrollmentOfferDue, signInMfaFlags } from './offer.ts';

const DAY = 24 * HOUR;
const now = new Date('2026-01-15T09:00:00.000Z');
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
const phone = '+15555550123';
const noFactor = { mfaPhone: null, totpConfirmedAt: null, passkeyCount: 0 };
const phoneOnly = { ...noFactor, mfaPhone: phone };

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
