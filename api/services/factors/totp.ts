import { randomBytes, timingSafeEqual } from 'node:crypto';
import { encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { PRODUCT_NAME } from '../messages/email-composition.ts';

/**
 * Codes of an authenticator app (TOTP, RFC 6238) as every app expects them: HMAC-SHA-1, 6
 * digits, a new code every 30 seconds. A code is the RFC 4226 HOTP of the 30-second step, so the
 * step a code belongs to is known and the API's clock (never the machine's) decides it.
 */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** A code of the step before or after the current one still counts: clocks drift, people type slowly. */
const TOTP_STEPS_OF_GRACE = 1;
/** 160 bits, the size RFC 4226 recommends and every app reads. */
const TOTP_SECRET_BYTES = 20;

export function newTotpSecret(): Uint8Array {
  return new Uint8Array(randomBytes(TOTP_SECRET_BYTES));
}

/** The secret as the member types it into an app: base32, without padding. */
export function totpSecretText(secret: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(secret);
}

/** The `otpauth://` address a QR code carries, naming the product and the member's address. */
export function totpUri(secret: Uint8Array, email: string): string {
  return createTOTPKeyURI(PRODUCT_NAME, email, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of one step (for tests, and for nothing else). */
export function totpCodeAt(secret: Uint8Array, step: number): string {
  return generateHOTP(secret, BigInt(step), TOTP_DIGITS);
}

/**
 * The step whose code `code` is, among the current step and its neighbours later than
 * `lastUsedStep` (a code once accepted, or an older one, never counts again); undefined when none.
 */
export function matchingTotpStep(
  secret: Uint8Array,
  code: string,
  now: Date,
  lastUsedStep: number | null,
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const current = totpStep(now);
  let matched: number | undefined;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (let step = current - TOTP_STEPS_OF_GRACE; step <= current + TOTP_STEPS_OF_GRACE; step += 1) {
    const expected = Buffer.from(totpCodeAt(secret, step), 'utf8');
    const equal = timingSafeEqual(expected, Buffer.from(code, 'utf8'));
    if (equal && matched === undefined && (lastUsedStep === null || step > lastUsedStep)) {
      matched = step;
    }
  }
  return matched;
}
