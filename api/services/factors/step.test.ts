import { describe, expect, it } from 'vitest';
import { now, noFactor, phoneOnly, appOnly, passkeysOnly } from './members-for-tests.ts';
import { isEnrollmentOfferDue } from './offer.ts';
import { awaitsMfa, requestHasVerifiedMfa } from './step.ts';
import { generateToken, hashToken } from '../tokens.ts';

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
