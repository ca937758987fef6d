import { and, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companySignIns, type CompanySignIn } from '../../db/schema/index.ts';
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
  if (!looksLikeToken(token)) return undefined;
  const [row] = await database
    .select()
    .from(companySignIns)
    .where(
      and(
        eq(companySignIns.tokenHash, hashToken(token)),
        isNull(companySignIns.answeredAt),
        gt(companySignIns.expiresAt, now),
      ),
    );
  return row;
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

/** Keeps what the provider asserted while the member proves their password to link. */
export async function keepAssertion(
  database: Database,
  id: CompanySignIn['id'],
  asserted: { subject: string; email: string; twoStep: boolean },
): Promise<void> {
  await database
    .update(companySignIns)
    .set({
      assertedSubject: asserted.subject,
      assertedEmail: asserted.email,
      assertedTwoStep: asserted.twoStep,
    })
    .where(eq(companySignIns.id, id));
}

/** The answered sign-in of this token that waits for the member to link their account. */
export async function signInAwaitingLink(
  database: Database,
  token: string,
  now: Date,
): Promise<CompanySignIn | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const [row] = await database
    .select()
    .from(companySignIns)
    .where(
      and(
        eq(companySignIns.tokenHash, hashToken(token)),
        isNotNull(companySignIns.assertedSubject),
        isNull(companySignIns.finishedAt),
        gt(companySignIns.expiresAt, now),
      ),
    );
  return row;
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
