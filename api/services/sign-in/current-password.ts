import type { Database } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { registerSignInAttempt } from './lockout.ts';
import { forgetRememberedDevices } from './remembered-devices.ts';
import { recordSecurityEvent } from '../account/security-events.ts';
import { revokeAllSessions } from './sessions.ts';
import { emailUnlockLink } from './unlock.ts';

/** What a signed-in member's proof with the current password is checked against. */
export interface CurrentPasswordAttempt {
  /** Whether the password given matches, checked (argon2) before the transaction began. */
  matches: boolean;
  now: Date;
  origin: RequestOrigin;
  publicOrigin: string;
}

/**
 * Counts a signed-in member's current password as a sign-in attempt (docs/PRODUCT.md §11.2), for
 * every change that asks for it: a password or email change, turning two-step verification off,
 * deleting the account. A stolen session then guesses no faster than the sign-in form allows.
 *
 * A wrong password counts toward the lockout; the failure that locks the account records the
 * lock, emails the unlock link, ends every session of the member, the caller's too (whoever
 * holds it is guessing the password), and forgets every remembered device. A locked account is refused like a wrong password. The right
 * password clears the count. Run it in the transaction of the change, which it lets through only
 * when it answers true.
 */
export async function acceptCurrentPassword(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  attempt: CurrentPasswordAttempt,
): Promise<boolean> {
  const { matches, now, origin, publicOrigin } = attempt;
  const verdict = await registerSignInAttempt(transaction, user.id, matches, now);
  if (verdict.accepted) return true;
  if (verdict.newlyLocked) {
    await recordSecurityEvent(transaction, { userId: user.id, kind: 'locked', origin, at: now });
    await emailUnlockLink(transaction, user, now, publicOrigin);
    await revokeAllSessions(transaction, user.id, now);
    await forgetRememberedDevices(transaction, user.id);
  }
  return false;
}
