import type { Database } from '../../db/client.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { type User } from '../../db/schema/index.ts';
import { recoveryCodesRenewedEmail, recoveryCodeUsedEmail } from '../messages/factor-emails.ts';
import { type Clock } from '../../../platform/clock.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import {
  countUnusedRecoveryCodes,
  issueRecoveryCodes,
  looksLikeRecoveryCode,
  normaliseRecoveryCodeInput,
  spendRecoveryCode,
} from './recovery-code-store.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { hasEnrolledMfa, lockedUser } from '../member-factors.ts';
import {
  type CodeAttempt,
  type MfaRequestContext,
  type CodeRefusal,
  type CompletedStep,
  INVALID_CODE,
  CODES_PAUSED,
  completeSecondStep,
  countSecondStepFailure,
} from './step.ts';

/**
 * Recovery codes in use: one taking the step in place of a factor, and a new set made. The codes
 * themselves are kept by recovery-code-store.ts.
 */

interface RecoveryCodeInput {
  otp: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

type RecoveryCodeResult =
  ({ verified: true; recoveryCodesLeft: number } & CompletedStep) | CodeRefusal;

/**
 * POST /mfa/verify with `method: "recovery_code"`: one of the member's unused recovery codes takes
 * the MFA step in place of a factor (see {@link acceptRecoveryCode}), in one transaction with the
 * session marked past it.
 */
export function verifyRecoveryCode(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: RecoveryCodeInput,
): Promise<RecoveryCodeResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<RecoveryCodeResult> => {
    const accepted = await acceptRecoveryCode(transaction, context.userId, { ...input, now });
    if (!accepted.verified) return accepted;
    const step = await completeSecondStep(transaction, context, now, input.origin);
    return { ...accepted, ...step };
  });
}

/** A recovery code spent, and how many the member has left; or why it was refused. */
export type AcceptedRecoveryCode = { verified: true; recoveryCodesLeft: number } | CodeRefusal;

/**
 * Spends one of the member's unused recovery codes as a proof in place of a factor, in the
 * caller's transaction, under the user's row lock: for the MFA step, or for linking the account
 * to a company's sign-in. The use is recorded and emailed with the count of codes left. A wrong
 * code counts toward the account's cap with the texted and app ones, and while codes are paused
 * the right one is refused too; a reply that is not a code at all costs no try. The last factor
 * used is left as it was: a recovery code stands in for one. The caller writes what the proof
 * allows in the same transaction, so that a code is never spent for nothing.
 */
export async function acceptRecoveryCode(
  transaction: Database,
  userId: number,
  attempt: CodeAttempt,
): Promise<AcceptedRecoveryCode> {
  const { now, publicOrigin, origin } = attempt;
  const candidate = normaliseRecoveryCodeInput(attempt.otp);
  const user = await lockedUser(transaction, userId);
  // Codes die with the last factor; this also refuses one that somehow outlived it.
  if (!user || !hasEnrolledMfa(user)) return INVALID_CODE;
  if (user.mfaCodesPausedAt) return CODES_PAUSED;
  if (!looksLikeRecoveryCode(candidate)) return INVALID_CODE;
  if (!(await spendRecoveryCode(transaction, user.id, candidate, now))) {
    return countSecondStepFailure(transaction, user, now, publicOrigin, origin);
  }
  const recoveryCodesLeft = await countUnusedRecoveryCodes(transaction, user.id);
  await recordSecurityEvent(transaction, {
    userId: user.id,
    kind: 'recovery_code_used',
    origin,
    at: now,
  });
  await enqueueEmail(
    transaction,
    user.email,
    recoveryCodeUsedEmail(publicOrigin, recoveryCodesLeft),
    now,
  );
  return { verified: true, recoveryCodesLeft };
}

type RenewRecoveryCodesResult =
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
