import { describe, expect, it } from 'vitest';
import {
  now,
  phone,
  noFactor,
  phoneOnly,
  appOnly,
  passkeysOnly,
} from './factors/members-for-tests.ts';
import { secondFactors } from './member-factors.ts';

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
