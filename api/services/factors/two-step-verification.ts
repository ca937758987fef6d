import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies, oneTimeCodes, users, type User } from '../../db/schema/index.ts';
import { twoStepDisabledEmail } from '../messages/factor-emails.ts';
import { type Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import { deletePasskeys } from './passkey-store.ts';
import { phoneLastDigits } from './phone-numbers.ts';
import { deleteRecoveryCodes } from './recovery-code-store.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import {
  type SecondFactor,
  type FactorFields,
  secondFactors,
  hasEnrolledMfa,
  NO_SECOND_FACTORS,
} from '../member-factors.ts';
import { codeTarget } from './phone.ts';

/**
 * Two-step verification as a whole: where a member stands (GET /mfa), the company's rule, and
 * turning it off.
 */

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

/** Where a member stands with MFA, as GET /mfa answers it. */
export interface MfaStatus {
  /** A second factor is confirmed: the step verifies it; otherwise it enrolls one. */
  enrolled: boolean;
  /**
   * The confirmed second factors, the one of the last successful step first, then the app: what
   * the step can take (see {@link secondFactors}).
   */
  methods: SecondFactor[];
  /** This request proves MFA for its session (see `requestHasVerifiedMfa`). */
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

type TurnOffResult =
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
