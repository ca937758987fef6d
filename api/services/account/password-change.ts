import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type Session, type User } from '../../db/schema/index.ts';
import { passwordChangedWhileSignedInEmail } from '../messages/account-emails.ts';
import type { Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import { checkPasswordPolicy, hashPassword } from '../sign-in/passwords.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';

interface PasswordChangeInput extends CurrentPasswordInput {
  password: string;
}

type PasswordChangeResult =
  | { changed: true; user: User }
  | {
      changed: false;
      /**
       * `wrong_current_password` also for a locked account (as sign-in answers alike);
       * `same_password` for a new password equal to the current one; `password_policy` with the
       * rule's own sentence.
       */
      reason: 'wrong_current_password' | 'same_password' | 'password_policy';
      message?: string;
    };

function samePassword(a: string, b: string): boolean {
  // The hash is of the NFKC form (services/passwords.ts), so this compares what the hash would.
  return a.normalize('NFKC') === b.normalize('NFKC');
}

/**
 * PATCH /users: changes the password of the signed-in member, who proves it is them with the
 * current password.
 *
 * The current password is checked like a sign-in's: one argon2 computation, the answer after at
 * least {@link SIGN_IN_MINIMUM_DURATION_MS}, and the attempt counted by the lockout
 * ({@link withCurrentPassword}) so that a stolen session cannot be used to guess the password
 * faster than the sign-in form allows. The failure that locks the account emails the unlock link,
 * as at sign-in, and ends every session of the member, the caller's too: whoever holds the session
 * is guessing the password.
 *
 * On success, in one transaction: the new argon2id hash, the failure counter cleared (by the
 * lockout), a credential event (every other session ended, the caller's staying; every remembered
 * device forgotten, the caller's browser too; every link mailed before voided), and the "password
 * changed" email written to the outbox.
 */
export function changePassword(
  database: Database,
  clock: Clock,
  { user, session }: { user: User; session: Session },
  input: PasswordChangeInput,
): Promise<PasswordChangeResult> {
  return withCurrentPassword(
    database,
    clock,
    user,
    input,
    async (transaction, { now, accept, prepared }): Promise<PasswordChangeResult> => {
      if (!(await accept(user))) return { changed: false, reason: 'wrong_current_password' };
      // The right current password: the counter is cleared even when the new one is refused.
      if (!prepared) return { changed: false, reason: 'wrong_current_password' };
      if ('refusal' in prepared) return prepared.refusal;
      const [updated] = await transaction
        .update(users)
        .set({ passwordHash: prepared.passwordHash, updatedAt: now })
        .where(eq(users.id, user.id))
        .returning();
      if (!updated) return { changed: false, reason: 'wrong_current_password' };
      await credentialsChanged(transaction, 'password_changed', {
        userId: user.id,
        sessionId: session.id,
        now,
      });
      await recordSecurityEvent(transaction, {
        userId: user.id,
        kind: 'password_changed',
        origin: input.origin,
        at: now,
      });
      await enqueueEmail(
        transaction,
        user.email,
        passwordChangedWhileSignedInEmail(input.publicOrigin),
        now,
      );
      return { changed: true, user: updated };
    },
    () => checkNewPassword(user, input),
  );
}

/** The new password's hash, or why it is refused; asked only once the current one matched. */
async function checkNewPassword(
  user: User,
  input: PasswordChangeInput,
): Promise<{ passwordHash: string } | { refusal: PasswordChangeResult }> {
  const verdict = await checkPasswordPolicy(input.password, {
    email: user.email,
    name: user.name,
    lastName: user.lastName,
  });
  if (!verdict.acceptable) {
    return { refusal: { changed: false, reason: 'password_policy', message: verdict.message } };
  }
  if (samePassword(input.password, input.currentPassword)) {
    return { refusal: { changed: false, reason: 'same_password' } };
  }
  return { passwordHash: await hashPassword(input.password) };
}
