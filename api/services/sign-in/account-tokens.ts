import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  accountTokens,
  users,
  type AccountToken,
  type AccountTokenPurpose,
  type User,
} from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { HOUR } from '../../../platform/clock.ts';
import { withMinimumDuration } from './timing.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';

/** A password-reset link works for 2 hours. */
export const RESET_TOKEN_LIFETIME_MS = 2 * HOUR;
/**
 * An unlock link works for 24 hours: long enough to be read the next morning. The lock itself
 * lifts after an hour, after which the link only clears the failure counter.
 */
export const UNLOCK_TOKEN_LIFETIME_MS = 24 * HOUR;
/** A link that proves an address (at sign-up, or the new one of a change) works for 24 hours. */
const EMAIL_TOKEN_LIFETIME_MS = 24 * HOUR;

/**
 * No request that may email a token (a reset or a new unlock link) answers sooner than this: only
 * known accounts pay for writing the token and the email, and waiting out the same floor for every
 * answer leaves no difference to measure.
 */
export const TOKEN_REQUEST_MINIMUM_DURATION_MS = 100;

const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  reset_password: RESET_TOKEN_LIFETIME_MS,
  unlock: UNLOCK_TOKEN_LIFETIME_MS,
  verify_email: EMAIL_TOKEN_LIFETIME_MS,
  change_email: EMAIL_TOKEN_LIFETIME_MS,
};

export function tokenExpiry(purpose: AccountTokenPurpose, issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + TOKEN_LIFETIME_MS[purpose]);
}

/** Whether a stored token can still be spent at `now`: not used, not expired. */
export function isTokenUsable(
  token: Pick<AccountToken, 'usedAt' | 'expiresAt'>,
  now: Date,
): boolean {
  return token.usedAt === null && now.getTime() < token.expiresAt.getTime();
}

/**
 * Why a token cannot be spent: `invalid_token` for one that is malformed, unknown, of another
 * purpose, used or expired; `superseded_token` for one mailed before the member's credentials last
 * changed (credential-events.ts), which the member is told in words of its own.
 */
export type TokenRefusal = 'invalid_token' | 'superseded_token';

/**
 * Whether a token still answers to its member's credential stamp. A `verify_email` link is bound
 * to the address it was mailed to instead: it proves that address whatever else changed, and the
 * sign-up's link must survive the phone the member adds right after.
 */
const matchesCredentialStamp: SQL = or(
  eq(accountTokens.purpose, 'verify_email'),
  eq(accountTokens.credentialStamp, users.credentialStamp),
) as SQL;

/**
 * Issues a new token of `purpose` for a user and returns it (to put in a link, once). Any older
 * token of that purpose is deleted, so only the newest link works. Run it in the transaction of
 * the email that carries the link. `email` is the address the link is mailed to and proves, for
 * `verify_email` and `change_email` only.
 */
export async function issueAccountToken(
  transaction: Database,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
  email: string | null = null,
): Promise<string> {
  await transaction
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose)));
  const token = generateToken();
  await transaction.insert(accountTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: tokenExpiry(purpose, now),
    email,
    credentialStamp: sql`(select ${users.credentialStamp} from ${users} where ${users.id} = ${userId})`,
  });
  return token;
}

/**
 * The usable token of `purpose` that `candidate` names, or why there is none. Does not spend it
 * (see {@link spendAccountToken}).
 */
export async function findUsableAccountToken(
  database: Database,
  candidate: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<AccountToken | TokenRefusal> {
  if (!looksLikeToken(candidate)) return 'invalid_token';
  const [found] = await database
    .select({ token: accountTokens, current: matchesCredentialStamp })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(
      and(eq(accountTokens.tokenHash, hashToken(candidate)), eq(accountTokens.purpose, purpose)),
    )
    .limit(1);
  if (!found || !isTokenUsable(found.token, now)) return 'invalid_token';
  return found.current ? found.token : 'superseded_token';
}

/**
 * Spends a token in one statement, so that of two concurrent uses only one succeeds. Returns the
 * spent token, or why it could not be spent.
 */
export async function spendAccountToken(
  transaction: Database,
  candidate: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<AccountToken | TokenRefusal> {
  if (!looksLikeToken(candidate)) return 'invalid_token';
  const [spent] = await transaction
    .update(accountTokens)
    .set({ usedAt: now })
    .from(users)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(candidate)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
        eq(users.id, accountTokens.userId),
        matchesCredentialStamp,
      ),
    )
    .returning({ token: accountTokens });
  if (spent) return spent.token;
  const refusal = await findUsableAccountToken(transaction, candidate, purpose, now);
  return typeof refusal === 'string' ? refusal : 'invalid_token';
}

/**
 * For the requests that email a link (reset, unlock): runs `work` with the account of `email`,
 * its row locked, in one transaction, or does nothing when there is no such account. Takes at least
 * {@link TOKEN_REQUEST_MINIMUM_DURATION_MS} either way, so that neither the answer nor its timing
 * tells whether the account exists. The row lock serialises requests for one account, so only the
 * newest link ever works.
 */
export function withAccountOf(
  database: Database,
  clock: Clock,
  email: string,
  work: (transaction: Database, user: User, now: Date) => Promise<void>,
): Promise<void> {
  return withMinimumDuration(TOKEN_REQUEST_MINIMUM_DURATION_MS, async () => {
    const now = clock.now();
    await database.transaction(async (transaction) => {
      const [user] = await transaction
        .select()
        .from(users)
        .where(eq(users.email, email.trim().toLowerCase()))
        .for('update');
      if (user) await work(transaction, user, now);
    });
  });
}
