import { describe, expect, it } from 'vitest';
import {
  matchingTotpStep,
  newTotpSecret,
  totpCodeAt,
  totpSecretText,
  totpStep,
  totpUri,
} from './totp.ts';

// RFC 6238, appendix B: the SHA-1 key, and the last 6 digits of its 8-digit codes.
const rfcSecret = new TextEncoder().encode('12345678901234567890');
const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('gives the code of RFC 6238 at %i seconds', (seconds, code) => {
    expect(totpCodeAt(rfcSecret, totpStep(at(seconds)))).toBe(code);
  });

  it('accepts the code of the current step, and of the step before and after it', () => {
    const now = at(1234567890);
    const step = totpStep(now);

    for (const offset of [-1, 0, 1]) {
      expect(matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step + offset), now, null)).toBe(
        step + offset,
      );
    }
    expect(matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step - 2), now, null)).toBeUndefined();
    expect(matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step + 2), now, null)).toBeUndefined();
  });

  it('refuses the code of a step already used, or of an earlier one', () => {
    const now = at(1234567890);
    const step = totpStep(now);

    expect(matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step), now, step)).toBeUndefined();
    expect(
      matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step - 1), now, step - 1),
    ).toBeUndefined();
    expect(matchingTotpStep(rfcSecret, totpCodeAt(rfcSecret, step + 1), now, step)).toBe(step + 1);
  });

  it.each(['', '12345', '1234567', 'abcdef', ' 005924'])(
    'refuses %j, which is not a code',
    (code) => {
      expect(matchingTotpStep(rfcSecret, code, at(1234567890), null)).toBeUndefined();
    },
  );

  it('makes secrets of 160 bits, shown as 32 base32 letters', () => {
    const secret = newTotpSecret();

    expect(secret).toHaveLength(20);
    expect(totpSecretText(secret)).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpSecretText(newTotpSecret())).not.toBe(totpSecretText(secret));
  });

  it('names the product and the member in the address an app reads', () => {
    const uri = new URL(totpUri(rfcSecret, 'avery@example.com'));

    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Member Concierge:avery@example.com');
    expect(uri.searchParams.get('secret')).toBe(totpSecretText(rfcSecret));
    expect(uri.searchParams.get('issuer')).toBe('Member Concierge');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
