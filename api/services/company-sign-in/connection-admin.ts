import { and, eq, inArray } from 'drizzle-orm';
import { domainToASCII } from 'node:url';
import type { Database } from '../../db/client.ts';
import {
  companies,
  companyConnections,
  companyDomains,
  companyIdentities,
  users,
  type CompanyConnection,
} from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { forgetRememberedDevices } from '../sign-in/remembered-devices.ts';
import { revokeAllSessions } from '../sign-in/sessions.ts';
import type { ConnectionSecrets } from './connections.ts';

/** An operator's mistake, said in one line. */
export class ConnectionAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionAdminError';
  }
}

/** A domain as stored: lower-case ASCII, without a trailing dot; refused when it is not one. */
export function normalizedDomain(domain: string): string {
  const ascii = domainToASCII(domain.trim().replace(/\.$/, ''));
  if (ascii === '' || !ascii.includes('.') || !/^[a-z0-9.-]+$/.test(ascii)) {
    throw new ConnectionAdminError(`"${domain}" is not an email domain such as example.com.`);
  }
  return ascii;
}

/** An issuer the portal may trust: https, or plain http on this machine (docs/decisions/009). */
export function checkedIssuer(issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConnectionAdminError(`"${issuer}" is not an address.`);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConnectionAdminError(`The issuer must be an https address, not "${issuer}".`);
  }
  return issuer.replace(/\/$/, '');
}

async function companyBySlug(database: Database, slug: string) {
  const [company] = await database.select().from(companies).where(eq(companies.slug, slug));
  if (!company) throw new ConnectionAdminError(`No company has the handle "${slug}".`);
  return company;
}

export interface OidcConnectionInput {
  companySlug: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: readonly string[];
}

/**
 * Gives a company its OpenID Connect provider, replacing the one it had, with the domains it
 * claims; the client secret is sealed before it is written. A domain another company claims is
 * refused, and nothing is written.
 */
export async function setOidcConnection(
  database: Database,
  clock: Clock,
  secrets: ConnectionSecrets,
  input: OidcConnectionInput,
): Promise<CompanyConnection> {
  const issuer = checkedIssuer(input.issuer);
  if (input.clientId.trim() === '') throw new ConnectionAdminError('The client id is empty.');
  if (input.clientSecret.trim() === '')
    throw new ConnectionAdminError('The client secret is empty.');
  const domains = input.domains.map(normalizedDomain);
  return writeConnection(database, clock, input.companySlug, domains, (companyId) => ({
    protocol: 'oidc',
    oidcIssuer: issuer,
    oidcClientId: input.clientId.trim(),
    oidcClientSecret: secrets.seal(input.clientSecret.trim(), companyId),
    samlIdpEntityId: null,
    samlSsoUrl: null,
    samlIdpCertificates: null,
  }));
}

type ProviderSettings = Pick<
  CompanyConnection,
  | 'protocol'
  | 'oidcIssuer'
  | 'oidcClientId'
  | 'oidcClientSecret'
  | 'samlIdpEntityId'
  | 'samlSsoUrl'
  | 'samlIdpCertificates'
> &
  Partial<Pick<CompanyConnection, 'samlRequireSignedResponse'>>;

/**
 * Writes a company's provider in place of the one it had, and the domains it claims, in one
 * transaction: a domain another company claims leaves nothing written.
 */
function writeConnection(
  database: Database,
  clock: Clock,
  companySlug: string,
  domains: readonly string[],
  settingsFor: (companyId: number) => ProviderSettings,
): Promise<CompanyConnection> {
  return database.transaction(async (transaction) => {
    const now = clock.now();
    const company = await companyBySlug(transaction, companySlug);
    const values = { ...settingsFor(company.id), updatedAt: now };
    const [connection] = await transaction
      .insert(companyConnections)
      .values({ ...values, companyId: company.id, createdAt: now })
      .onConflictDoUpdate({ target: companyConnections.companyId, set: values })
      .returning();
    if (!connection) throw new Error('Writing the connection returned no row.');
    await claimDomains(transaction, connection.id, domains, now);
    return connection;
  });
}

export interface SamlConnectionInput {
  companySlug: string;
  /** The provider's entity id: the Issuer of its responses and assertions. */
  idpEntityId: string;
  /** Its single sign-on address (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Its signing certificates (PEM); two while it rolls its key over. */
  certificates: readonly string[];
  /** Take responses whose assertion alone is signed (some providers sign nothing else). */
  assertionOnlySigning?: boolean | undefined;
  domains: readonly string[];
}

const PEM = /^-----BEGIN (CERTIFICATE|PUBLIC KEY)-----\r?\n[A-Za-z0-9+/=\r\n]+-----END \1-----\s*$/;

/**
 * Gives a company its SAML provider, replacing the one it had, with the domains it claims. The
 * company needs a sign-up handle: the portal's SAML addresses for it are made from it.
 */
export async function setSamlConnection(
  database: Database,
  clock: Clock,
  input: SamlConnectionInput,
): Promise<CompanyConnection> {
  if (input.idpEntityId.trim() === '') throw new ConnectionAdminError('The entity id is empty.');
  checkedSsoUrl(input.ssoUrl);
  if (input.certificates.length === 0) {
    throw new ConnectionAdminError('Give the provider’s signing certificate.');
  }
  for (const certificate of input.certificates) {
    if (!PEM.test(certificate.trim())) {
      throw new ConnectionAdminError('A certificate is not a PEM certificate or public key.');
    }
  }
  const domains = input.domains.map(normalizedDomain);
  return writeConnection(database, clock, input.companySlug, domains, () => ({
    protocol: 'saml',
    oidcIssuer: null,
    oidcClientId: null,
    oidcClientSecret: null,
    samlIdpEntityId: input.idpEntityId.trim(),
    samlSsoUrl: input.ssoUrl.trim(),
    samlIdpCertificates: input.certificates.map((certificate) => certificate.trim()),
    samlRequireSignedResponse: !(input.assertionOnlySigning ?? false),
  }));
}

/** A provider's sign-on address: https, or plain http on this machine (docs/decisions/009). */
function checkedSsoUrl(address: string): void {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ConnectionAdminError(`"${address}" is not an address.`);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConnectionAdminError(`The sign-on address must be https, not "${address}".`);
  }
}

async function claimDomains(
  transaction: Database,
  connectionId: number,
  domains: readonly string[],
  now: Date,
): Promise<void> {
  if (domains.length === 0) return;
  const taken = await transaction
    .select({ domain: companyDomains.domain, connectionId: companyDomains.connectionId })
    .from(companyDomains)
    .where(inArray(companyDomains.domain, [...domains]));
  const others = taken.filter((row) => row.connectionId !== connectionId);
  if (others.length > 0) {
    throw new ConnectionAdminError(
      `Another company already claims ${others.map((row) => row.domain).join(', ')}.`,
    );
  }
  await transaction
    .insert(companyDomains)
    .values(domains.map((domain) => ({ domain, connectionId, createdAt: now })))
    .onConflictDoNothing();
}

/** Adds domains to a company's connection. */
export async function addDomains(
  database: Database,
  clock: Clock,
  companySlug: string,
  domains: readonly string[],
): Promise<void> {
  const normalized = domains.map(normalizedDomain);
  await database.transaction(async (transaction) => {
    const connection = await connectionOfCompany(transaction, companySlug);
    await claimDomains(transaction, connection.id, normalized, clock.now());
  });
}

/** Removes domains from a company's connection. */
export async function removeDomains(
  database: Database,
  companySlug: string,
  domains: readonly string[],
): Promise<void> {
  const normalized = domains.map(normalizedDomain);
  const connection = await connectionOfCompany(database, companySlug);
  await database
    .delete(companyDomains)
    .where(
      and(
        eq(companyDomains.connectionId, connection.id),
        inArray(companyDomains.domain, normalized),
      ),
    );
}

async function connectionOfCompany(
  database: Database,
  companySlug: string,
): Promise<CompanyConnection> {
  const company = await companyBySlug(database, companySlug);
  const [connection] = await database
    .select()
    .from(companyConnections)
    .where(eq(companyConnections.companyId, company.id));
  if (!connection) {
    throw new ConnectionAdminError(`The company "${companySlug}" has no sign-in of its own yet.`);
  }
  return connection;
}

export interface CompanySignInPolicy {
  /** Refuse passwords for the claimed domains' addresses. */
  signInRequired?: boolean | undefined;
  /** The provider's proofs of a second step to trust; empty: always the portal's own step. */
  trustedTwoStepValues?: readonly string[] | undefined;
  enabled?: boolean | undefined;
}

/** Changes what a company's connection requires and trusts. */
export async function setPolicy(
  database: Database,
  clock: Clock,
  companySlug: string,
  policy: CompanySignInPolicy,
): Promise<CompanyConnection> {
  const connection = await connectionOfCompany(database, companySlug);
  const [changed] = await database
    .update(companyConnections)
    .set({
      ...(policy.signInRequired === undefined ? {} : { signInRequired: policy.signInRequired }),
      ...(policy.trustedTwoStepValues === undefined
        ? {}
        : { trustedTwoStepValues: [...policy.trustedTwoStepValues] }),
      ...(policy.enabled === undefined ? {} : { enabled: policy.enabled }),
      updatedAt: clock.now(),
    })
    .where(eq(companyConnections.id, connection.id))
    .returning();
  if (!changed) throw new Error('Updating the connection returned no row.');
  return changed;
}

/** What `list` shows of each connection: never its secret. */
export interface ConnectionSummary {
  companySlug: string | null;
  companyName: string;
  protocol: CompanyConnection['protocol'];
  enabled: boolean;
  signInRequired: boolean;
  trustedTwoStepValues: string[];
  issuerOrEntityId: string | null;
  domains: string[];
  members: number;
}

export async function listConnections(database: Database): Promise<ConnectionSummary[]> {
  const rows = await database
    .select({ connection: companyConnections, name: companies.name, slug: companies.slug })
    .from(companyConnections)
    .innerJoin(companies, eq(companies.id, companyConnections.companyId));
  const summaries: ConnectionSummary[] = [];
  for (const { connection, name, slug } of rows) {
    const domains = await database
      .select({ domain: companyDomains.domain })
      .from(companyDomains)
      .where(eq(companyDomains.connectionId, connection.id));
    const members = await database
      .select({ id: companyIdentities.id })
      .from(companyIdentities)
      .where(eq(companyIdentities.connectionId, connection.id));
    summaries.push({
      companySlug: slug,
      companyName: name,
      protocol: connection.protocol,
      enabled: connection.enabled,
      signInRequired: connection.signInRequired,
      trustedTwoStepValues: connection.trustedTwoStepValues,
      issuerOrEntityId: connection.oidcIssuer ?? connection.samlIdpEntityId,
      domains: domains.map((row) => row.domain),
      members: members.length,
    });
  }
  return summaries;
}

/**
 * Ends every session of a member and forgets their remembered devices, for someone who left the
 * company: their next sign-in goes through the company's provider, which no longer knows them.
 */
export async function endMemberSessions(
  database: Database,
  clock: Clock,
  email: string,
): Promise<void> {
  await database.transaction(async (transaction) => {
    const now = clock.now();
    const [user] = await transaction
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()));
    if (!user) throw new ConnectionAdminError(`No member has the address ${email}.`);
    await revokeAllSessions(transaction, user.id, now);
    await forgetRememberedDevices(transaction, user.id);
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'all_sessions_ended',
      origin: { network: null, userAgent: 'An operator of this portal' },
      at: now,
    });
  });
}
