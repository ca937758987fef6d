import { and, eq, notExists, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { logger } from '../../../platform/logger.ts';
import {
  blobs,
  outboxMessages,
  storageDeletions,
  users,
  type User,
} from '../../db/schema/index.ts';
import { accountDeletedEmail } from '../messages/account-emails.ts';
import type { Clock } from '../../../platform/clock.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { removeQueuedStorageFiles } from '../files/files.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import type { FileStorage } from '../files/storage/file-storage.ts';

type AccountDeletionResult =
  | { deleted: true }
  /** Also for a locked account, as sign-in answers alike. */
  | { deleted: false; reason: 'wrong_current_password' };

/**
 * DELETE /users: the signed-in member deletes the account, proving it is them with the current
 * password, which is checked and counted by the lockout as the password change's is
 * (password-change.ts).
 *
 * In one transaction: the user row goes, and with it (by the schema's cascades) every session,
 * token, code, remembered device, security event, request, timeline entry and file row; the mail
 * and texts kept for the member's address and phones go too; the files' storage keys are queued for removal; the
 * goodbye email is written to the outbox. Only then is storage asked to drop the files, so an
 * outage of storage never keeps an account half deleted: what it could not drop stays queued for
 * the sweeper (services/unattached-file-sweeper.ts).
 */
export async function deleteAccount(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  user: User,
  input: CurrentPasswordInput,
): Promise<AccountDeletionResult> {
  const result = await deleteInTransaction(database, clock, user, input);
  if (result.deleted) {
    // Best effort now; a key storage did not let go stays queued for the sweeper.
    await removeQueuedStorageFiles(database, storage, result.keys.length, result.keys).catch(
      (error: unknown) => {
        logger.warn(
          { err: error, files: result.keys.length },
          'account deletion: storage did not drop every file now; the file sweeper retries them',
        );
        return 0;
      },
    );
    return { deleted: true };
  }
  return result;
}

async function deleteInTransaction(
  database: Database,
  clock: Clock,
  user: User,
  input: CurrentPasswordInput,
): Promise<
  { deleted: true; keys: string[] } | { deleted: false; reason: 'wrong_current_password' }
> {
  return withCurrentPassword(database, clock, user, input, async (transaction, { now, accept }) => {
    if (!(await accept(user))) return { deleted: false, reason: 'wrong_current_password' } as const;
    const [current] = await transaction
      .select({
        email: users.email,
        mfaPhone: users.mfaPhone,
        pendingMfaPhone: users.pendingMfaPhone,
        contactPhone: users.contactPhone,
      })
      .from(users)
      .where(eq(users.id, user.id))
      .for('update');
    if (!current) return { deleted: false, reason: 'wrong_current_password' } as const;

    const files = await transaction
      .select({ key: blobs.key })
      .from(blobs)
      .where(eq(blobs.userId, user.id));
    const keys = files.map(({ key }) => key);
    if (keys.length > 0) {
      await transaction
        .insert(storageDeletions)
        .values(keys.map((key) => ({ key, requestedAt: now })))
        .onConflictDoNothing();
    }
    await transaction.delete(users).where(eq(users.id, user.id));
    await transaction.delete(outboxMessages).where(eq(outboxMessages.recipient, current.email));
    for (const phone of new Set([
      current.mfaPhone,
      current.pendingMfaPhone,
      current.contactPhone,
    ])) {
      if (phone !== null) await forgetTextsToUnsharedPhone(transaction, phone);
    }
    await enqueueEmail(transaction, current.email, accountDeletedEmail(), now);
    return { deleted: true, keys } as const;
  });
}

/**
 * Deletes the texts sent to a phone of the deleted account, unless another account gives that
 * number too (a household's shared phone): those texts may be that account's.
 */
async function forgetTextsToUnsharedPhone(transaction: Database, phone: string): Promise<void> {
  const otherAccountsPhone = transaction
    .select({ id: users.id })
    .from(users)
    .where(
      or(
        eq(users.mfaPhone, phone),
        eq(users.pendingMfaPhone, phone),
        eq(users.contactPhone, phone),
      ),
    );
  await transaction
    .delete(outboxMessages)
    .where(
      and(
        eq(outboxMessages.channel, 'sms'),
        eq(outboxMessages.recipient, phone),
        notExists(otherAccountsPhone),
      ),
    );
}
