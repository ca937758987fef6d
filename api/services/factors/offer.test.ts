import { describe, expect, it } from 'vitest';
import { DAY, now, ago, noFactor, phoneOnly } from './members-for-tests.ts';
import { isEnrollmentOfferDue, signInMfaFlags } from './offer.ts';

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
