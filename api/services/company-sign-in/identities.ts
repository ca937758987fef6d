import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  companyDomains,
  companyIdentities,
  users,
  type CompanyConnection,
  type User,
} from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import {
  createSession,
  deleteEndedSessions,
  markSessionVerified,
  type IssuedSession,
} from '../sign-in/sessions.ts';
import type { AssertedIdentity } from './asserted-identity.ts';
import { emailDomain } from './connections.ts';
import { CompanySignInRefusal } from './refusal.ts';

/** A session a company's provider started. */
export interface CompanySession {
  readonly user: User;
  readonly issued: IssuedSession;
  /** Set when the company trusts the provider's second step and the provider took one. */
  readonly mfaToken: string | undefined;
  /** True when this sign-in created the member. */
  readonly created: boolean;
}

/** Whether the provider's proof of how the person signed in is one the company trusts. */
export function providerTookTrustedStep(
  connection: Pick<CompanyConnection, 'trustedTwoStepValues'>,
  asserted: Pick<AssertedIdentity, 'twoStepValues'>,
): boolean {
  return asserted.twoStepValues.some((value) => connection.trustedTwoStepValues.includes(value));
}

/** The member linked to the provider's subject, if any. */
export async function linkedMember(
  database: Database,
  connectionId: number,
  subject: string,
): Promise<User | undefined> {
  const [found] = await database
    .select({ user: users })
    .from(companyIdentities)
    .innerJoin(users, eq(users.id, companyIdentities.userId))
    .where(
      and(eq(companyIdentities.connectionId, connectionId), eq(companyIdentities.subject, subject)),
    );
  return found?.user;
}

/**
 * The address the provider vouches for, when it may name a member here: verified by the provider
 * and in a domain this connection claims. Another company's provider cannot sign anyone in by
 * asserting an address it does not own.
 */
export async function vouchedEmail(
  database: Database,
  connectionId: number,
  asserted: AssertedIdentity,
): Promise<string> {
  if (asserted.email === undefined) throw new CompanySignInRefusal('no_email');
  if (!asserted.emailVerified) throw new CompanySignInRefusal('email_unverified');
  const domain = emailDomain(asserted.email);
  const [claimed] =
    domain === undefined
      ? []
      : await database
          .select({ domain: companyDomains.domain })
          .from(companyDomains)
          .where(
            and(eq(companyDomains.domain, domain), eq(companyDomains.connectionId, connectionId)),
          );
  if (!claimed) throw new CompanySignInRefusal('email_domain_not_claimed');
  return asserted.email;
}

/** The member with this address, if any. */
export async function memberByEmail(database: Database, email: string): Promise<User | undefined> {
  const [user] = await database.select().from(users).where(eq(users.email, email));
  return user;
}

/** Creates the member a first company sign-in names: in the company, the address proven. */
export async function createCompanyMember(
  transaction: Database,
  connection: CompanyConnection,
  asserted: AssertedIdentity & { email: string },
  unusablePasswordHash: string,
  now: Date,
): Promise<User | undefined> {
  const [user] = await transaction
    .insert(users)
    .values({
      email: asserted.email,
      passwordHash: unusablePasswordHash,
      name: asserted.givenName ?? asserted.email.slice(0, asserted.email.indexOf('@')),
      lastName: asserted.familyName ?? '',
      companyId: connection.companyId,
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return user;
}

/** Writes the link between a member and the provider's subject. */
export async function linkIdentity(
  transaction: Database,
  userId: number,
  connection: CompanyConnection,
  subject: string,
  now: Date,
): Promise<void> {
  await transaction
    .insert(companyIdentities)
    .values({
      userId,
      connectionId: connection.id,
      subject,
      createdAt: now,
      lastUsedAt: now,
    })
    .onConflictDoUpdate({
      target: [companyIdentities.userId, companyIdentities.connectionId],
      set: { subject, lastUsedAt: now },
    });
  await transaction
    .update(users)
    .set({ companyId: connection.companyId, updatedAt: now })
    .where(eq(users.id, userId));
}

/**
 * Starts the session of a company sign-in, with its `company_sign_in` event, past its step when
 * the company trusts the step the provider took.
 */
export async function startCompanySession(
  transaction: Database,
  user: User,
  connection: CompanyConnection,
  subject: string,
  providerStep: boolean,
  origin: RequestOrigin,
  now: Date,
): Promise<{ issued: IssuedSession; mfaToken: string | undefined }> {
  await transaction
    .update(companyIdentities)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(companyIdentities.connectionId, connection.id),
        eq(companyIdentities.subject, subject),
      ),
    );
  await deleteEndedSessions(transaction, user.id, now);
  const issued = await createSession(transaction, user.id, now, origin);
  await recordSecurityEvent(transaction, {
    userId: user.id,
    kind: 'company_sign_in',
    origin,
    at: now,
  });
  const mfaToken = providerStep
    ? await markSessionVerified(transaction, { sessionId: issued.session.id }, now)
    : undefined;
  return { issued, mfaToken };
}
