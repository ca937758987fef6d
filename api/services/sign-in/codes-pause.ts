import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oneTimeCodes, secondStepFailures, users, type User } from '../../db/schema/index.ts';
import { codesPausedEmail, unlockLink } from '../messages/account-emails.ts';
import { issueAccountToken } from './account-tokens.ts';
import { enqueueEmail } from '../messages/outbox.ts';

/**
 * The pause on an account's codes: too many wrong codes stop every code until a password reset or
 * an unlock link, which prove the member reads the account's email.
 */

/**
 * Emails the notice that the account's codes are paused, with a new unlock link (which voids an
 * older one). Run it in the transaction that paused them (or found them paused), so that the
 * email exists exactly when the pause does.
 */
export async function emailCodesPausedNotice(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  publicOrigin: string,
): Promise<void> {
  const token = await issueAccountToken(transaction, user.id, 'unlock', now);
  await enqueueEmail(
    transaction,
    user.email,
    codesPausedEmail(unlockLink(publicOrigin, token), publicOrigin),
    now,
  );
}

/**
 * Lifts the pause on a user's codes and forgets the wrong codes counted towards it, by deleting
 * the user's codes. For a password reset and an unlock link, which prove that the member reads
 * the account's email and which end every session (so no code of theirs is still of use).
 */
export async function resumeOneTimeCodes(
  transaction: Database,
  userId: number,
  now: Date,
): Promise<void> {
  await transaction
    .update(users)
    .set({ mfaCodesPausedAt: null, updatedAt: now })
    .where(eq(users.id, userId));
  await transaction.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
  await transaction.delete(secondStepFailures).where(eq(secondStepFailures.userId, userId));
}
