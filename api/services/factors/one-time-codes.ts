import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { OneTimeCode } from '../../db/schema/index.ts';
import { HOUR, MINUTE } from '../../../platform/clock.ts';

/**
 * The one-time codes texted for MFA: 6 digits from a CSPRNG, stored salted and hashed, valid 10
 * minutes, void after 5 wrong tries; a new one at most once a minute and 5 times an hour per user.
 */
const ONE_TIME_CODE_DIGITS = 6;
export const ONE_TIME_CODE_LIFETIME_MS = 10 * MINUTE;
export const ONE_TIME_CODE_MAX_FAILED_ATTEMPTS = 5;
export const ONE_TIME_CODE_RESEND_INTERVAL_MS = MINUTE;
const ONE_TIME_CODES_PER_HOUR = 5;
export const ONE_TIME_CODE_WINDOW_MS = HOUR;

/**
 * Wrong codes an account may enter, across all its codes, on the codes sent in any 24 hours.
 * Without it, 5 tries a code and a new code a minute later let someone who has the password guess
 * for ever (about a 20% chance in a year). Reaching it pauses codes until a password reset or an
 * unlock link (services/factors/step.ts), and the member is emailed once.
 */
export const ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT = 20;
export const ONE_TIME_CODE_FAILURES_WINDOW_MS = 24 * HOUR;

const CODE_PATTERN = /^\d{6}$/;
const SALT_BYTES = 16;

/** A new code: 6 digits, uniformly drawn by Node's CSPRNG, leading zeros kept. */
export function generateOneTimeCode(): string {
  return randomInt(0, 10 ** ONE_TIME_CODE_DIGITS)
    .toString()
    .padStart(ONE_TIME_CODE_DIGITS, '0');
}

function digest(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}$${code}`, 'utf8').digest('hex');
}

/**
 * What the database keeps instead of the code: `<salt>$<SHA-256 hex>`. A million codes are quickly
 * tried offline, so the hash only keeps the code out of plain sight; what protects it is its
 * 10-minute life, its binding to one session and the 5 tries it allows.
 */
export function hashOneTimeCode(code: string): string {
  const salt = randomBytes(SALT_BYTES).toString('base64url');
  return `${salt}$${digest(salt, code)}`;
}

/** Whether `candidate` is the code behind `stored`, compared in constant time. */
export function oneTimeCodeMatches(candidate: string, stored: string): boolean {
  const separator = stored.indexOf('$');
  if (separator < 0 || !CODE_PATTERN.test(candidate)) return false;
  const expected = Buffer.from(stored.slice(separator + 1), 'hex');
  const actual = Buffer.from(digest(stored.slice(0, separator), candidate), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** What a member types, without the spaces or dashes some add: `123 456` is `123456`. */
export function normaliseOneTimeCodeInput(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** Whether the text could be a code at all (a malformed one is not counted as a wrong try). */
export function looksLikeOneTimeCode(candidate: string): boolean {
  return CODE_PATTERN.test(candidate);
}

/** Whether a stored code can still be verified at `now`: unused, unexpired, tries left. */
export function isOneTimeCodeUsable(
  code: Pick<OneTimeCode, 'usedAt' | 'expiresAt' | 'failedAttempts'>,
  now: Date,
): boolean {
  return (
    code.usedAt === null &&
    code.failedAttempts < ONE_TIME_CODE_MAX_FAILED_ATTEMPTS &&
    now.getTime() < code.expiresAt.getTime()
  );
}

/** The text message that carries a code. */
export function oneTimeCodeText(code: string): string {
  return `Your Member Concierge code is ${code}. It expires in 10 minutes.`;
}

type ResendVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'too_soon' | 'hourly_limit'; retryAfterSeconds: number };

function secondsUntil(instant: number, now: Date): number {
  return Math.max(1, Math.ceil((instant - now.getTime()) / 1000));
}

/** A code sent to the user, as the resend limits read it. */
type SentCode = Pick<OneTimeCode, 'createdAt' | 'usedAt' | 'expiresAt' | 'failedAttempts'>;

/**
 * Whether a user may be sent another code, given the codes of the last hour (newest first): at
 * most {@link ONE_TIME_CODES_PER_HOUR} in any hour (a sliding window, so no burst at the turn of
 * an hour), whatever became of them; and, while the newest is still waiting to be entered, no
 * other within a minute of it. A code already used or voided holds nothing back: the next
 * sign-in's first code goes at once. The wait is until the limit lets one through.
 */
export function resendVerdict(sentNewestFirst: readonly SentCode[], now: Date): ResendVerdict {
  const windowStart = now.getTime() - ONE_TIME_CODE_WINDOW_MS;
  const inWindow = sentNewestFirst.filter((sent) => sent.createdAt.getTime() > windowStart);
  const leavingLast = inWindow[ONE_TIME_CODES_PER_HOUR - 1];
  if (leavingLast) {
    return {
      allowed: false,
      reason: 'hourly_limit',
      retryAfterSeconds: secondsUntil(
        leavingLast.createdAt.getTime() + ONE_TIME_CODE_WINDOW_MS,
        now,
      ),
    };
  }
  const newest = inWindow[0];
  const resendAt = (newest?.createdAt.getTime() ?? 0) + ONE_TIME_CODE_RESEND_INTERVAL_MS;
  if (newest && isOneTimeCodeUsable(newest, now) && now.getTime() < resendAt) {
    return { allowed: false, reason: 'too_soon', retryAfterSeconds: secondsUntil(resendAt, now) };
  }
  return { allowed: true };
}
