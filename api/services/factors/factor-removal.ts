import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oneTimeCodes, users, passkeys, type User } from '../../db/schema/index.ts';
import {
  authenticatorAppRemovedEmail,
  passkeyRemovedEmail,
  twoStepPhoneRemovedEmail,
} from '../messages/factor-emails.ts';
import { type Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { enqueueEmail, type EmailContent } from '../messages/outbox.ts';
import { findPasskey } from './passkey-store.ts';
import { phoneLastDigits } from './phone-numbers.ts';
import { deleteRecoveryCodes } from './recovery-code-store.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { type SecurityEventKind } from '../../../contract/security-event-kinds.ts';
import {
  type SecondFactor,
  secondFactors,
  NO_PHONE,
  NO_APP,
  lockedUser,
} from '../member-factors.ts';

/** Removing one factor, proved with the current password. */

type RemoveFactorResult =
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
