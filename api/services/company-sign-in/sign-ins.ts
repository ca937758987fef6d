import { and, eq, gt, isNull, lte, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companySignIns, usedSamlAssertions, type CompanySignIn } from '../../db/schema/index.ts';
import { MINUTE } from '../../../platform/clock.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';

/** How long a browser has to come back from its company's provider. */
export const COMPANY_SIGN_IN_LIFETIME_MS = 10 * MINUTE;

/** What a new sign-in's row holds besides its token. */
export type NewSignIn = Pick<
  CompanySignIn,
  'connectionId' | 'redirectUrl' | 'oidcState' | 'oidcNonce' | 'oidcCodeVerifier' | 'samlRequestId'
>;

/**
 * Writes a sign-in sent to a provider; resolves to the token the browser keeps for it. Rows past
 * their time go in the same breath, so the table holds only sign-ins under way.
 */
export async function recordSignIn(
  database: Database,
  signIn: NewSignIn,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  const expiresAt = new Date(now.getTime() + COMPANY_SIGN_IN_LIFETIME_MS);
  await database.transaction(async (transaction) => {
    await transaction.delete(companySignIns).where(lte(companySignIns.expiresAt, now));
    await transaction
      .insert(companySignIns)
      .values({ ...signIn, tokenHash: hashToken(token), createdAt: now, expiresAt });
  });
  return { token, expiresAt };
}

/** The sign-in of this token while it waits for the provider's answer. */
export async function waitingSignIn(
  database: Database,
  token: string,
  now: Date,
): Promise<CompanySignIn | undefined> {
  return signInOfToken(database, token, now, isNull(companySignIns.answeredAt));
}

/**
 * Takes the sign-in of this token for the provider's answer: once only, so of two answers (a
 * replayed callback, two tabs) exactly one goes on, whatever the first one's fate.
 */
export async function takeForAnswer(
  database: Database,
  where: { token: string } | { samlRequestId: string },
  now: Date,
): Promise<CompanySignIn | undefined> {
  if ('token' in where && !looksLikeToken(where.token)) return undefined;
  const [row] = await database
    .update(companySignIns)
    .set({ answeredAt: now })
    .where(
      and(
        'token' in where
          ? eq(companySignIns.tokenHash, hashToken(where.token))
          : eq(companySignIns.samlRequestId, where.samlRequestId),
        isNull(companySignIns.answeredAt),
        gt(companySignIns.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** What the provider asserted, kept on the sign-in for the browser's next step. */
export interface KeptAssertion {
  readonly subject: string;
  readonly email: string | undefined;
  readonly givenName: string | undefined;
  readonly familyName: string | undefined;
  /** The provider took a second step the company trusts. */
  readonly twoStep: boolean;
  /** The address has an account, whose password links it. */
  readonly linkRequired: boolean;
}

export async function keepAssertion(
  database: Database,
  id: CompanySignIn['id'],
  asserted: KeptAssertion,
): Promise<void> {
  await database
    .update(companySignIns)
    .set({
      assertedSubject: asserted.subject,
      assertedEmail: asserted.email ?? null,
      assertedGivenName: asserted.givenName ?? null,
      assertedFamilyName: asserted.familyName ?? null,
      assertedTwoStep: asserted.twoStep,
      linkRequired: asserted.linkRequired,
    })
    .where(eq(companySignIns.id, id));
}

/** The unfinished sign-in of this token, answered or not. */
export async function unfinishedSignIn(
  database: Database,
  token: string,
  now: Date,
): Promise<CompanySignIn | undefined> {
  return signInOfToken(database, token, now, isNull(companySignIns.finishedAt));
}

/** The sign-in that sent this SAML request and has had no answer yet. */
export async function signInOfSamlRequest(
  database: Database,
  requestId: string,
  now: Date,
): Promise<CompanySignIn | undefined> {
  const [row] = await database
    .select()
    .from(companySignIns)
    .where(
      and(
        eq(companySignIns.samlRequestId, requestId),
        isNull(companySignIns.answeredAt),
        gt(companySignIns.expiresAt, now),
      ),
    );
  return row;
}

/**
 * Writes down a SAML assertion as used, until it expires: false when it was used already (a
 * replayed response, even for another sign-in). Expired ones go in the same breath.
 */
export async function spendSamlAssertion(
  database: Database,
  connectionId: number,
  assertionId: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await database.delete(usedSamlAssertions).where(lte(usedSamlAssertions.expiresAt, now));
  const spent = await database
    .insert(usedSamlAssertions)
    .values({ connectionId, assertionId, expiresAt })
    .onConflictDoNothing()
    .returning({ assertionId: usedSamlAssertions.assertionId });
  return spent.length === 1;
}

/** The answered sign-in of this token that waits for the member to link their account. */
export async function signInAwaitingLink(
  database: Database,
  token: string,
  now: Date,
): Promise<CompanySignIn | undefined> {
  return signInOfToken(
    database,
    token,
    now,
    and(eq(companySignIns.linkRequired, true), isNull(companySignIns.finishedAt)),
  );
}

/** Marks the sign-in done, once: false when another request finished it first. */
export async function finishSignIn(
  transaction: Database,
  id: CompanySignIn['id'],
  now: Date,
): Promise<boolean> {
  const finished = await transaction
    .update(companySignIns)
    .set({ finishedAt: now })
    .where(and(eq(companySignIns.id, id), isNull(companySignIns.finishedAt)))
    .returning({ id: companySignIns.id });
  return finished.length === 1;
}

/** The sign-in of this browser's token, unexpired, in the state `condition` says. */
async function signInOfToken(
  database: Database,
  token: string,
  now: Date,
  condition: SQL | undefined,
): Promise<CompanySignIn | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const [row] = await database
    .select()
    .from(companySignIns)
    .where(
      and(
        eq(companySignIns.tokenHash, hashToken(token)),
        condition,
        gt(companySignIns.expiresAt, now),
      ),
    );
  return row;
}
