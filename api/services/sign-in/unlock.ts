import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { unlockEmail, unlockLink } from '../messages/account-emails.ts';
import {
  issueAccountToken,
  spendAccountToken,
  type TokenRefusal,
  withAccountOf,
} from './account-tokens.ts';
import type { Clock } from '../../../platform/clock.ts';
import { isLocked, UNLOCKED_STATE } from './lockout.ts';
import { emailCodesPausedNotice, resumeOneTimeCodes } from './codes-pause.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import { forgetRememberedDevices } from './remembered-devices.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { revokeAllSessions } from './sessions.ts';

/**
 * Issues a new unlock token for a locked user and writes the email with its link to the outbox.
 * Run it in the transaction that locked the account (or found it locked), so that the email
 * exists exactly when the lock does.
 */
export async function emailUnlockLink(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  publicOrigin: string,
): Promise<void> {
  const token = await issueAccountToken(transaction, user.id, 'unlock', now);
  await enqueueEmail(transaction, user.email, unlockEmail(unlockLink(publicOrigin, token)), now);
}

/**
 * POST /users/unlock: emails a new unlock link when the account of `email` is locked right now or
 * its codes are paused (with the notice of the one or the other), and does nothing otherwise,
 * answering alike either way (see {@link withAccountOf}).
 */
export function requestUnlockLink(
  database: Database,
  clock: Clock,
  email: string,
  publicOrigin: string,
): Promise<void> {
  return withAccountOf(database, clock, email, async (transaction, user, now) => {
    if (isLocked(user, now)) {
      await emailUnlockLink(transaction, user, now, publicOrigin);
    } else if (user.mfaCodesPausedAt) {
      await emailCodesPausedNotice(transaction, user, now, publicOrigin);
    }
  });
}

/**
 * GET /users/unlock: spends an unlock token, clears the lock and the failure counter of its
 * account, lifts a pause on its codes (and forgets its wrong codes), ends the account's sessions
 * and forgets its remembered devices, in one transaction. The lock or the pause says someone was guessing the password or
 * the codes; the link proves the member reads the account's email, so whatever session exists
 * from before starts over with a sign-in. Answers why a token could not be spent.
 */
export function unlockWithToken(
  database: Database,
  clock: Clock,
  token: string,
  origin: RequestOrigin,
): Promise<true | TokenRefusal> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<true | TokenRefusal> => {
    const spent = await spendAccountToken(transaction, token, 'unlock', now);
    if (typeof spent === 'string') return spent;
    await transaction
      .update(users)
      .set({ ...UNLOCKED_STATE, updatedAt: now })
      .where(eq(users.id, spent.userId));
    await resumeOneTimeCodes(transaction, spent.userId, now);
    await revokeAllSessions(transaction, spent.userId, now);
    await forgetRememberedDevices(transaction, spent.userId);
    await recordSecurityEvent(transaction, {
      userId: spent.userId,
      kind: 'unlocked',
      origin,
      at: now,
    });
    return true;
  });
}
