import type { Database } from '../../db/client.ts';
import type { CompanyConnection, CompanySignIn, User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { acceptAppCode } from '../factors/authenticator-app.ts';
import type { FactorSecrets } from '../factors/factor-secrets.ts';
import { acceptRecoveryCode } from '../factors/recovery-codes.ts';
import type { CodeRefusal } from '../factors/step.ts';
import { withCurrentPassword } from '../sign-in/current-password.ts';
import { isLocked } from '../sign-in/lockout.ts';
import { usableConnection, type CompanySignInServices } from './company-sign-in.ts';
import {
  linkIdentity,
  memberByEmail,
  startCompanySession,
  type CompanySession,
} from './identities.ts';
import type { LinkMethod } from './link-methods.ts';
import { CompanySignInRefusal } from './refusal.ts';
import { finishSignIn, signInAwaitingLink } from './sign-ins.ts';

/**
 * Linking an existing account to a company's sign-in: the provider asserted an address that has
 * an account here, whose owner proves it is theirs before the link is written (docs/PRODUCT.md
 * §15), with its password, a code of its authenticator app or one of its recovery codes.
 */

/** The result of linking: a session, or the password refused (counted by the lockout). */
export type LinkOutcome =
  ({ readonly kind: 'signed_in' } & CompanySession) | { readonly kind: 'wrong_password' };

/**
 * Links the account with the address the provider asserted to the provider's subject, once its
 * current password is given (counted as a sign-in attempt, so a guesser is locked out as at the
 * sign-in form), and starts the session.
 */
export async function linkWithPassword(
  services: CompanySignInServices,
  input: { token: string; password: string; origin: RequestOrigin },
): Promise<LinkOutcome> {
  const { db, clock, publicOrigin } = services;
  const { signIn, connection, user, subject } = await awaitingLink(services, input.token);
  return withCurrentPassword(
    db,
    clock,
    user,
    { currentPassword: input.password, publicOrigin, origin: input.origin },
    async (transaction, { now, accept }): Promise<LinkOutcome> => {
      if (!(await accept(user))) return { kind: 'wrong_password' };
      const session = await writeLink(transaction, {
        signIn,
        connection,
        user,
        subject,
        providerStep: signIn.assertedTwoStep === true,
        origin: input.origin,
        now,
      });
      return { kind: 'signed_in', ...session };
    },
  );
}

/** The result of linking by a code: a session, the code refused as at the MFA step, or a lock. */
export type CodeLinkOutcome =
  | ({
      readonly kind: 'signed_in';
      readonly recoveryCodesLeft: number | undefined;
    } & CompanySession)
  | ({ readonly kind: 'code_refused' } & CodeRefusal)
  | { readonly kind: 'account_locked' };

/**
 * Links the account as {@link linkWithPassword} does, proven instead by a code of its
 * authenticator app or one of its recovery codes, checked exactly as at the MFA step (a code used
 * once, wrong codes counted toward the account's cap, refused while codes are paused). The code
 * is spent, the link written and the session started in one transaction. The session is past the
 * portal's own step: the member has just proven a factor.
 */
export async function linkWithCode(
  services: CompanySignInServices,
  factorSecrets: FactorSecrets,
  awaiting: AwaitingLink,
  input: { method: LinkMethod; otp: string; origin: RequestOrigin },
): Promise<CodeLinkOutcome> {
  const { db, clock, publicOrigin } = services;
  const { signIn, connection, user, subject } = awaiting;
  const now = clock.now();
  // Locked by wrong passwords, the account stays shut to every sign-in, as to a passkey's, until
  // the lock lifts or its owner follows the unlock link; no code is spent or counted meanwhile.
  if (isLocked(user, now)) return { kind: 'account_locked' };
  const attempt = { otp: input.otp, now, publicOrigin, origin: input.origin };
  return db.transaction(async (transaction): Promise<CodeLinkOutcome> => {
    const accepted: { verified: true; recoveryCodesLeft?: number } | CodeRefusal =
      input.method === 'app'
        ? await acceptAppCode(transaction, factorSecrets, user.id, attempt)
        : await acceptRecoveryCode(transaction, user.id, attempt);
    // A refusal is kept: the wrong code's count and a pause must outlive this answer.
    if (!accepted.verified) return { kind: 'code_refused', ...accepted };
    const session = await writeLink(transaction, {
      signIn,
      connection,
      user,
      subject,
      providerStep: true,
      origin: input.origin,
      now,
    });
    return { kind: 'signed_in', recoveryCodesLeft: accepted.recoveryCodesLeft, ...session };
  });
}

/** A sign-in waiting for its member to prove the account, with what linking it needs. */
export interface AwaitingLink {
  readonly signIn: CompanySignIn;
  readonly connection: CompanyConnection;
  readonly user: User;
  readonly subject: string;
}

/**
 * The sign-in of this browser's token that waits for a link, or the refusal of it. The caller
 * learns whose account it is, to count the tries at it before any code is checked.
 */
export async function awaitingLink(
  services: CompanySignInServices,
  token: string,
): Promise<AwaitingLink> {
  const signIn = await signInAwaitingLink(services.db, token, services.clock.now());
  if (!signIn?.assertedEmail || signIn.assertedSubject === null) {
    throw new CompanySignInRefusal('unknown_or_used');
  }
  const { connection } = await usableConnection(services, signIn);
  const user = await memberByEmail(services.db, signIn.assertedEmail);
  if (!user) throw new CompanySignInRefusal('member_gone');
  return { signIn, connection, user, subject: signIn.assertedSubject };
}

/**
 * Writes the link once the account is proven, in the proof's transaction: the sign-in finished
 * (a refusal rolls the proof back when another request finished it first), the identity linked,
 * `company_sign_in_linked` recorded, the session started.
 */
async function writeLink(
  transaction: Database,
  link: AwaitingLink & { providerStep: boolean; origin: RequestOrigin; now: Date },
): Promise<CompanySession> {
  const { signIn, connection, user, subject, origin, now } = link;
  if (!(await finishSignIn(transaction, signIn.id, now))) {
    throw new CompanySignInRefusal('unknown_or_used');
  }
  await linkIdentity(transaction, user.id, connection, subject, now);
  await recordSecurityEvent(transaction, {
    userId: user.id,
    kind: 'company_sign_in_linked',
    origin,
    at: now,
  });
  const linkedUser: User = { ...user, companyId: connection.companyId };
  const session = await startCompanySession(
    transaction,
    linkedUser,
    connection,
    subject,
    link.providerStep,
    origin,
    now,
  );
  return { user: linkedUser, created: false, ...session };
}
