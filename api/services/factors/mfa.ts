import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import {
  companies,
  oneTimeCodes,
  secondStepFailures,
  sessions,
  users,
  passkeys,
  type SecondFactorKind,
  type Session,
  type User,
} from '../../db/schema.ts';
import {
  authenticatorAppRemovedEmail,
  passkeyRemovedEmail,
  recoveryCodesRenewedEmail,
  recoveryCodeUsedEmail,
  twoStepDisabledEmail,
  twoStepEnabledEmail,
  twoStepPhoneChangedEmail,
  twoStepPhoneRemovedEmail,
} from '../messages/account-emails.ts';
import { HOUR, type Clock } from '../../../platform/clock.ts';
import { emailCodesPausedNotice } from './codes-pause.ts';
import { credentialsChanged } from '../account/credential-events.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import {
  generateOneTimeCode,
  hashOneTimeCode,
  isOneTimeCodeUsable,
  looksLikeOneTimeCode,
  normaliseOneTimeCodeInput,
  ONE_TIME_CODE_FAILURES_WINDOW_MS,
  ONE_TIME_CODE_LIFETIME_MS,
  ONE_TIME_CODE_MAX_FAILED_ATTEMPTS,
  ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT,
  ONE_TIME_CODE_WINDOW_MS,
  oneTimeCodeMatches,
  oneTimeCodeText,
  resendVerdict,
} from './one-time-codes.ts';
import { enqueueEmail, enqueueText, type EmailContent } from '../messages/outbox.ts';
import { deletePasskeys, findPasskey } from './passkey-store.ts';
import { phoneLastDigits } from './phone-numbers.ts';
import {
  countUnusedRecoveryCodes,
  deleteRecoveryCodes,
  issueRecoveryCodes,
  looksLikeRecoveryCode,
  normaliseRecoveryCodeInput,
  spendRecoveryCode,
} from './recovery-codes.ts';
import { rememberDevice, type IssuedRememberedDevice } from '../sign-in/remembered-devices.ts';
import { recordSecurityEvent } from '../account/security-events.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';
import { type SecurityEventKind } from '../../../contract/security-event-kinds.ts';

/**
 * MFA by text message (docs/PRODUCT.md §4, §12): enrollment of a phone, codes texted to it, the
 * mfa token that proves a verified session, and the rules of who must verify when.
 */

/** A member who skipped the enrollment offer is offered it again this long after. */
export const MFA_OFFER_REPEAT_AFTER_MS = 30 * 24 * HOUR;

/**
 * What a member may have as a second step: passkeys, an authenticator app, a phone for texted
 * codes.
 */
export type SecondFactor = SecondFactorKind;

/** The fields of a user that say which second factors they have. */
export type FactorFields = Pick<User, 'mfaPhone' | 'totpConfirmedAt' | 'passkeyCount'>;

/**
 * The member's confirmed second factors, in the order the step offers them (docs/PRODUCT.md
 * §11.2): the one of the last successful step first, as the member most likely has it at hand;
 * then a passkey (one touch, and it cannot be phished), the app, whose codes need no network,
 * then the phone.
 */
export function secondFactors(user: FactorFields & Pick<User, 'lastSecondFactor'>): SecondFactor[] {
  const factors: SecondFactor[] = [
    ...(user.passkeyCount > 0 ? (['passkey'] as const) : []),
    ...(user.totpConfirmedAt !== null ? (['app'] as const) : []),
    ...(user.mfaPhone !== null ? (['sms'] as const) : []),
  ];
  const last = factors.find((factor) => factor === user.lastSecondFactor);
  return last === undefined ? factors : [last, ...factors.filter((factor) => factor !== last)];
}

/** A user is enrolled in MFA once a passkey, an authenticator app or a phone is confirmed. */
export function hasEnrolledMfa(user: FactorFields): boolean {
  return user.passkeyCount > 0 || user.totpConfirmedAt !== null || user.mfaPhone !== null;
}

/** The phone gone from two-step verification, and a number being confirmed with it. */
const NO_PHONE = { mfaPhone: null, pendingMfaPhone: null } as const;

/** The authenticator app gone, and one being set up with it. */
const NO_APP = {
  totpSecret: null,
  totpConfirmedAt: null,
  pendingTotpSecret: null,
  totpLastStep: null,
} as const;

/**
 * Every second factor gone, for turning two-step verification off and for a reset that claims an
 * unproven account: the phone, the app, the passkeys' count and what was being set up. The
 * recovery codes and the passkeys go too, with {@link deleteRecoveryCodes} and
 * {@link deletePasskeys}: they are rows of their own.
 */
export const NO_SECOND_FACTORS = {
  ...NO_PHONE,
  ...NO_APP,
  passkeyCount: 0,
  lastSecondFactor: null,
} as const;

/**
 * Whether enrollment is to be offered at sign-in to a user without a second factor: when the
 * user never declined it, declined it more than 30 days ago, or belongs to a company that
 * requires MFA (then always, and it cannot be skipped).
 */
export function isEnrollmentOfferDue(
  user: FactorFields & Pick<User, 'mfaDeclinedAt'>,
  companyRequiresMfa: boolean,
  now: Date,
): boolean {
  if (hasEnrolledMfa(user)) return false;
  if (companyRequiresMfa || user.mfaDeclinedAt === null) return true;
  return now.getTime() - user.mfaDeclinedAt.getTime() > MFA_OFFER_REPEAT_AFTER_MS;
}

/**
 * The MFA flags of the sign-in answer: with an enrolled phone, this session must be verified by
 * a code (`mfa_required`); without one, enrollment is offered when it is due
 * (`mfa_requires_verification`).
 */
export function signInMfaFlags(
  user: FactorFields & Pick<User, 'mfaDeclinedAt'>,
  companyRequiresMfa: boolean,
  now: Date,
): { mfa_requires_verification: boolean; mfa_required: boolean } {
  return {
    mfa_requires_verification: isEnrollmentOfferDue(user, companyRequiresMfa, now),
    mfa_required: hasEnrolledMfa(user),
  };
}

/** Whether the user's company (if any) requires its members to enroll in MFA. */
export async function companyRequiresMfa(
  database: Database,
  companyId: number | null,
): Promise<boolean> {
  if (companyId === null) return false;
  const [company] = await database
    .select({ mfaRequired: companies.mfaRequired })
    .from(companies)
    .where(eq(companies.id, companyId));
  return company?.mfaRequired ?? false;
}

/**
 * Whether a request proves MFA for its session: the session was verified by a code and the
 * request's `mfa-token` header is the token that verification issued. Another session's token
 * never matches. The hashes are compared in constant time.
 */
export function requestHasVerifiedMfa(
  session: Pick<Session, 'mfaVerifiedAt' | 'mfaTokenHash'>,
  mfaTokenHeader: string | undefined,
): boolean {
  if (session.mfaVerifiedAt === null || session.mfaTokenHash === null) return false;
  if (!mfaTokenHeader || !looksLikeToken(mfaTokenHeader)) return false;
  const expected = Buffer.from(session.mfaTokenHash, 'hex');
  const actual = Buffer.from(hashToken(mfaTokenHeader), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Whether a request must be refused with "MFA authentication required" on every route but the
 * MFA ones: an enrolled user's request that does not prove MFA, or any request of a user whose
 * company requires MFA and who has not enrolled yet.
 */
export function awaitsMfa(
  user: FactorFields,
  companyRequiresMfa: boolean,
  mfaVerified: boolean,
): boolean {
  return hasEnrolledMfa(user) ? !mfaVerified : companyRequiresMfa;
}

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

/** POST /mfa/skip: records that the member declined the enrollment offer (for 30 days). */
export async function declineMfaEnrollment(
  database: Database,
  clock: Clock,
  userId: number,
): Promise<void> {
  const now = clock.now();
  await database
    .update(users)
    .set({ mfaDeclinedAt: now, updatedAt: now })
    .where(eq(users.id, userId));
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
function codeTarget(
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

/** Where a member stands with MFA, as GET /mfa answers it. */
export interface MfaStatus {
  /** A second factor is confirmed: the step verifies it; otherwise it enrolls one. */
  enrolled: boolean;
  /**
   * The confirmed second factors, the one of the last successful step first, then the app: what
   * the step can take (see {@link secondFactors}).
   */
  methods: SecondFactor[];
  /** This request proves MFA for its session (see {@link requestHasVerifiedMfa}). */
  verified: boolean;
  /** The company requires MFA: enrollment cannot be skipped. */
  required: boolean;
  /** The last two digits of the phone a code would be sent to now, if any. */
  phone_last_digits: string | null;
  /** The member's unused recovery codes: the step offers one only when there are some. */
  recovery_codes_left: number;
  /** The session may add a way to sign in without giving the password again (recent-proof.ts). */
  recently_proven: boolean;
}

export function mfaStatus(
  user: FactorFields & Pick<User, 'pendingMfaPhone' | 'lastSecondFactor'>,
  companyRequiresMfa: boolean,
  mfaVerified: boolean,
  recoveryCodesLeft: number,
  { recentlyProven }: { recentlyProven: boolean },
): MfaStatus {
  const target = codeTarget(user, mfaVerified);
  return {
    enrolled: hasEnrolledMfa(user),
    methods: secondFactors(user),
    verified: mfaVerified,
    required: companyRequiresMfa,
    phone_last_digits: target === null ? null : phoneLastDigits(target.phone),
    recovery_codes_left: recoveryCodesLeft,
    recently_proven: recentlyProven,
  };
}

export interface MfaRequestContext {
  userId: number;
  sessionId: number;
  /** Whether the request proves MFA for its session (see {@link requestHasVerifiedMfa}). */
  mfaVerified: boolean;
  /**
   * The member asked that this browser skip the step for 30 days once it succeeds
   * (`remember_device`, see {@link completeSecondStep}).
   */
  rememberDevice?: boolean;
}

/**
 * The refusal of every code request and every code, the right one too, while the account's codes
 * are paused: what happened and the two ways out.
 */
export const CODES_PAUSED_MESSAGE =
  'Too many wrong codes were entered. Codes are paused for your account until you reset your password or use the unlock link we have emailed you.';

export type SendCodeResult =
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

/** Why a code did not take the MFA step. */
export interface CodeRefusal {
  verified: false;
  reason: 'invalid_code' | 'codes_paused';
}

/** What a successful second step gives the browser (see {@link completeSecondStep}). */
export interface CompletedStep {
  mfaToken: string;
  /** Set when the member asked that this browser be remembered. */
  rememberedDevice: IssuedRememberedDevice | undefined;
}

export type VerifyCodeResult = ({ verified: true } & CompletedStep) | CodeRefusal;

export const INVALID_CODE: CodeRefusal = { verified: false, reason: 'invalid_code' };
export const CODES_PAUSED: CodeRefusal = { verified: false, reason: 'codes_paused' };

/**
 * POST /mfa/verify: checks `otp` against the newest code of this session. A wrong code counts a
 * try (5 void it, and {@link ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT} across the account's
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
 * Marks the session past its MFA step (see {@link markSessionVerified}) and, when the member asked
 * for it, remembers this browser for 30 days (remembered-devices.ts), in the transaction that accepted the second factor: a device is never remembered for a step
 * that was rolled back.
 */
export async function completeSecondStep(
  transaction: Database,
  context: Pick<MfaRequestContext, 'userId' | 'sessionId' | 'rememberDevice'>,
  now: Date,
  origin: RequestOrigin,
): Promise<CompletedStep> {
  const mfaToken = await markSessionVerified(transaction, context, now);
  const rememberedDevice = context.rememberDevice
    ? await rememberDevice(transaction, context.userId, now, origin)
    : undefined;
  return { mfaToken, rememberedDevice };
}

/**
 * Marks the session past its MFA step with a fresh mfa token, of which only the SHA-256 is kept,
 * in the transaction that accepted the second factor. Resolves to the token, for the answer.
 */
export async function markSessionVerified(
  transaction: Database,
  context: Pick<MfaRequestContext, 'sessionId'>,
  now: Date,
): Promise<string> {
  const mfaToken = generateToken();
  await transaction
    .update(sessions)
    // A second factor proves who holds the session as the password did (recent-proof.ts).
    .set({ mfaVerifiedAt: now, mfaTokenHash: hashToken(mfaToken), provenAt: now })
    .where(eq(sessions.id, context.sessionId));
  return mfaToken;
}

/**
 * Makes `phone` the one the codes go to, in the transaction that spent its enrollment code: the
 * first phone turns two-step verification on, another one replaces the phone before it. Either
 * is recorded and emailed to the member (docs/PRODUCT.md §11.2), so that a change made with a
 * stolen session does not go unseen.
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

export type TurnOffResult =
  | { turnedOff: true }
  | { turnedOff: false; reason: 'wrong_current_password' | 'not_enrolled' | 'company_requires' };

/**
 * DELETE /mfa: turns two-step verification off for the signed-in member, proved with the current
 * password (checked and counted by the lockout as for a password change). Refused where the
 * company requires it. In one transaction: the phone, the app, what was being set up, every
 * code (texted or recovery) and every remembered device go, the offer is counted as declined now
 * (so sign-in does not offer it again for 30 days), the event is recorded and the member emailed.
 */
export function turnOffMfa(
  database: Database,
  clock: Clock,
  user: User,
  input: CurrentPasswordInput,
): Promise<TurnOffResult> {
  return withCurrentPassword(
    database,
    clock,
    user,
    input,
    async (transaction, { now, accept }): Promise<TurnOffResult> => {
      if (!(await accept(user))) return { turnedOff: false, reason: 'wrong_current_password' };
      const [current] = await transaction
        .select({
          mfaPhone: users.mfaPhone,
          totpConfirmedAt: users.totpConfirmedAt,
          passkeyCount: users.passkeyCount,
          companyId: users.companyId,
        })
        .from(users)
        .where(eq(users.id, user.id))
        .for('update');
      if (!current || !hasEnrolledMfa(current)) return { turnedOff: false, reason: 'not_enrolled' };
      if (await companyRequiresMfa(transaction, current.companyId)) {
        return { turnedOff: false, reason: 'company_requires' };
      }
      await transaction
        .update(users)
        .set({ ...NO_SECOND_FACTORS, mfaDeclinedAt: now, updatedAt: now })
        .where(eq(users.id, user.id));
      await transaction.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
      await deleteRecoveryCodes(transaction, user.id);
      await deletePasskeys(transaction, user.id);
      await credentialsChanged(transaction, 'two_step_turned_off', { userId: user.id, now });
      await recordSecurityEvent(transaction, {
        userId: user.id,
        kind: 'two_step_disabled',
        origin: input.origin,
        at: now,
      });
      await enqueueEmail(transaction, user.email, twoStepDisabledEmail(input.publicOrigin), now);
      return { turnedOff: true };
    },
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

/**
 * Counts a wrong code against the account, after the caller wrote it down (on the texted code, or
 * as an app's failure): the wrong tries of the last 24 hours, texted codes and app codes
 * together, and reaching the cap pauses every code of the account and emails the member (once:
 * the pause stops every later try before it is counted). Run it under the user's row lock.
 */
export async function countAccountWrongCode(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<CodeRefusal> {
  const since = new Date(now.getTime() - ONE_TIME_CODE_FAILURES_WINDOW_MS);
  const [texted] = await transaction
    .select({ failures: sql<number>`coalesce(sum(${oneTimeCodes.failedAttempts}), 0)::integer` })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, user.id), gt(oneTimeCodes.createdAt, since)));
  const [fromApp] = await transaction
    .select({ failures: sql<number>`count(*)::integer` })
    .from(secondStepFailures)
    .where(and(eq(secondStepFailures.userId, user.id), gt(secondStepFailures.failedAt, since)));
  const failures = (texted?.failures ?? 0) + (fromApp?.failures ?? 0);
  if (failures < ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT) return INVALID_CODE;
  await transaction
    .update(users)
    .set({ mfaCodesPausedAt: now, updatedAt: now })
    .where(eq(users.id, user.id));
  await recordSecurityEvent(transaction, {
    userId: user.id,
    kind: 'two_step_codes_paused',
    origin,
    at: now,
  });
  await emailCodesPausedNotice(transaction, user, now, publicOrigin);
  return CODES_PAUSED;
}

/**
 * A wrong code that is not a texted one (an app's, a recovery code): written down as a failure,
 * then counted against the account with the texted ones (see {@link countAccountWrongCode}). Run
 * it under the user's row lock.
 */
export async function countSecondStepFailure(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<CodeRefusal> {
  // Failures older than the count's window no longer matter: they go, as old texted codes do.
  await transaction
    .delete(secondStepFailures)
    .where(
      and(
        eq(secondStepFailures.userId, user.id),
        lte(
          secondStepFailures.failedAt,
          new Date(now.getTime() - ONE_TIME_CODE_FAILURES_WINDOW_MS),
        ),
      ),
    );
  await transaction.insert(secondStepFailures).values({ userId: user.id, failedAt: now });
  return countAccountWrongCode(transaction, user, now, publicOrigin, origin);
}

/** The user's row, locked until the transaction ends: every change of the second step takes it. */
export async function lockedUser(transaction: Database, userId: number): Promise<User | undefined> {
  const [user] = await transaction.select().from(users).where(eq(users.id, userId)).for('update');
  return user;
}

export interface RecoveryCodeInput {
  otp: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

export type RecoveryCodeResult =
  ({ verified: true; recoveryCodesLeft: number } & CompletedStep) | CodeRefusal;

/**
 * POST /mfa/verify with `method: "recovery_code"`: one of the member's unused recovery codes takes
 * the MFA step in place of a factor, and is spent (docs/PRODUCT.md §11.2). The use is recorded and
 * emailed with the count of codes left. A wrong code counts toward the account's cap with the
 * texted and app ones, and while codes are paused the right one is refused too; a reply that is
 * not a code at all costs no try. The last factor used is left as it was: a recovery code stands
 * in for one. Under the user's row lock, as every code.
 */
export function verifyRecoveryCode(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: RecoveryCodeInput,
): Promise<RecoveryCodeResult> {
  const now = clock.now();
  const candidate = normaliseRecoveryCodeInput(input.otp);
  return database.transaction(async (transaction): Promise<RecoveryCodeResult> => {
    const user = await lockedUser(transaction, context.userId);
    // Codes die with the last factor; this also refuses one that somehow outlived it.
    if (!user || !hasEnrolledMfa(user)) return INVALID_CODE;
    if (user.mfaCodesPausedAt) return CODES_PAUSED;
    if (!looksLikeRecoveryCode(candidate)) return INVALID_CODE;
    if (!(await spendRecoveryCode(transaction, user.id, candidate, now))) {
      return countSecondStepFailure(transaction, user, now, input.publicOrigin, input.origin);
    }
    const recoveryCodesLeft = await countUnusedRecoveryCodes(transaction, user.id);
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'recovery_code_used',
      origin: input.origin,
      at: now,
    });
    await enqueueEmail(
      transaction,
      user.email,
      recoveryCodeUsedEmail(input.publicOrigin, recoveryCodesLeft),
      now,
    );
    const step = await completeSecondStep(transaction, context, now, input.origin);
    return { verified: true, recoveryCodesLeft, ...step };
  });
}

export type RenewRecoveryCodesResult =
  | { renewed: true; recoveryCodes: string[] }
  | { renewed: false; reason: 'wrong_current_password' | 'not_enrolled' };

/**
 * POST /mfa/recovery-codes: a new set of recovery codes for a member with a second factor, proved
 * with the current password (counted by the lockout). In one transaction: every older code goes,
 * used or not, the new set is made, the change is recorded and emailed. Resolves to the new codes,
 * which are never shown again.
 */
export function renewRecoveryCodes(
  database: Database,
  clock: Clock,
  user: User,
  input: CurrentPasswordInput,
): Promise<RenewRecoveryCodesResult> {
  return withCurrentPassword(
    database,
    clock,
    user,
    input,
    async (transaction, { now, accept }): Promise<RenewRecoveryCodesResult> => {
      const current = await lockedUser(transaction, user.id);
      // Codes stand in for a factor: without one they would be a second password, not a step.
      if (!current || !hasEnrolledMfa(current)) return { renewed: false, reason: 'not_enrolled' };
      if (!(await accept(current))) return { renewed: false, reason: 'wrong_current_password' };
      const recoveryCodes = await issueRecoveryCodes(transaction, current.id, now);
      await recordSecurityEvent(transaction, {
        userId: current.id,
        kind: 'recovery_codes_renewed',
        origin: input.origin,
        at: now,
      });
      await enqueueEmail(
        transaction,
        current.email,
        recoveryCodesRenewedEmail(input.publicOrigin),
        now,
      );
      return { renewed: true, recoveryCodes };
    },
  );
}

export type RemoveFactorResult =
  | { removed: true }
  | {
      removed: false;
      reason: 'wrong_current_password' | 'not_enrolled' | 'last_factor_required';
    };

/** Which factor to remove: the app, the phone, or one passkey by its public id. */
export type FactorToRemove = { factor: 'app' | 'sms' } | { factor: 'passkey'; passkeyId: string };

interface FactorRemoval {
  cleared: Partial<User>;
  /** Whether the member has a second factor left after it. */
  factorsLeft: boolean;
  kind: SecurityEventKind;
  email: EmailContent;
  /** The passkey's row, deleted with it. */
  passkeyRowId?: number;
}

/**
 * What removing a factor clears, records and emails; undefined when the member has none. Run it
 * under the user's row lock.
 */
async function factorRemoval(
  transaction: Database,
  user: User,
  target: FactorToRemove,
  publicOrigin: string,
): Promise<FactorRemoval | undefined> {
  const othersThan = (factor: SecondFactor) =>
    secondFactors(user).some((other) => other !== factor);
  if (target.factor === 'passkey') {
    const passkey = await findPasskey(transaction, user.id, target.passkeyId);
    if (!passkey) return undefined;
    return {
      cleared: { passkeyCount: user.passkeyCount - 1 },
      factorsLeft: user.passkeyCount > 1 || othersThan('passkey'),
      kind: 'passkey_removed',
      email: passkeyRemovedEmail(publicOrigin, passkey.name),
      passkeyRowId: passkey.id,
    };
  }
  if (target.factor === 'app') {
    if (user.totpConfirmedAt === null) return undefined;
    return {
      cleared: NO_APP,
      factorsLeft: othersThan('app'),
      kind: 'authenticator_app_removed',
      email: authenticatorAppRemovedEmail(publicOrigin),
    };
  }
  if (user.mfaPhone === null) return undefined;
  return {
    cleared: NO_PHONE,
    factorsLeft: othersThan('sms'),
    kind: 'two_step_phone_removed',
    email: twoStepPhoneRemovedEmail(publicOrigin, phoneLastDigits(user.mfaPhone)),
  };
}

/**
 * DELETE /mfa/app, DELETE /mfa/phone and DELETE /mfa/passkeys/:id: removes one second factor of
 * the member, with what was being set up for it (a new app's secret; a number being confirmed,
 * and the texted codes not used yet), proved with the current password (counted by the lockout).
 * Refused where the company requires two-step verification and it is the member's last factor.
 * Elsewhere, removing the last factor turns two-step verification off as `DELETE /mfa` does: the
 * recovery codes and the remembered devices go, and the offer then waits 30 days. Recorded and
 * emailed, in one transaction.
 */
export function removeSecondFactor(
  database: Database,
  clock: Clock,
  user: User,
  target: FactorToRemove,
  input: CurrentPasswordInput & { companyRequiresMfa: boolean },
): Promise<RemoveFactorResult> {
  return withCurrentPassword(
    database,
    clock,
    user,
    input,
    async (transaction, { now, accept }): Promise<RemoveFactorResult> => {
      const current = await lockedUser(transaction, user.id);
      const removal =
        current && (await factorRemoval(transaction, current, target, input.publicOrigin));
      if (!current || !removal) return { removed: false, reason: 'not_enrolled' };
      const onlyFactor = !removal.factorsLeft;
      if (input.companyRequiresMfa && onlyFactor) {
        return { removed: false, reason: 'last_factor_required' };
      }
      if (!(await accept(current))) return { removed: false, reason: 'wrong_current_password' };
      await transaction
        .update(users)
        .set({
          ...removal.cleared,
          ...(current.lastSecondFactor === target.factor && onlyFactorOfItsKind(current, target)
            ? { lastSecondFactor: null }
            : {}),
          ...(onlyFactor ? { mfaDeclinedAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(users.id, current.id));
      if (removal.passkeyRowId !== undefined) {
        await transaction.delete(passkeys).where(eq(passkeys.id, removal.passkeyRowId));
      }
      if (target.factor === 'sms') {
        // Voided, not deleted: their wrong tries still count toward the account's cap, which
        // guards the factors that remain.
        await transaction
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.userId, current.id), isNull(oneTimeCodes.usedAt)));
      }
      if (onlyFactor) await deleteRecoveryCodes(transaction, current.id);
      await credentialsChanged(transaction, onlyFactor ? 'last_factor_removed' : 'factor_removed', {
        userId: current.id,
        now,
      });
      await recordSecurityEvent(transaction, {
        userId: current.id,
        kind: removal.kind,
        origin: input.origin,
        at: now,
      });
      await enqueueEmail(transaction, current.email, removal.email, now);
      return { removed: true };
    },
  );
}

/** Whether the factor removed leaves none of its kind (a member may have several passkeys). */
function onlyFactorOfItsKind(user: Pick<User, 'passkeyCount'>, target: FactorToRemove): boolean {
  return target.factor !== 'passkey' || user.passkeyCount === 1;
}
