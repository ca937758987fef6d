import { timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import {
  oneTimeCodes,
  secondStepFailures,
  users,
  type Session,
  type User,
} from '../../db/schema/index.ts';
import { emailCodesPausedNotice } from '../sign-in/codes-pause.ts';
import {
  ONE_TIME_CODE_FAILURES_WINDOW_MS,
  ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT,
} from './one-time-codes.ts';
import { rememberDevice, type IssuedRememberedDevice } from '../sign-in/remembered-devices.ts';
import { markSessionVerified } from '../sign-in/sessions.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { hashToken, looksLikeToken } from '../tokens.ts';
import { type FactorFields, hasEnrolledMfa } from '../member-factors.ts';

/**
 * The step, sign-in's second one: whether a request is past it, taking a session past it, and
 * counting the wrong codes of every factor against the account.
 */

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

/**
 * A code given as a proof, checked in the caller's transaction under the user's row lock: for the
 * MFA step, or for linking the account to a company's sign-in.
 */
export interface CodeAttempt {
  otp: string;
  /** The time of the proof, read once, before the transaction. */
  now: Date;
  publicOrigin: string;
  origin: RequestOrigin;
}

/** A code that proved the factor, or why it did not. */
export type AcceptedCode = { verified: true } | CodeRefusal;

export const INVALID_CODE: CodeRefusal = { verified: false, reason: 'invalid_code' };
export const CODES_PAUSED: CodeRefusal = { verified: false, reason: 'codes_paused' };

/**
 * Marks the session past its MFA step (see {@link markSessionVerified}) and, when the member asked
 * for it, remembers this browser for 30 days (sign-in/remembered-devices.ts), in the transaction
 * that accepted the second factor: a device is never remembered for a step that was rolled back.
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
