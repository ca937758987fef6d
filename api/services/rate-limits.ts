import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimitBuckets } from '../db/schema/index.ts';
import { HOUR, MINUTE } from '../../platform/clock.ts';

export interface RateLimitRule {
  /** Prefix of the bucket key, e.g. `sign_in:ip`. */
  name: string;
  limit: number;
  windowMs: number;
}

/** Offices share one address, so this is generous; the per-account lockout is the main defence. */
export const SIGN_IN_PER_IP: RateLimitRule = {
  name: 'sign_in:ip',
  limit: 60,
  windowMs: 10 * MINUTE,
};

/**
 * Company sign-ins started, answered and linked: each asks the company's provider or checks a
 * proof. An office signs in from one address, all at once in the morning, and each sign-in costs
 * two or three (start, callback, a SAML answer), so this is generous.
 */
export const COMPANY_SIGN_IN_PER_IP: RateLimitRule = {
  name: 'company_sign_in:ip',
  limit: 300,
  windowMs: 10 * MINUTE,
};

/** Sign-ups: each reveals whether an email has an account. */
export const SIGN_UP_PER_IP: RateLimitRule = {
  name: 'sign_up:ip',
  limit: 20,
  windowMs: HOUR,
};

/** Company look-ups of sign-up links: each says whether a company is a member. */
export const COMPANY_LOOKUPS_PER_IP: RateLimitRule = {
  name: 'company_lookup:ip',
  limit: 60,
  windowMs: HOUR,
};

/**
 * Code checks of POST /mfa/verify, per user: with 5 tries per code and 5 codes an hour this is
 * not the main defence, only a bound on how fast anyone may guess.
 */
export const MFA_VERIFY_PER_USER: RateLimitRule = {
  name: 'mfa_verify:user',
  limit: 10,
  windowMs: 10 * MINUTE,
};

/** Password-reset requests, counted per account and per address. */
export const PASSWORD_RESET_PER_ACCOUNT: RateLimitRule = {
  name: 'password_reset:account',
  limit: 5,
  windowMs: HOUR,
};
export const PASSWORD_RESET_PER_IP: RateLimitRule = {
  name: 'password_reset:ip',
  limit: 30,
  windowMs: HOUR,
};

/** Requests for a new unlock link, limited like reset requests. */
export const UNLOCK_REQUEST_PER_ACCOUNT: RateLimitRule = {
  name: 'unlock_request:account',
  limit: 5,
  windowMs: HOUR,
};
export const UNLOCK_REQUEST_PER_IP: RateLimitRule = {
  name: 'unlock_request:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * Password changes while signed in (PATCH /users), per member and per address: each checks the
 * current password, which the lockout also counts; this bounds the argon2 work a session can ask
 * for, and a script trying new passwords against the policy.
 */
export const PASSWORD_CHANGE_PER_USER: RateLimitRule = {
  name: 'password_change:user',
  limit: 10,
  windowMs: HOUR,
};
export const PASSWORD_CHANGE_PER_IP: RateLimitRule = {
  name: 'password_change:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * Account deletions tried (DELETE /users), per member and per address: each checks the current
 * password as a password change does, and is bounded as one.
 */
export const ACCOUNT_DELETION_PER_USER: RateLimitRule = {
  name: 'account_deletion:user',
  limit: 10,
  windowMs: HOUR,
};
export const ACCOUNT_DELETION_PER_IP: RateLimitRule = {
  name: 'account_deletion:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * New verification links asked by a signed-in member (POST /users/confirmation): each sends an
 * email, so as few as a person who lost one needs.
 */
export const EMAIL_CONFIRMATION_PER_USER: RateLimitRule = {
  name: 'email_confirmation:user',
  limit: 3,
  windowMs: HOUR,
};

/**
 * Email changes asked while signed in (PATCH /users/email), limited like password changes: each
 * checks the current password and sends two emails.
 */
export const EMAIL_CHANGE_PER_USER: RateLimitRule = {
  name: 'email_change:user',
  limit: 10,
  windowMs: HOUR,
};
export const EMAIL_CHANGE_PER_IP: RateLimitRule = {
  name: 'email_change:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * New secrets for an authenticator app (POST /mfa/app), per member: a person sets up an app now
 * and then; each call writes a secret, so a loop is bounded.
 */
export const MFA_APP_SETUP_PER_USER: RateLimitRule = {
  name: 'mfa_app_setup:user',
  limit: 10,
  windowMs: HOUR,
};

/** Passkey ceremonies a member starts (registration and second-step options), per hour. */
export const MFA_PASSKEY_OPTIONS_PER_USER: RateLimitRule = {
  name: 'mfa_passkey_options:user',
  limit: 30,
  windowMs: HOUR,
};

/** Removals of a passkey (DELETE /mfa/passkeys/:id), as of the app. */
export const MFA_PASSKEY_REMOVAL_PER_USER: RateLimitRule = {
  name: 'mfa_passkey_removal:user',
  limit: 10,
  windowMs: HOUR,
};
export const MFA_PASSKEY_REMOVAL_PER_IP: RateLimitRule = {
  name: 'mfa_passkey_removal:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * Sign-ins with a passkey alone, per address: the options (each a stored challenge) and the
 * answers counted together.
 */
export const PASSKEY_SIGN_IN_PER_IP: RateLimitRule = {
  name: 'passkey_sign_in:ip',
  limit: 60,
  windowMs: 15 * MINUTE,
};

/** Removals of the authenticator app (DELETE /mfa/app): each checks the current password. */
export const MFA_APP_REMOVAL_PER_USER: RateLimitRule = {
  name: 'mfa_app_removal:user',
  limit: 10,
  windowMs: HOUR,
};
export const MFA_APP_REMOVAL_PER_IP: RateLimitRule = {
  name: 'mfa_app_removal:ip',
  limit: 30,
  windowMs: HOUR,
};

/** Removals of the phone from two-step verification (DELETE /mfa/phone), as of the app. */
export const MFA_PHONE_REMOVAL_PER_USER: RateLimitRule = {
  name: 'mfa_phone_removal:user',
  limit: 10,
  windowMs: HOUR,
};
export const MFA_PHONE_REMOVAL_PER_IP: RateLimitRule = {
  name: 'mfa_phone_removal:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * New sets of recovery codes (POST /mfa/recovery-codes), limited like the removal of a factor:
 * each checks the current password and sends an email.
 */
export const MFA_RECOVERY_CODES_PER_USER: RateLimitRule = {
  name: 'mfa_recovery_codes:user',
  limit: 10,
  windowMs: HOUR,
};
export const MFA_RECOVERY_CODES_PER_IP: RateLimitRule = {
  name: 'mfa_recovery_codes:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * Turning two-step verification off (DELETE /mfa), limited like password changes: each checks the
 * current password and sends an email.
 */
export const MFA_TURN_OFF_PER_USER: RateLimitRule = {
  name: 'mfa_turn_off:user',
  limit: 10,
  windowMs: HOUR,
};
export const MFA_TURN_OFF_PER_IP: RateLimitRule = {
  name: 'mfa_turn_off:ip',
  limit: 30,
  windowMs: HOUR,
};

/**
 * Exports of the member's data (GET /users/current/export), per member: each reads every row the
 * member has; a person needs one now and then, a script looping on it would load the database.
 */
export const ACCOUNT_EXPORT_PER_USER: RateLimitRule = {
  name: 'account_export:user',
  limit: 10,
  windowMs: HOUR,
};

/**
 * New requests and notes, per member: far above what a person writes, low enough that a script
 * cannot fill the concierge's queue.
 */
export const REQUEST_WRITES_PER_USER: RateLimitRule = {
  name: 'request_writes:user',
  limit: 60,
  windowMs: HOUR,
};

/** Direct upload addresses, per member: each is a row until it is attached or removed. */
export const DIRECT_UPLOADS_PER_USER: RateLimitRule = {
  name: 'direct_uploads:user',
  limit: 100,
  windowMs: HOUR,
};

/**
 * The subject a per-account limit counts under: a hash of the normalised email, whether or not
 * it has an account (so a 429 reveals nothing), and without keeping the address itself in the
 * counters table.
 */
export function accountSubject(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
}

/** No rule has a longer window, so older buckets can be dropped by anyone. */
const LONGEST_WINDOW_MS = 24 * HOUR;

type RateLimitVerdict =
  { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/** Windows are aligned to the epoch so that every server computes the same bucket. */
export function windowStartFor(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

export function secondsUntilWindowEnds(now: Date, windowMs: number): number {
  const windowEnd = windowStartFor(now, windowMs).getTime() + windowMs;
  return Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000));
}

/**
 * Counts one attempt by `subject` against `rule` in a fixed window. The counter lives in the
 * database so that every API process shares it; the increment is a single upsert, so concurrent
 * attempts are all counted.
 */
export async function consumeRateLimit(
  database: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<RateLimitVerdict> {
  const key = `${rule.name}:${subject}`;
  const windowStart = windowStartFor(now, rule.windowMs);
  const count = await database.transaction(async (transaction) => {
    await transaction
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.windowStart, new Date(windowStart.getTime() - LONGEST_WINDOW_MS)));
    await transaction
      .delete(rateLimitBuckets)
      .where(and(eq(rateLimitBuckets.key, key), lt(rateLimitBuckets.windowStart, windowStart)));
    const [bucket] = await transaction
      .insert(rateLimitBuckets)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitBuckets.key, rateLimitBuckets.windowStart],
        set: { count: sql`${rateLimitBuckets.count} + 1` },
      })
      .returning({ count: rateLimitBuckets.count });
    if (!bucket) throw new Error('Counting a rate-limited attempt returned no row.');
    return bucket.count;
  });
  if (count > rule.limit) {
    return { allowed: false, retryAfterSeconds: secondsUntilWindowEnds(now, rule.windowMs) };
  }
  return { allowed: true, remaining: rule.limit - count };
}

/**
 * Giving the password again before adding a way to sign in (POST /users/reauthentication),
 * limited like the other checks of the current password; the lockout counts its failures too.
 */
export const REAUTHENTICATION_PER_USER: RateLimitRule = {
  name: 'reauthentication:user',
  limit: 10,
  windowMs: HOUR,
};
export const REAUTHENTICATION_PER_IP: RateLimitRule = {
  name: 'reauthentication:ip',
  limit: 30,
  windowMs: HOUR,
};
