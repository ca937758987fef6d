import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { secondStepFailures, users, type User } from '../db/schema.ts';
import type { RequestOrigin } from '../http/client-address.ts';
import { authenticatorAppAddedEmail, authenticatorAppRemovedEmail } from './account-emails.ts';
import { SIGN_IN_MINIMUM_DURATION_MS } from './authentication.ts';
import type { Clock } from './clock.ts';
import { acceptCurrentPassword } from './current-password.ts';
import type { FactorSecrets } from './factor-secrets.ts';
import {
  CODES_PAUSED,
  countAccountWrongCode,
  INVALID_CODE,
  markSessionVerified,
  type MfaRequestContext,
  type VerifyCodeResult,
} from './mfa.ts';
import {
  looksLikeOneTimeCode,
  normaliseOneTimeCodeInput,
  ONE_TIME_CODE_FAILURES_WINDOW_MS,
} from './one-time-codes.ts';
import { enqueueEmail } from './outbox.ts';
import { verifyPassword } from './passwords.ts';
import { recordSecurityEvent } from './security-events.ts';
import { withMinimumDuration } from './timing.ts';
import { matchingTotpStep, newTotpSecret, totpSecretText, totpUri } from './totp.ts';

/**
 * An authenticator app as a second factor (docs/PRODUCT.md §11.2): set up with a secret the app
 * reads from a QR code, confirmed by its first code, then taken at sign-in in place of a texted
 * code. The secret is kept only sealed (factor-secrets.ts).
 */

/** What the member's app needs: the secret to type, and the address its QR code carries. */
export interface AppSetup {
  secret: string;
  uri: string;
}

/**
 * POST /mfa/app: a new secret for the member's app, kept as the one being set up until a code
 * from it confirms it (a secret set up earlier and never confirmed is replaced). An app already
 * confirmed keeps working until the new one is confirmed.
 */
export async function startAppSetup(
  database: Database,
  clock: Clock,
  factorSecrets: FactorSecrets,
  user: Pick<User, 'id' | 'email'>,
): Promise<AppSetup> {
  const secret = newTotpSecret();
  await database
    .update(users)
    .set({ pendingTotpSecret: factorSecrets.seal(secret, user.id), updatedAt: clock.now() })
    .where(eq(users.id, user.id));
  return { secret: totpSecretText(secret), uri: totpUri(secret, user.email) };
}

export interface AppCodeInput {
  otp: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

export type ConfirmAppResult = VerifyCodeResult | { verified: false; reason: 'no_setup' };

/**
 * POST /mfa/app/confirm: the app's first code makes its secret the member's app, recorded and
 * emailed, and marks this session past its MFA step (it has just proved the factor). A wrong code
 * counts toward the account's cap on wrong codes, as at sign-in.
 */
export function confirmApp(
  database: Database,
  clock: Clock,
  factorSecrets: FactorSecrets,
  context: MfaRequestContext,
  input: AppCodeInput,
): Promise<ConfirmAppResult> {
  const now = clock.now();
  const code = normaliseOneTimeCodeInput(input.otp);
  return database.transaction(async (transaction): Promise<ConfirmAppResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user) return INVALID_CODE;
    if (user.mfaCodesPausedAt) return CODES_PAUSED;
    if (user.pendingTotpSecret === null) return { verified: false, reason: 'no_setup' };
    // Not a code at all (a typo such as five digits): refused without counting a try.
    if (!looksLikeOneTimeCode(code)) return INVALID_CODE;
    const secret = factorSecrets.open(user.pendingTotpSecret, user.id);
    const step = matchingTotpStep(secret, code, now, null);
    if (step === undefined) return countAppFailure(transaction, user, now, input);

    const replacing = user.totpConfirmedAt !== null;
    await transaction
      .update(users)
      .set({
        totpSecret: user.pendingTotpSecret,
        totpConfirmedAt: now,
        pendingTotpSecret: null,
        totpLastStep: step,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'authenticator_app_added',
      origin: input.origin,
      at: now,
    });
    await enqueueEmail(
      transaction,
      user.email,
      authenticatorAppAddedEmail(input.publicOrigin, replacing),
      now,
    );
    return { verified: true, mfaToken: await markSessionVerified(transaction, context, now) };
  });
}

/**
 * POST /mfa/verify with `method: "app"`: a code of the member's app takes the MFA step. A code is
 * accepted once: its 30-second step is kept, and a code of that step or an earlier one is refused.
 */
export function verifyAppCode(
  database: Database,
  clock: Clock,
  factorSecrets: FactorSecrets,
  context: MfaRequestContext,
  input: AppCodeInput,
): Promise<VerifyCodeResult> {
  const now = clock.now();
  const code = normaliseOneTimeCodeInput(input.otp);
  return database.transaction(async (transaction): Promise<VerifyCodeResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user || user.totpSecret === null) return INVALID_CODE;
    if (user.mfaCodesPausedAt) return CODES_PAUSED;
    if (!looksLikeOneTimeCode(code)) return INVALID_CODE;
    const secret = factorSecrets.open(user.totpSecret, user.id);
    const step = matchingTotpStep(secret, code, now, user.totpLastStep);
    if (step === undefined) return countAppFailure(transaction, user, now, input);
    await transaction
      .update(users)
      .set({ totpLastStep: step, updatedAt: now })
      .where(eq(users.id, user.id));
    return { verified: true, mfaToken: await markSessionVerified(transaction, context, now) };
  });
}

export type RemoveAppResult =
  | { removed: true }
  | {
      removed: false;
      reason: 'wrong_current_password' | 'no_app' | 'last_factor_required';
    };

/**
 * DELETE /mfa/app: removes the member's app and any setup in progress, proved with the current
 * password (counted by the lockout). Refused where the company requires two-step verification
 * and the app is the member's only factor. Elsewhere, removing the only factor turns two-step
 * verification off as `DELETE /mfa` does: the offer then waits 30 days.
 */
export function removeApp(
  database: Database,
  clock: Clock,
  user: User,
  input: {
    currentPassword: string;
    companyRequiresMfa: boolean;
    publicOrigin: string;
    origin: RequestOrigin;
  },
): Promise<RemoveAppResult> {
  return withMinimumDuration(SIGN_IN_MINIMUM_DURATION_MS, async () => {
    const matches = await verifyPassword(input.currentPassword, user.passwordHash);
    return database.transaction(async (transaction): Promise<RemoveAppResult> => {
      const now = clock.now();
      const current = await lockedUser(transaction, user.id);
      if (!current || current.totpConfirmedAt === null) return { removed: false, reason: 'no_app' };
      if (input.companyRequiresMfa && current.mfaPhone === null) {
        return { removed: false, reason: 'last_factor_required' };
      }
      const accepted = await acceptCurrentPassword(transaction, current, {
        matches,
        now,
        origin: input.origin,
        publicOrigin: input.publicOrigin,
      });
      if (!accepted) return { removed: false, reason: 'wrong_current_password' };
      await transaction
        .update(users)
        .set({
          totpSecret: null,
          totpConfirmedAt: null,
          pendingTotpSecret: null,
          totpLastStep: null,
          ...(current.mfaPhone === null ? { mfaDeclinedAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(users.id, current.id));
      await recordSecurityEvent(transaction, {
        userId: current.id,
        kind: 'authenticator_app_removed',
        origin: input.origin,
        at: now,
      });
      await enqueueEmail(
        transaction,
        current.email,
        authenticatorAppRemovedEmail(input.publicOrigin),
        now,
      );
      return { removed: true };
    });
  });
}

async function lockedUser(transaction: Database, userId: number): Promise<User | undefined> {
  const [user] = await transaction.select().from(users).where(eq(users.id, userId)).for('update');
  return user;
}

/** A wrong app code: written down, then counted against the account with the texted ones. */
async function countAppFailure(
  transaction: Database,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
  input: AppCodeInput,
): Promise<VerifyCodeResult> {
  // Failures older than the count's window no longer matter: they go, as old texted codes do.
  await transaction
    .delete(secondStepFailures)
    .where(
      and(
        eq(secondStepFailures.userId, user.id),
        lte(
          secondStepFailures.failedAt,
          new Date(now.getTime() - ONE_TIME_CODE_FAILURES_WINDOW_MS),
        ),
      ),
    );
  await transaction.insert(secondStepFailures).values({ userId: user.id, failedAt: now });
  return countAccountWrongCode(transaction, user, now, input.publicOrigin, input.origin);
}
