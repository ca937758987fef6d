import type { Database } from '../../db/client.ts';
import type { CompanySignIn } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
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
import { linkMethodsOf, type LinkMethod } from './link-methods.ts';
import type { OidcProviders } from './oidc.ts';
import { oidcRedirectUri, oidcSettings, samlSettings } from './connection-settings.ts';
import { samlSignInRequest } from './saml-protocol.ts';
import { CompanySignInRefusal } from './refusal.ts';
import {
  finishSignIn,
  keepAssertion,
  recordSignIn,
  signInAwaitingLink,
  takeForAnswer,
  unfinishedSignIn,
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
      /** An account with the asserted address exists: its owner must prove it to link it. */
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
  const now = services.clock.now();
  if (connection.protocol === 'saml') {
    const { redirectUrl, requestId } = await samlSignInRequest(
      samlSettings(connection, services.publicOrigin, found.companySlug),
      '',
    );
    const { token, expiresAt } = await recordSignIn(
      services.db,
      { ...noChecks, connectionId: connection.id, redirectUrl, samlRequestId: requestId },
      now,
    );
    return { token, expiresAt, redirectUrl, companyName };
  }
  const { redirectUrl, checks } = await services.oidc.start(
    oidcSettings(connection, services.connectionSecrets),
    oidcRedirectUri(services.publicOrigin),
    'email' in by ? by.email : undefined,
  );
  const { token, expiresAt } = await recordSignIn(
    services.db,
    {
      ...noChecks,
      connectionId: connection.id,
      redirectUrl,
      oidcState: checks.state,
      oidcNonce: checks.nonce,
      oidcCodeVerifier: checks.codeVerifier,
    },
    now,
  );
  return { token, expiresAt, redirectUrl, companyName };
}

const noChecks = { oidcState: null, oidcNonce: null, oidcCodeVerifier: null, samlRequestId: null };

/** Where a browser's company sign-in stands. */
export type CurrentSignIn =
  | { readonly state: 'waiting'; readonly redirectUrl: string; readonly companyName: string }
  | {
      readonly state: 'awaiting_link';
      readonly email: string;
      readonly companyName: string;
      /** The proofs besides the password that the account has to link it. */
      readonly linkMethods: LinkMethod[];
    };

/**
 * The sign-in of this token while the browser is on its way to the provider, or while its member
 * has yet to prove the account to link it; undefined once done or expired.
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
  if (!awaiting?.assertedEmail) return undefined;
  return {
    state: 'awaiting_link',
    email: awaiting.assertedEmail,
    companyName: found.companyName,
    linkMethods: await linkMethodsOf(services.db, awaiting.assertedEmail),
  };
}

/**
 * Finishes the browser's sign-in when it comes back to the portal: with the query string of the
 * OpenID Connect provider's redirect, whose code is exchanged and token checked now; or after a
 * SAML provider's answer, checked already at the assertion consumer, which could not know the
 * browser (docs/PRODUCT.md §15).
 */
export async function finishCompanySignIn(
  services: CompanySignInServices,
  input: { token: string; callbackQuery: string; origin: RequestOrigin },
): Promise<CompanySignInOutcome> {
  const now = services.clock.now();
  const pending = await unfinishedSignIn(services.db, input.token, now);
  if (!pending || pending.linkRequired) throw new CompanySignInRefusal('unknown_or_used');
  const found = await usableConnection(services, pending);
  if (found.connection.protocol === 'saml') {
    if (pending.answeredAt === null || pending.assertedSubject === null) {
      throw new CompanySignInRefusal('saml_not_answered');
    }
    return signInAsserted(services, pending, found, keptIdentity(pending), input.origin);
  }
  const signIn = await takeForAnswer(services.db, { token: input.token }, now);
  if (!signIn) throw new CompanySignInRefusal('unknown_or_used');
  const { oidcState, oidcNonce, oidcCodeVerifier } = signIn;
  if (oidcState === null || oidcNonce === null || oidcCodeVerifier === null) {
    throw new CompanySignInRefusal('not_oidc');
  }
  const asserted = await services.oidc.finish(
    oidcSettings(found.connection, services.connectionSecrets),
    oidcRedirectUri(services.publicOrigin),
    input.callbackQuery,
    { state: oidcState, nonce: oidcNonce, codeVerifier: oidcCodeVerifier },
  );
  return signInAsserted(services, signIn, found, asserted, input.origin);
}

/** The identity a SAML answer asserted, as kept on its sign-in. */
function keptIdentity(signIn: CompanySignIn): AssertedIdentity {
  return {
    subject: signIn.assertedSubject ?? '',
    email: signIn.assertedEmail ?? undefined,
    // A SAML provider vouches for the addresses it asserts; the domain is checked all the same.
    emailVerified: true,
    givenName: signIn.assertedGivenName ?? undefined,
    familyName: signIn.assertedFamilyName ?? undefined,
    twoStepValues: [],
  };
}

/** The connection a sign-in went out by, while it is on. */
export async function usableConnection(
  services: Pick<CompanySignInServices, 'db'>,
  signIn: CompanySignIn,
): Promise<ConnectionOfCompany> {
  const found = await connectionById(services.db, signIn.connectionId);
  if (!found?.connection.enabled) throw new CompanySignInRefusal('connection_disabled');
  return found;
}

/**
 * What the provider asserted, turned into a session: the member linked to the provider's subject;
 * else a new member when nobody has the address; else nothing yet, until the member with that
 * address proves the account is theirs (linking.ts): linking by address alone would hand it to
 * whoever controls the provider's record of it.
 */
async function signInAsserted(
  services: CompanySignInServices,
  signIn: CompanySignIn,
  { connection, companyName }: ConnectionOfCompany,
  asserted: AssertedIdentity,
  origin: RequestOrigin,
): Promise<CompanySignInOutcome> {
  const { db, clock } = services;
  const providerStep =
    providerTookTrustedStep(connection, asserted) || signIn.assertedTwoStep === true;
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
      ...asserted,
      email,
      twoStep: providerStep,
      linkRequired: true,
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
