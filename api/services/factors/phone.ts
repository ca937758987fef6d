import { and, desc, eq, gt, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { oneTimeCodes, users, type User } from '../../db/schema/index.ts';
import { twoStepEnabledEmail, twoStepPhoneChangedEmail } from '../messages/factor-emails.ts';
import { type Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import {
  generateOneTimeCode,
  hashOneTimeCode,
  isOneTimeCodeUsable,
  looksLikeOneTimeCode,
  normaliseOneTimeCodeInput,
  ONE_TIME_CODE_FAILURES_WINDOW_MS,
  ONE_TIME_CODE_LIFETIME_MS,
  ONE_TIME_CODE_MAX_FAILED_ATTEMPTS,
  ONE_TIME_CODE_WINDOW_MS,
  oneTimeCodeMatches,
  oneTimeCodeText,
  resendVerdict,
} from './one-time-codes.ts';
import { enqueueEmail, enqueueText } from '../messages/outbox.ts';
import { phoneLastDigits } from './phone-numbers.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { type FactorFields, hasEnrolledMfa } from '../member-factors.ts';
import {
  type MfaRequestContext,
  type CodeRefusal,
  type VerifyCodeResult,
  INVALID_CODE,
  CODES_PAUSED,
  completeSecondStep,
  countAccountWrongCode,
} from './step.ts';

/**
 * The phone as a factor (texted codes): the number being confirmed, sending a code, and a code
 * taking the step or confirming the phone.
 */

/**
 * POST /mfa: keeps `phone` (E.164) as the number to confirm, and voids the enrollment codes
 * already sent to another number, so that only a code texted to this one enrolls it (a code sent
 * to the same number stays good: giving the number twice costs nothing).
 */
export async function setPendingMfaPhone(
  database: Database,
  clock: Clock,
  userId: number,
  phone: string,
): Promise<void> {
  const now = clock.now();
  await database.transaction(async (transaction) => {
    await transaction
      .update(users)
      .set({ pendingMfaPhone: phone, updatedAt: now })
      .where(eq(users.id, userId));
    await transaction
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(oneTimeCodes.userId, userId),
          eq(oneTimeCodes.purpose, 'enroll'),
          ne(oneTimeCodes.phone, phone),
          isNull(oneTimeCodes.usedAt),
        ),
      );
  });
}

/** Where a code goes and what it confirms. */
interface CodeTarget {
  purpose: 'enroll' | 'verify';
  phone: string;
}

/**
 * An enrolled user whose request does not prove MFA can only be sent a code to the enrolled
 * phone (none when the app is their only factor): a pending number (which only a verified session
 * may set) never stands in for it. Otherwise a pending number is being enrolled; else the
 * enrolled phone verifies.
 */
export function codeTarget(
  user: FactorFields & Pick<User, 'pendingMfaPhone'>,
  mfaVerified: boolean,
): CodeTarget | null {
  if (!mfaVerified && hasEnrolledMfa(user)) {
    return user.mfaPhone === null ? null : { purpose: 'verify', phone: user.mfaPhone };
  }
  if (user.pendingMfaPhone !== null) return { purpose: 'enroll', phone: user.pendingMfaPhone };
  if (user.mfaPhone !== null) return { purpose: 'verify', phone: user.mfaPhone };
  return null;
}

type SendCodeResult =
  | { sent: true; phone: string; purpose: 'enroll' | 'verify' }
  | { sent: false; reason: 'no_phone' }
  | { sent: false; reason: 'codes_paused' }
  | { sent: false; reason: 'too_soon' | 'hourly_limit'; retryAfterSeconds: number };

/**
 * POST /mfa/send-otp: texts a new code for this session to the pending number (enrollment) or
 * the enrolled phone (verification), voiding the session's older codes. In one transaction under
 * the user's row lock, so that concurrent requests cannot exceed the resend limits, and the text
 * is written to the outbox exactly when the code exists. Nothing is sent while the account's codes
 * are paused.
 */
export async function sendMfaCode(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
): Promise<SendCodeResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<SendCodeResult> => {
    const [user] = await transaction
      .select()
      .from(users)
      .where(eq(users.id, context.userId))
      .for('update');
    if (user?.mfaCodesPausedAt) return { sent: false, reason: 'codes_paused' };
    const target = user ? codeTarget(user, context.mfaVerified) : null;
    if (!target) return { sent: false, reason: 'no_phone' };

    // Older codes are long expired and no longer count against any limit, not even the cap on
    // the account's wrong codes.
    await transaction
      .delete(oneTimeCodes)
      .where(
        and(
          eq(oneTimeCodes.userId, context.userId),
          lte(oneTimeCodes.createdAt, new Date(now.getTime() - ONE_TIME_CODE_FAILURES_WINDOW_MS)),
        ),
      );
    const recent = await transaction
      .select({
        createdAt: oneTimeCodes.createdAt,
        usedAt: oneTimeCodes.usedAt,
        expiresAt: oneTimeCodes.expiresAt,
        failedAttempts: oneTimeCodes.failedAttempts,
      })
      .from(oneTimeCodes)
      .where(
        and(
          eq(oneTimeCodes.userId, context.userId),
          gt(oneTimeCodes.createdAt, new Date(now.getTime() - ONE_TIME_CODE_WINDOW_MS)),
        ),
      )
      .orderBy(desc(oneTimeCodes.createdAt));
    const verdict = resendVerdict(recent, now);
    if (!verdict.allowed) {
      return { sent: false, reason: verdict.reason, retryAfterSeconds: verdict.retryAfterSeconds };
    }

    await transaction
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(and(eq(oneTimeCodes.sessionId, context.sessionId), isNull(oneTimeCodes.usedAt)));
    const code = generateOneTimeCode();
    await transaction.insert(oneTimeCodes).values({
      userId: context.userId,
      sessionId: context.sessionId,
      purpose: target.purpose,
      phone: target.phone,
      codeHash: hashOneTimeCode(code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + ONE_TIME_CODE_LIFETIME_MS),
    });
    await enqueueText(transaction, target.phone, oneTimeCodeText(code), now);
    return { sent: true, phone: target.phone, purpose: target.purpose };
  });
}

/**
 * POST /mfa/verify: checks `otp` against the newest code of this session. A wrong code counts a
 * try (5 void it, and `ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT` across the account's
 * codes pause them all); the right one, unused and unexpired, is spent in one conditional
 * statement (of two concurrent uses only one wins), enrolls its number if it was sent for
 * enrollment, and marks the session verified with a fresh mfa token, of which only the SHA-256
 * is kept. While the account's codes are paused every code is refused, the right one too. All of
 * it under the user's row lock, so that concurrent wrong codes are counted exactly and the pause
 * is emailed once.
 */
export async function verifyMfaCode(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  otp: string,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<VerifyCodeResult> {
  const now = clock.now();
  const candidate = normaliseOneTimeCodeInput(otp);
  return database.transaction(async (transaction): Promise<VerifyCodeResult> => {
    const [user] = await transaction
      .select()
      .from(users)
      .where(eq(users.id, context.userId))
      .for('update');
    if (!user) return INVALID_CODE;
    if (user.mfaCodesPausedAt) return CODES_PAUSED;
    const [code] = await transaction
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.sessionId, context.sessionId), isNull(oneTimeCodes.usedAt)))
      .orderBy(desc(oneTimeCodes.id))
      .limit(1);
    if (!code || !isOneTimeCodeUsable(code, now)) return INVALID_CODE;
    // Not a code at all (a typo such as five digits): refused without spending a try.
    if (!looksLikeOneTimeCode(candidate)) return INVALID_CODE;
    if (!oneTimeCodeMatches(candidate, code.codeHash)) {
      return countWrongCode(transaction, user, code.id, now, publicOrigin, origin);
    }

    if (code.purpose === 'enroll' && hasEnrolledMfa(user) && !context.mfaVerified) {
      // Another session enrolled a phone since this code was sent: replacing it takes a
      // session verified with that phone.
      return INVALID_CODE;
    }
    if (code.purpose === 'verify' && user.mfaPhone !== code.phone) return INVALID_CODE;

    const [spent] = await transaction
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(oneTimeCodes.id, code.id),
          isNull(oneTimeCodes.usedAt),
          lt(oneTimeCodes.failedAttempts, ONE_TIME_CODE_MAX_FAILED_ATTEMPTS),
          gt(oneTimeCodes.expiresAt, now),
        ),
      )
      .returning({ id: oneTimeCodes.id });
    if (!spent) return INVALID_CODE;

    if (code.purpose === 'enroll' && code.phone !== user.mfaPhone) {
      await enrollPhone(transaction, user, code.phone, { now, origin, publicOrigin });
    }
    await transaction
      .update(users)
      .set({
        // An enrollment code leaves nothing pending: its number is the phone now, or was already.
        ...(code.purpose === 'enroll' ? { pendingMfaPhone: null } : {}),
        lastSecondFactor: 'sms',
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    return { verified: true, ...(await completeSecondStep(transaction, context, now, origin)) };
  });
}

/**
 * Makes `phone` the one the codes go to, in the transaction that spent its enrollment code: the
 * first phone turns two-step verification on, another one replaces the phone before it. Either is
 * recorded and emailed to the member, so that a change made with a stolen session does not go
 * unseen.
 */
async function enrollPhone(
  transaction: Database,
  user: Pick<User, 'id' | 'email' | 'mfaPhone'>,
  phone: string,
  { now, origin, publicOrigin }: { now: Date; origin: RequestOrigin; publicOrigin: string },
): Promise<void> {
  const replacing = user.mfaPhone !== null;
  await transaction
    .update(users)
    .set({ mfaPhone: phone, pendingMfaPhone: null, updatedAt: now })
    .where(eq(users.id, user.id));
  await recordSecurityEvent(transaction, {
    userId: user.id,
    kind: replacing ? 'two_step_phone_changed' : 'two_step_enabled',
    origin,
    at: now,
  });
  await credentialsChanged(transaction, 'factor_added', { userId: user.id, now });
  const lastDigits = phoneLastDigits(phone);
  await enqueueEmail(
    transaction,
    user.email,
    replacing
      ? twoStepPhoneChangedEmail(publicOrigin, lastDigits)
      : twoStepEnabledEmail(publicOrigin, lastDigits),
    now,
  );
}

/**
 * Counts a wrong try on the code, then against the account (see {@link countAccountWrongCode}).
 */
async function countWrongCode(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  codeId: number,
  now: Date,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<CodeRefusal> {
  await transaction
    .update(oneTimeCodes)
    .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
    .where(
      and(
        eq(oneTimeCodes.id, codeId),
        isNull(oneTimeCodes.usedAt),
        lt(oneTimeCodes.failedAttempts, ONE_TIME_CODE_MAX_FAILED_ATTEMPTS),
      ),
    );
  return countAccountWrongCode(transaction, user, now, publicOrigin, origin);
}
