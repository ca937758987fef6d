import type { Database } from '../../db/client.ts';
import type { CompanyConnection, CompanySignIn, User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { withCurrentPassword } from '../sign-in/current-password.ts';
import { hashPassword } from '../sign-in/passwords.ts';
import { generateToken } from '../tokens.ts';
import type { AssertedIdentity } from './asserted-identity.ts';
import {
  connectionById,
  connectionForCompanySlug,
  connectionForEmail,
  type ConnectionOfCompany,
  type ConnectionSecrets,
} from './connections.ts';
import {
  createCompanyMember,
  linkedMember,
  linkIdentity,
  memberByEmail,
  providerTookTrustedStep,
  startCompanySession,
  vouchedEmail,
  type CompanySession,
} from './identities.ts';
import type { OidcConnectionSettings, OidcProviders } from './oidc.ts';
import { CompanySignInRefusal } from './refusal.ts';
import {
  finishSignIn,
  keepAssertion,
  recordSignIn,
  signInAwaitingLink,
  takeForAnswer,
  waitingSignIn,
} from './sign-ins.ts';

/** What company sign-in works with, handed over by the app. */
export interface CompanySignInServices {
  readonly db: Database;
  readonly clock: Clock;
  readonly publicOrigin: string;
  readonly oidc: OidcProviders;
  readonly connectionSecrets: ConnectionSecrets;
}

/** Where a company's OpenID Connect provider sends the browser back: a page of the portal. */
export function oidcRedirectUri(publicOrigin: string): string {
  return `${publicOrigin}/sign-in/company/callback`;
}

/** A company sign-in that went out to the provider. */
export interface StartedSignIn {
  readonly token: string;
  readonly expiresAt: Date;
  readonly redirectUrl: string;
  readonly companyName: string;
}

/** How a provider's answer ended. */
export type CompanySignInOutcome =
  | ({ readonly kind: 'signed_in' } & CompanySession)
  | {
      /** An account with the asserted address exists: its password must be given to link it. */
      readonly kind: 'link_required';
      readonly email: string;
      readonly companyName: string;
    };

/**
 * Starts a sign-in with the company that claims the address's domain, or whose sign-up handle
 * is given. Undefined when there is no such company: the caller goes on as without one.
 */
export async function startCompanySignIn(
  services: CompanySignInServices,
  by: { email: string } | { companySlug: string },
): Promise<StartedSignIn | undefined> {
  const found =
    'email' in by
      ? await connectionForEmail(services.db, by.email)
      : await connectionForCompanySlug(services.db, by.companySlug);
  if (!found) return undefined;
  const { connection, companyName } = found;
  const loginHint = 'email' in by ? by.email : undefined;
  if (connection.protocol !== 'oidc') throw new CompanySignInRefusal('protocol_not_supported');
  const { redirectUrl, checks } = await services.oidc.start(
    oidcSettings(services, connection),
    oidcRedirectUri(services.publicOrigin),
    loginHint,
  );
  const { token, expiresAt } = await recordSignIn(
    services.db,
    {
      connectionId: connection.id,
      redirectUrl,
      oidcState: checks.state,
      oidcNonce: checks.nonce,
      oidcCodeVerifier: checks.codeVerifier,
      samlRequestId: null,
    },
    services.clock.now(),
  );
  return { token, expiresAt, redirectUrl, companyName };
}

/** Where a browser's company sign-in stands. */
export type CurrentSignIn =
  | { readonly state: 'waiting'; readonly redirectUrl: string; readonly companyName: string }
  | { readonly state: 'awaiting_link'; readonly email: string; readonly companyName: string };

/**
 * The sign-in of this token while the browser is on its way to the provider, or while its member
 * has yet to prove their password to link; undefined once done or expired.
 */
export async function currentCompanySignIn(
  services: CompanySignInServices,
  token: string,
): Promise<CurrentSignIn | undefined> {
  const now = services.clock.now();
  const waiting = await waitingSignIn(services.db, token, now);
  const awaiting = waiting ? undefined : await signInAwaitingLink(services.db, token, now);
  const signIn = waiting ?? awaiting;
  if (!signIn) return undefined;
  const found = await connectionById(services.db, signIn.connectionId);
  if (!found) return undefined;
  if (waiting) {
    return { state: 'waiting', redirectUrl: waiting.redirectUrl, companyName: found.companyName };
  }
  return awaiting?.assertedEmail
    ? { state: 'awaiting_link', email: awaiting.assertedEmail, companyName: found.companyName }
    : undefined;
}

/** Finishes a sign-in with the query string the OpenID Connect provider sent the browser back with. */
export async function finishOidcSignIn(
  services: CompanySignInServices,
  input: { token: string; callbackQuery: string; origin: RequestOrigin },
): Promise<CompanySignInOutcome> {
  const signIn = await takeForAnswer(services.db, { token: input.token }, services.clock.now());
  if (!signIn) throw new CompanySignInRefusal('unknown_or_used');
  const found = await usableConnection(services, signIn, 'oidc');
  const { oidcState, oidcNonce, oidcCodeVerifier } = signIn;
  if (oidcState === null || oidcNonce === null || oidcCodeVerifier === null) {
    throw new CompanySignInRefusal('not_oidc');
  }
  const asserted = await services.oidc.finish(
    oidcSettings(services, found.connection),
    oidcRedirectUri(services.publicOrigin),
    input.callbackQuery,
    { state: oidcState, nonce: oidcNonce, codeVerifier: oidcCodeVerifier },
  );
  return signInAsserted(services, signIn, found, asserted, input.origin);
}

async function usableConnection(
  services: CompanySignInServices,
  signIn: CompanySignIn,
  protocol: CompanyConnection['protocol'],
): Promise<ConnectionOfCompany> {
  const found = await connectionById(services.db, signIn.connectionId);
  if (!found?.connection.enabled) throw new CompanySignInRefusal('connection_disabled');
  if (found.connection.protocol !== protocol) throw new CompanySignInRefusal('wrong_protocol');
  return found;
}

/**
 * What the provider asserted, turned into a session: the member linked to the provider's subject;
 * else a new member when nobody has the address; else nothing yet, until the member with that
 * address proves their password (linking by address alone would hand their account to whoever
 * controls the provider's record of it).
 */
async function signInAsserted(
  services: CompanySignInServices,
  signIn: CompanySignIn,
  { connection, companyName }: ConnectionOfCompany,
  asserted: AssertedIdentity,
  origin: RequestOrigin,
): Promise<CompanySignInOutcome> {
  const { db, clock } = services;
  const providerStep = providerTookTrustedStep(connection, asserted);
  const linked = await linkedMember(db, connection.id, asserted.subject);
  if (linked) {
    return db.transaction(async (transaction) => {
      const now = clock.now();
      if (!(await finishSignIn(transaction, signIn.id, now))) {
        throw new CompanySignInRefusal('unknown_or_used');
      }
      const session = await startCompanySession(
        transaction,
        linked,
        connection,
        asserted.subject,
        providerStep,
        origin,
        now,
      );
      return { kind: 'signed_in', user: linked, created: false, ...session };
    });
  }
  const email = await vouchedEmail(db, connection.id, asserted);
  if (await memberByEmail(db, email)) {
    await keepAssertion(db, signIn.id, {
      subject: asserted.subject,
      email,
      twoStep: providerStep,
    });
    return { kind: 'link_required', email, companyName };
  }
  // Nobody can sign in with it: the member signs in through the company, or resets it.
  const unusablePasswordHash = await hashPassword(generateToken());
  return db.transaction(async (transaction): Promise<CompanySignInOutcome> => {
    const now = clock.now();
    if (!(await finishSignIn(transaction, signIn.id, now))) {
      throw new CompanySignInRefusal('unknown_or_used');
    }
    const user = await createCompanyMember(
      transaction,
      connection,
      { ...asserted, email },
      unusablePasswordHash,
      now,
    );
    // Someone signed up with the address a moment ago: they must prove it is theirs to link.
    if (!user) throw new CompanySignInRefusal('email_taken_meanwhile');
    await linkIdentity(transaction, user.id, connection, asserted.subject, now);
    const session = await startCompanySession(
      transaction,
      user,
      connection,
      asserted.subject,
      providerStep,
      origin,
      now,
    );
    return { kind: 'signed_in', user, created: true, ...session };
  });
}

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
  const signIn = await signInAwaitingLink(db, input.token, clock.now());
  if (!signIn?.assertedEmail || signIn.assertedSubject === null) {
    throw new CompanySignInRefusal('unknown_or_used');
  }
  const { connection } = await usableConnection(services, signIn, 'oidc');
  const user = await memberByEmail(db, signIn.assertedEmail);
  if (!user) throw new CompanySignInRefusal('member_gone');
  const subject = signIn.assertedSubject;
  return withCurrentPassword(
    db,
    clock,
    user,
    { currentPassword: input.password, publicOrigin, origin: input.origin },
    async (transaction, { now, accept }): Promise<LinkOutcome> => {
      if (!(await accept(user))) return { kind: 'wrong_password' };
      if (!(await finishSignIn(transaction, signIn.id, now))) {
        throw new CompanySignInRefusal('unknown_or_used');
      }
      await linkIdentity(transaction, user.id, connection, subject, now);
      await recordSecurityEvent(transaction, {
        userId: user.id,
        kind: 'company_sign_in_linked',
        origin: input.origin,
        at: now,
      });
      const linkedUser: User = { ...user, companyId: connection.companyId };
      const session = await startCompanySession(
        transaction,
        linkedUser,
        connection,
        subject,
        signIn.assertedTwoStep === true,
        input.origin,
        now,
      );
      return { kind: 'signed_in', user: linkedUser, created: false, ...session };
    },
  );
}

function oidcSettings(
  services: CompanySignInServices,
  connection: CompanyConnection,
): OidcConnectionSettings {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = connection;
  if (oidcIssuer === null || oidcClientId === null || oidcClientSecret === null) {
    throw new CompanySignInRefusal('connection_incomplete');
  }
  return {
    connectionId: connection.id,
    updatedAt: connection.updatedAt,
    issuer: oidcIssuer,
    clientId: oidcClientId,
    clientSecret: services.connectionSecrets.open(oidcClientSecret, connection.companyId),
  };
}
