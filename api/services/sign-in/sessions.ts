import {
  and,
  eq,
  gt,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { placeholderFor, preparedStatement } from '../../db/prepared.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import {
  accountTokens,
  companies,
  sessions,
  users,
  type Session,
  type User,
} from '../../db/schema/index.ts';
import { memberFactsColumns, type MemberFacts } from './member-facts.ts';
import { HOUR, MINUTE } from '../../../platform/clock.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';

/** A session unused for this long ends; every authenticated call renews it. */
export const SESSION_IDLE_TIMEOUT_MS = 30 * MINUTE;
/** A session ends this long after sign-in, however active it is. */
const SESSION_ABSOLUTE_LIFETIME_MS = 24 * HOUR;

export interface IssuedSession {
  /** The bearer token: shown to the client once, never stored. */
  token: string;
  /**
   * The absolute expiry. Clients treat the token as valid until then; the shorter idle timeout
   * is enforced by the API, which answers 401 once it has passed.
   */
  expiresAt: Date;
  session: Session;
}

export interface AuthenticatedSession {
  session: Session;
  user: User;
  /** The name of the user's company, null for a member of none. */
  companyName: string | null;
  /** Whether the user's company requires MFA. */
  companyRequiresMfa: boolean;
  /** What else describing the member takes: read with the session, for GET /users/current. */
  memberFacts: MemberFacts;
}

/**
 * Starts a session, keeping where it started (the browser's `User-Agent` and the network, never the
 * address) for the Devices page.
 */
export async function createSession(
  database: Database,
  userId: number,
  now: Date,
  origin: RequestOrigin,
): Promise<IssuedSession> {
  const token = generateToken();
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS);
  const [session] = await database
    .insert(sessions)
    .values({
      userId,
      tokenHash: hashToken(token),
      createdAt: now,
      lastUsedAt: now,
      provenAt: now,
      expiresAt,
      userAgent: origin.userAgent,
      network: origin.network,
    })
    .returning();
  if (!session) throw new Error('Inserting a session returned no row.');
  return { token, expiresAt, session };
}

/**
 * Marks the session past its MFA step with a fresh mfa token, of which only the SHA-256 is kept,
 * in the transaction that accepted the second factor. Resolves to the token, for the answer.
 */
export async function markSessionVerified(
  transaction: Database,
  context: { sessionId: Session['id'] },
  now: Date,
): Promise<string> {
  const mfaToken = generateToken();
  await transaction
    .update(sessions)
    // A second factor proves who holds the session as the password did (recent-proof.ts).
    .set({ mfaVerifiedAt: now, mfaTokenHash: hashToken(mfaToken), provenAt: now })
    .where(eq(sessions.id, context.sessionId));
  return mfaToken;
}

/**
 * The rows of sessions that can still be used at `now`: not revoked, not past their absolute
 * expiry, used within the idle timeout. Authentication and the Devices list share it, so the list
 * never shows a session the API would refuse.
 */
export function sessionIsLive(now: Date): SQL {
  return sessionIsLiveAt(now, idleCutoffAt(now));
}

function sessionIsLiveAt(now: Date | SQLWrapper, idleCutoff: Date | SQLWrapper): SQL {
  return and(
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    gt(sessions.lastUsedAt, idleCutoff),
  ) as SQL;
}

function idleCutoffAt(now: Date): Date {
  return new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS);
}

/** Every authenticated call's statement (see authenticateSession). */
const sessionCheck = preparedStatement('session_check', (database, name) =>
  database
    .update(sessions)
    .set({ lastUsedAt: sql`${placeholderFor('now', sessions.lastUsedAt)}` })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        sessionIsLiveAt(
          placeholderFor('now', sessions.expiresAt),
          placeholderFor('idleCutoff', sessions.lastUsedAt),
        ),
        eq(users.id, sessions.userId),
      ),
    )
    .returning({
      session: sessions,
      user: users,
      companyName: companies.name,
      companyRequiresMfa: companies.mfaRequired,
      ...memberFactsColumns(
        database,
        sessions.userId,
        placeholderFor('now', accountTokens.expiresAt),
      ),
    })
    .prepare(name),
);

/**
 * Finds the live session of a bearer token, renews its idle timeout and loads its member with what
 * describing it takes, in one statement: a session cannot expire between the check and the
 * renewal, and a page's calls cost one statement for the session and the member however they go
 * on. Returns null for an unknown, revoked, idle-expired
 * or absolutely expired token.
 */
export async function authenticateSession(
  database: Database,
  token: string,
  now: Date,
): Promise<AuthenticatedSession | null> {
  if (!looksLikeToken(token)) return null;
  const [row] = await sessionCheck(database).execute({
    tokenHash: hashToken(token),
    now,
    idleCutoff: idleCutoffAt(now),
  });
  if (!row) return null;
  return {
    session: row.session,
    user: row.user,
    companyName: row.companyName,
    companyRequiresMfa: row.companyRequiresMfa ?? false,
    memberFacts: {
      requestCount: row.requestCount,
      pendingEmail: row.pendingEmail,
      companySignIn: row.companySignIn,
    },
  };
}

/**
 * Deletes a user's sessions that can never be used again (revoked, idle or past their absolute
 * expiry), so that the table only grows with live sessions.
 */
export async function deleteEndedSessions(
  database: Database,
  userId: number,
  now: Date,
): Promise<void> {
  const idleCutoff = idleCutoffAt(now);
  await database
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        or(
          isNotNull(sessions.revokedAt),
          lte(sessions.expiresAt, now),
          lte(sessions.lastUsedAt, idleCutoff),
        ),
      ),
    );
}

/**
 * Ends the session of a token, if there is one. Revoking twice is harmless. Resolves to the
 * member whose session this call ended, null when none was (so a repeated sign-out is no event).
 */
export async function revokeSession(
  database: Database,
  token: string,
  now: Date,
): Promise<number | null> {
  if (!looksLikeToken(token)) return null;
  const [ended] = await database
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .returning({ userId: sessions.userId });
  return ended?.userId ?? null;
}

/**
 * Ends every live session of a user, e.g. once a reset or an unlock link proves that the
 * account's email, not whoever held its password, is in charge again.
 */
export async function revokeAllSessions(
  database: Database,
  userId: number,
  now: Date,
): Promise<void> {
  await database
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * Ends every live session of a user but one: after a password change, the device that changed it
 * stays signed in and every other one starts over with the new password.
 */
export async function revokeOtherSessions(
  database: Database,
  userId: number,
  keptSessionId: Session['id'],
  now: Date,
): Promise<void> {
  await database
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keptSessionId)),
    );
}
