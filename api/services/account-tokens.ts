import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  accountTokens,
  users,
  type AccountToken,
  type AccountTokenPurpose,
  type User,
} from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { HOUR } from './clock.ts';
import { withMinimumDuration } from './timing.ts';
import { generateToken, hashToken, looksLikeToken } from './tokens.ts';

/** A password-reset link works for 2 hours (docs/PRODUCT.md §11.2). */
export const RESET_TOKEN_LIFETIME_MS = 2 * HOUR;
/**
 * An unlock link works for 24 hours: long enough to be read the next morning. The lock itself
 * lifts after an hour, after which the link only clears the failure counter.
 */
export const UNLOCK_TOKEN_LIFETIME_MS = 24 * HOUR;
/** A link that proves an address (at sign-up, or the new one of a change) works for 24 hours. */
export const EMAIL_TOKEN_LIFETIME_MS = 24 * HOUR;

/**
 * No request that may email a token (a reset or a new unlock link) answers sooner than this:
 * only known accounts pay for writing the token and the email, and waiting out the same floor
 * for every answer leaves no difference to measure (docs/PRODUCT.md §11.2).
 */
export const TOKEN_REQUEST_MINIMUM_DURATION_MS = 100;

export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
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
  });
  return token;
}

/**
 * The usable token of `purpose` that `candidate` names, or null for one that is malformed,
 * unknown, of another purpose, used or expired. Does not spend it (see {@link spendAccountToken}).
 */
export async function findUsableAccountToken(
  database: Database,
  candidate: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<AccountToken | null> {
  if (!looksLikeToken(candidate)) return null;
  const [token] = await database
    .select()
    .from(accountTokens)
    .where(
      and(eq(accountTokens.tokenHash, hashToken(candidate)), eq(accountTokens.purpose, purpose)),
    )
    .limit(1);
  return token && isTokenUsable(token, now) ? token : null;
}

/**
 * Spends a token in one statement, so that of two concurrent uses only one succeeds. Returns the
 * spent token, or null when `candidate` is malformed, unknown, of another purpose, already used or
 * expired.
 */
export async function spendAccountToken(
  transaction: Database,
  candidate: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<AccountToken | null> {
  if (!looksLikeToken(candidate)) return null;
  const [spent] = await transaction
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(candidate)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return spent ?? null;
}

/** Voids every unused token of `purpose` a user holds, e.g. once the password has changed. */
export async function voidAccountTokens(
  transaction: Database,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<void> {
  await transaction
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
      ),
    );
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
