import { and, eq, gt, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  accountTokens,
  companyConnections,
  companyIdentities,
  requests,
  users,
} from '../../db/schema/index.ts';

/** What describing the member takes besides its row and its company's name. */
export interface MemberFacts {
  requestCount: number;
  /** The address a change waits on (its link not followed yet), if any. */
  pendingEmail: string | null;
  /** Whether the member's company signs them in with its own provider. */
  companySignIn: boolean;
}

/**
 * The member's facts, as columns of a statement that reads the member's row as `users`: the
 * session check, so that describing the member costs no statement of its own. `userId` and `now`
 * may be placeholders of that statement.
 */
export function memberFactsColumns(
  database: Database,
  userId: number | SQLWrapper,
  now: Date | SQLWrapper,
) {
  return {
    requestCount:
      sql<number>`(select count(*) from ${requests} where ${eq(requests.userId, userId)})`.mapWith(
        Number,
      ),
    pendingEmail: sql<string | null>`(${pendingEmailQuery(database, userId, now)})`,
    companySignIn: sql<boolean>`exists (${companySignInQuery(database, userId)})`,
  };
}

/**
 * The address a change waits on: that of the member's live `change_email` token, if any, issued
 * since the member's credentials last changed: the stamp of the member's row that the statement
 * around it reads, so that `users` is read once, by its key.
 */
function pendingEmailQuery(
  database: Database,
  userId: number | SQLWrapper,
  now: Date | SQLWrapper,
) {
  return database
    .select({ email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, 'change_email'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
        eq(accountTokens.credentialStamp, users.credentialStamp),
      ),
    )
    .limit(1);
}

/** The member's link to their company's provider, while the company's sign-in is on. */
function companySignInQuery(database: Database, userId: number | SQLWrapper) {
  return database
    .select({ one: sql`1` })
    .from(companyIdentities)
    .innerJoin(companyConnections, eq(companyConnections.id, companyIdentities.connectionId))
    .where(
      and(
        eq(companyIdentities.userId, userId),
        eq(companyConnections.enabled, true),
        // The member's row of the statement around it; a member of no company has none.
        eq(companyConnections.companyId, users.companyId),
      ),
    );
}
