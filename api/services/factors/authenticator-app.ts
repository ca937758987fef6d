import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { authenticatorAppAddedEmail } from '../messages/factor-emails.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { FactorSecrets } from './factor-secrets.ts';
import {
  type AcceptedCode,
  CODES_PAUSED,
  type CodeAttempt,
  type CodeRefusal,
  completeSecondStep,
  type CompletedStep,
  countSecondStepFailure,
  INVALID_CODE,
  type MfaRequestContext,
  type VerifyCodeResult,
} from './step.ts';
import { lockedUser } from '../member-factors.ts';
import { looksLikeOneTimeCode, normaliseOneTimeCodeInput } from './one-time-codes.ts';
import { strongFactorAdded } from './strong-factor-added.ts';
import { matchingTotpStep, newTotpSecret, totpSecretText, totpUri } from './totp.ts';

/**
 * An authenticator app as a second factor: set up with a secret the app reads from a QR code,
 * confirmed by its first code, then taken at sign-in in place of a texted code. The secret is kept
 * only sealed (factor-secrets.ts). Its removal shares the rules of the phone's (removeSecondFactor,
 * factor-removal.ts).
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

interface AppCodeInput {
  otp: string;
  publicOrigin: string;
  origin: RequestOrigin;
}

type ConfirmAppResult =
  | ({
      verified: true;
      /** A first set of recovery codes, made with the app; undefined when the member has some. */
      recoveryCodes: string[] | undefined;
    } & CompletedStep)
  | CodeRefusal
  | { verified: false; reason: 'no_setup' };

/**
 * POST /mfa/app/confirm: the app's first code makes its secret the member's app, recorded and
 * emailed, and marks this session past its MFA step (it has just proved the factor). A member
 * without an unused recovery code gets a set with it: an app lives on one phone, and a lost phone
 * must not lock the member out. A wrong code counts toward the account's cap on wrong codes, as at
 * sign-in.
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
    if (step === undefined) {
      return countSecondStepFailure(transaction, user, now, input.publicOrigin, input.origin);
    }

    const replacing = user.totpConfirmedAt !== null;
    await transaction
      .update(users)
      .set({
        totpSecret: user.pendingTotpSecret,
        totpConfirmedAt: now,
        pendingTotpSecret: null,
        totpLastStep: step,
        lastSecondFactor: 'app',
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    const recoveryCodes = await strongFactorAdded(transaction, {
      user,
      kind: 'authenticator_app_added',
      email: authenticatorAppAddedEmail(input.publicOrigin, replacing),
      origin: input.origin,
      now,
    });
    const completed = await completeSecondStep(transaction, context, now, input.origin);
    return { verified: true, recoveryCodes, ...completed };
  });
}

/**
 * POST /mfa/verify with `method: "app"`: a code of the member's app takes the MFA step (see
 * {@link acceptAppCode}), in one transaction with the session marked past it.
 */
export function verifyAppCode(
  database: Database,
  clock: Clock,
  factorSecrets: FactorSecrets,
  context: MfaRequestContext,
  input: AppCodeInput,
): Promise<VerifyCodeResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<VerifyCodeResult> => {
    const accepted = await acceptAppCode(transaction, factorSecrets, context.userId, {
      ...input,
      now,
    });
    if (!accepted.verified) return accepted;
    return {
      verified: true,
      ...(await completeSecondStep(transaction, context, now, input.origin)),
    };
  });
}

/**
 * Checks a code of the member's app in the caller's transaction, under the user's row lock, for
 * whatever the proof lets through: the MFA step, or linking the account to a company's sign-in. A
 * code is accepted once: its 30-second step is kept, and a code of that step or an earlier one is
 * refused. A wrong code counts toward the account's cap on wrong codes, and while codes are paused
 * the right one is refused too; a reply that is not a code at all costs no try. The caller writes
 * what the proof allows in the same transaction, so that a code is never spent for nothing.
 */
export async function acceptAppCode(
  transaction: Database,
  factorSecrets: FactorSecrets,
  userId: number,
  attempt: CodeAttempt,
): Promise<AcceptedCode> {
  const { now } = attempt;
  const code = normaliseOneTimeCodeInput(attempt.otp);
  const user = await lockedUser(transaction, userId);
  if (!user || user.totpSecret === null) return INVALID_CODE;
  if (user.mfaCodesPausedAt) return CODES_PAUSED;
  if (!looksLikeOneTimeCode(code)) return INVALID_CODE;
  const secret = factorSecrets.open(user.totpSecret, user.id);
  const step = matchingTotpStep(secret, code, now, user.totpLastStep);
  if (step === undefined) {
    return countSecondStepFailure(transaction, user, now, attempt.publicOrigin, attempt.origin);
  }
  await transaction
    .update(users)
    .set({ totpLastStep: step, lastSecondFactor: 'app', updatedAt: now })
    .where(eq(users.id, user.id));
  return { verified: true };
}
