import type { Database } from '../../db/client.ts';
import type { User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { registerSignInAttempt } from './lockout.ts';
import { verifyPassword } from './passwords.ts';
import { forgetRememberedDevices } from './remembered-devices.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { revokeAllSessions } from './sessions.ts';
import { SIGN_IN_MINIMUM_DURATION_MS, withMinimumDuration } from './timing.ts';
import { emailUnlockLink } from './unlock.ts';

/** A change the member proves with the current password. */
export interface CurrentPasswordInput {
  currentPassword: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

/** What the work of {@link withCurrentPassword} is handed inside its transaction. */
interface CurrentPasswordProof<Prepared> {
  /** The time of the change, read once the transaction began. */
  now: Date;
  /**
   * Counts the password given for `user` ({@link acceptCurrentPassword}); the work goes on only
   * when it answers true. The work calls it where its checks allow: a refusal found before it
   * leaves the lockout's count as it was.
   */
  accept: (user: Pick<User, 'id' | 'email'>) => Promise<boolean>;
  /** What `prepare` answered, when the password matched; else undefined. */
  prepared: Prepared | undefined;
}

/**
 * Runs a change the member proves with the current password, checked as a sign-in checks one: the
 * answer after at least {@link SIGN_IN_MINIMUM_DURATION_MS} whatever happens, argon2 before the
 * transaction so that no row lock is held while it computes, then `work` in one transaction with
 * the proof to accept. `prepare` (say, hashing a new password) runs between the two, only when
 * the password matched.
 */
export function withCurrentPassword<Result, Prepared = never>(
  database: Database,
  clock: Clock,
  user: Pick<User, 'passwordHash'>,
  input: CurrentPasswordInput,
  work: (transaction: Database, proof: CurrentPasswordProof<Prepared>) => Promise<Result>,
  prepare?: () => Promise<Prepared>,
): Promise<Result> {
  return withMinimumDuration(SIGN_IN_MINIMUM_DURATION_MS, async () => {
    const matches = await verifyPassword(input.currentPassword, user.passwordHash);
    const prepared = matches && prepare ? await prepare() : undefined;
    return database.transaction(async (transaction) => {
      const now = clock.now();
      const { origin, publicOrigin } = input;
      return work(transaction, {
        now,
        accept: (who) =>
          acceptCurrentPassword(transaction, who, { matches, now, origin, publicOrigin }),
        prepared,
      });
    });
  });
}

/** What a signed-in member's proof with the current password is checked against. */
interface CurrentPasswordAttempt {
  /** Whether the password given matches, checked (argon2) before the transaction began. */
  matches: boolean;
  now: Date;
  origin: RequestOrigin;
  publicOrigin: string;
}

/**
 * Counts a signed-in member's current password as a sign-in attempt, for every change that asks for
 * it: a password or email change, turning two-step verification off, deleting the account. A stolen
 * session then guesses no faster than the sign-in form allows.
 *
 * A wrong password counts toward the lockout; the failure that locks the account records the
 * lock, emails the unlock link, ends every session of the member, the caller's too (whoever
 * holds it is guessing the password), and forgets every remembered device. A locked account is refused like a wrong password. The right
 * password clears the count. Run it in the transaction of the change, which it lets through only
 * when it answers true.
 */
async function acceptCurrentPassword(
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
