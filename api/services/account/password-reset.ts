import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import {
  passwordChangedEmail,
  passwordResetEmail,
  resetPasswordLink,
} from '../messages/account-emails.ts';
import {
  findUsableAccountToken,
  issueAccountToken,
  spendAccountToken,
  type TokenRefusal,
  withAccountOf,
} from '../sign-in/account-tokens.ts';
import type { Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { UNLOCKED_STATE } from '../sign-in/lockout.ts';
import { resumeOneTimeCodes } from '../sign-in/codes-pause.ts';
import { NO_SECOND_FACTORS } from '../member-factors.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import { deletePasskeys } from '../factors/passkey-store.ts';
import { deleteRecoveryCodes } from '../factors/recovery-code-store.ts';
import { checkPasswordPolicy, hashPassword } from '../sign-in/passwords.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';

/**
 * POST /users/password: when `email` has an account, issues a reset token (voiding older ones)
 * and writes the email with its link to the outbox, in one transaction (see {@link withAccountOf}).
 */
export function requestPasswordReset(
  database: Database,
  clock: Clock,
  email: string,
  publicOrigin: string,
): Promise<void> {
  return withAccountOf(database, clock, email, async (transaction, user, now) => {
    const token = await issueAccountToken(transaction, user.id, 'reset_password', now);
    const link = resetPasswordLink(publicOrigin, token);
    await enqueueEmail(transaction, user.email, passwordResetEmail(link), now);
  });
}

/** What a reset clears on an account whose address was unproven until the reset proved it. */
function unprovenAccountClaimed(now: Date) {
  return {
    emailVerifiedAt: now,
    ...NO_SECOND_FACTORS,
    mfaDeclinedAt: null,
    mfaCodesPausedAt: null,
  };
}

interface PasswordResetInput {
  token: string;
  password: string;
  passwordConfirmation: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

type PasswordResetResult =
  | { changed: true }
  | {
      changed: false;
      reason: TokenRefusal | 'confirmation_mismatch' | 'password_policy';
      /** For policy failures: the rule's own sentence (see checkPasswordPolicy). */
      message?: string;
    };

/**
 * PUT /users/password: sets a new password with a reset token. The token is checked first (a
 * dead link is the thing to fix before anything else), then the confirmation, then the password
 * policy; the token is only spent when the password is changed, so a member who typed a refused
 * password can try again with the same link.
 *
 * On success, in one transaction: the new argon2id hash, the token spent, a credential event
 * (every session and remembered device ended, every other link mailed before voided), a lockout
 * and a pause on the codes lifted (the link proves the member reads the account's email) and the
 * "password changed" email written to the outbox.
 *
 * The reset link was mailed to the account's address, so following it proves the address. On an
 * account whose address was unproven it also clears the second factor and everything about it:
 * someone who signed up first with another person's address may have enrolled their own phone (or
 * app, with its recovery codes), and the owner, proven now, must find the enrollment offered to
 * them, not a code sent to that phone.
 */
export async function resetPassword(
  database: Database,
  clock: Clock,
  input: PasswordResetInput,
): Promise<PasswordResetResult> {
  const token = await findUsableAccountToken(database, input.token, 'reset_password', clock.now());
  if (typeof token === 'string') return { changed: false, reason: token };
  const [user] = await database.select().from(users).where(eq(users.id, token.userId));
  if (!user) return { changed: false, reason: 'invalid_token' };

  if (input.password !== input.passwordConfirmation) {
    return { changed: false, reason: 'confirmation_mismatch' };
  }
  const verdict = await checkPasswordPolicy(input.password, user);
  if (!verdict.acceptable) {
    return { changed: false, reason: 'password_policy', message: verdict.message };
  }

  // Hashing happens before the transaction, so that no lock is held for an argon2 computation.
  const passwordHash = await hashPassword(input.password);

  return database.transaction(async (transaction): Promise<PasswordResetResult> => {
    const now = clock.now();
    // Spending is conditional on the token still being usable: of two concurrent resets with one
    // link, only one changes the password.
    const spent = await spendAccountToken(transaction, input.token, 'reset_password', now);
    if (typeof spent === 'string') return { changed: false, reason: spent };
    await transaction
      .update(users)
      .set({
        passwordHash,
        ...UNLOCKED_STATE,
        ...(user.emailVerifiedAt === null ? unprovenAccountClaimed(now) : {}),
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    if (user.emailVerifiedAt === null) {
      // Whoever enrolled those factors may have made recovery codes with them.
      await deleteRecoveryCodes(transaction, user.id);
      await deletePasskeys(transaction, user.id);
      await recordSecurityEvent(transaction, {
        userId: user.id,
        kind: 'email_verified',
        origin: input.origin,
        at: now,
      });
    }
    await resumeOneTimeCodes(transaction, user.id, now);
    await credentialsChanged(transaction, 'password_reset', { userId: user.id, now });
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'password_reset',
      origin: input.origin,
      at: now,
    });
    await enqueueEmail(transaction, user.email, passwordChangedEmail(input.publicOrigin), now);
    return { changed: true };
  });
}
