import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import {
  changeEmailEmail,
  confirmEmailLink,
  emailAddressInUseEmail,
  emailChangedEmail,
  emailChangeRequestedEmail,
  verifyEmailEmail,
} from '../messages/account-emails.ts';
import {
  issueAccountToken,
  spendAccountToken,
  type TokenRefusal,
} from '../sign-in/account-tokens.ts';
import type { Clock } from '../../../platform/clock.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { withCurrentPassword, type CurrentPasswordInput } from '../sign-in/current-password.ts';
import { enqueueEmail } from '../messages/outbox.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';

/**
 * Proving the account's email address: a `verify_email` link at sign-up (and on request), a
 * `change_email` link to the new address of a change. Both links open a page with one button, so a
 * mail scanner that follows links spends nothing; the button spends the token here.
 */

/**
 * Issues a `verify_email` token for the account's current address and writes the email with its
 * link to the outbox. Run it in the transaction that creates the account (or that answers a
 * resend), so the email exists exactly when the token does.
 */
export async function emailVerificationLink(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  publicOrigin: string,
): Promise<void> {
  const token = await issueAccountToken(transaction, user.id, 'verify_email', now, user.email);
  await enqueueEmail(
    transaction,
    user.email,
    verifyEmailEmail(confirmEmailLink(publicOrigin, token)),
    now,
  );
}

type ResendResult = { sent: true; email: string } | { sent: false; reason: 'verified' };

/** POST /users/confirmation: a new link for the signed-in member's unproven address. */
export function resendVerificationLink(
  database: Database,
  clock: Clock,
  userId: number,
  publicOrigin: string,
): Promise<ResendResult> {
  return database.transaction(async (transaction): Promise<ResendResult> => {
    const now = clock.now();
    const [user] = await transaction.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user || user.emailVerifiedAt !== null) return { sent: false, reason: 'verified' };
    await emailVerificationLink(transaction, user, now, publicOrigin);
    return { sent: true, email: user.email };
  });
}

type ConfirmResult =
  | { confirmed: true; changed: boolean; email: string }
  | { confirmed: false; reason: TokenRefusal | 'email_taken' };

/**
 * PUT /users/confirmation: spends a `verify_email` or `change_email` token, in one transaction.
 * A verification proves only the address it was mailed to: after a change, the old address's link
 * is refused. A change re-checks that its address is still free (another account may have taken
 * it since), then makes it the account's address, proven at this moment, and tells the old one.
 */
export function confirmEmail(
  database: Database,
  clock: Clock,
  candidate: string,
  origin: RequestOrigin,
  publicOrigin: string,
): Promise<ConfirmResult> {
  return database.transaction(async (transaction): Promise<ConfirmResult> => {
    const now = clock.now();
    const verification = await spendAccountToken(transaction, candidate, 'verify_email', now);
    if (typeof verification !== 'string') {
      const [user] = await transaction
        .select()
        .from(users)
        .where(eq(users.id, verification.userId))
        .for('update');
      if (!user || verification.email !== user.email) {
        return { confirmed: false, reason: 'invalid_token' };
      }
      if (user.emailVerifiedAt === null) {
        await transaction
          .update(users)
          .set({ emailVerifiedAt: now, updatedAt: now })
          .where(eq(users.id, user.id));
        await recordSecurityEvent(transaction, {
          userId: user.id,
          kind: 'email_verified',
          origin,
          at: now,
        });
      }
      return { confirmed: true, changed: false, email: user.email };
    }

    const change = await spendAccountToken(transaction, candidate, 'change_email', now);
    if (typeof change === 'string') return { confirmed: false, reason: change };
    if (!change.email) return { confirmed: false, reason: 'invalid_token' };
    const [user] = await transaction
      .select()
      .from(users)
      .where(eq(users.id, change.userId))
      .for('update');
    if (!user) return { confirmed: false, reason: 'invalid_token' };
    const newEmail = change.email.toLowerCase();
    if (newEmail === user.email) {
      return { confirmed: true, changed: false, email: user.email };
    }
    const [owner] = await transaction
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, newEmail), ne(users.id, user.id)))
      .limit(1);
    if (owner) return { confirmed: false, reason: 'email_taken' };
    await transaction
      .update(users)
      .set({ email: newEmail, emailVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, user.id));
    // Links mailed to the old address prove nothing about the new one.
    await credentialsChanged(transaction, 'email_changed', { userId: user.id, now });
    await enqueueEmail(transaction, user.email, emailChangedEmail(publicOrigin), now);
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'email_changed',
      origin,
      at: now,
    });
    return { confirmed: true, changed: true, email: newEmail };
  });
}

interface EmailChangeInput extends CurrentPasswordInput {
  /** Already trimmed, lower-cased and checked as at sign-up. */
  email: string;
}

type EmailChangeResult =
  { requested: true } | { requested: false; reason: 'wrong_current_password' | 'same_email' };

/**
 * PATCH /users/email: asks to change the signed-in member's address, proved with the current
 * password, checked as a password change checks it (argon2 outside the transaction, counted by
 * the lockout, the lock emailing the unlock link and ending every session).
 *
 * A free address and one another account uses get the same answer, after the same floor, and leave
 * the same trace on this account (a live change token, so `pending_email` shows it, the old address
 * told, the event recorded): only the link differs, mailed to a free address, while the owner of a
 * used one is told someone tried it.
 */
export function requestEmailChange(
  database: Database,
  clock: Clock,
  user: User,
  input: EmailChangeInput,
): Promise<EmailChangeResult> {
  return withCurrentPassword(
    database,
    clock,
    user,
    input,
    async (transaction, { now, accept }): Promise<EmailChangeResult> => {
      if (!(await accept(user))) return { requested: false, reason: 'wrong_current_password' };
      if (input.email === user.email) return { requested: false, reason: 'same_email' };

      const token = await issueAccountToken(transaction, user.id, 'change_email', now, input.email);
      const [owner] = await transaction
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, input.email))
        .limit(1);
      if (owner) {
        await enqueueEmail(
          transaction,
          input.email,
          emailAddressInUseEmail(input.publicOrigin),
          now,
        );
      } else {
        await enqueueEmail(
          transaction,
          input.email,
          changeEmailEmail(confirmEmailLink(input.publicOrigin, token)),
          now,
        );
      }
      await enqueueEmail(
        transaction,
        user.email,
        emailChangeRequestedEmail(input.publicOrigin),
        now,
      );
      await recordSecurityEvent(transaction, {
        userId: user.id,
        kind: 'email_change_requested',
        origin: input.origin,
        at: now,
      });
      return { requested: true };
    },
  );
}
