import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { securityEvents, type SecurityEvent } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { HOUR } from '../../../platform/clock.ts';
import { type SecurityEventKind } from '../../../contract/security-event-kinds.ts';

/** How long the Activity page remembers an event; the sweeper removes older ones. */
export const SECURITY_EVENT_RETENTION_DAYS = 90;

/** Where an event came from when nobody's request caused it (a sweeper, a migration). */
export const NO_ORIGIN: RequestOrigin = { network: null, userAgent: null };

/**
 * Writes one of the account's security events. Call it with the transaction of the change it
 * describes, so an event is never kept for a change that was rolled back, nor a change made without
 * its event.
 */
export async function recordSecurityEvent(
  database: Database,
  event: { userId: number; kind: SecurityEventKind; origin: RequestOrigin; at: Date },
): Promise<void> {
  await database.insert(securityEvents).values({
    userId: event.userId,
    kind: event.kind,
    occurredAt: event.at,
    network: event.origin.network,
    userAgent: event.origin.userAgent,
  });
}

/** Events on one page of GET /users/events. */
const SECURITY_EVENTS_PAGE_SIZE = 20;

/**
 * A place in the account's events, newest first: an event's time (milliseconds since 1970) and
 * id. Events are written with the API clock's milliseconds, so the pair names one event exactly;
 * the id breaks ties between events of the same millisecond.
 */
export interface SecurityEventCursor {
  occurredAt: Date;
  id: number;
}

const CURSOR_PATTERN = /^(\d{1,15})-(\d{1,10})$/;

function formatSecurityEventCursor(cursor: SecurityEventCursor): string {
  return `${cursor.occurredAt.getTime()}-${cursor.id}`;
}

/** The cursor written by {@link formatSecurityEventCursor}, or null for anything else. */
export function parseSecurityEventCursor(text: string): SecurityEventCursor | null {
  const match = CURSOR_PATTERN.exec(text);
  if (!match) return null;
  const occurredAt = new Date(Number(match[1]));
  const id = Number(match[2]);
  if (Number.isNaN(occurredAt.getTime()) || id > 2_147_483_647) return null;
  return { occurredAt, id };
}

export interface SecurityEventsPage {
  /** Newest first. */
  events: SecurityEvent[];
  /** Where the older page starts (`before=`), null on the oldest page. */
  older: string | null;
  /** Where the newer page starts (`after=`), null on the newest page. */
  newer: string | null;
}

/**
 * One page of a member's events, newest first, keyset-paged on (occurred_at, id): `before` gives
 * the events older than a cursor, `after` the ones newer than it (the page just above it), and
 * neither the newest. Unlike an offset, a cursor keeps its place while new events arrive at the
 * top and old ones are swept at the bottom, and it costs one index range however deep the page.
 * One statement: a row past the page says whether there is more beyond it, and whether there is
 * any event on the cursor's side of it is asked in the same statement.
 */
export async function listSecurityEvents(
  database: Database,
  userId: number,
  position: { before?: SecurityEventCursor | undefined; after?: SecurityEventCursor | undefined },
): Promise<SecurityEventsPage> {
  const key = sql`(${securityEvents.occurredAt}, ${securityEvents.id})`;
  const pair = (cursor: SecurityEventCursor) =>
    sql`(${cursor.occurredAt.toISOString()}::timestamptz, ${cursor.id}::integer)`;
  const mine = eq(securityEvents.userId, userId);
  const anyWhere = (condition: SQL) =>
    sql<boolean>`exists (${database
      .select({ id: securityEvents.id })
      .from(securityEvents)
      .where(and(mine, condition))})`;
  const oneMore = SECURITY_EVENTS_PAGE_SIZE + 1;

  if (position.after) {
    // Oldest first from the cursor up, then turned round.
    const rows = await database
      .select({ event: securityEvents, behind: anyWhere(sql`${key} <= ${pair(position.after)}`) })
      .from(securityEvents)
      .where(and(mine, sql`${key} > ${pair(position.after)}`))
      .orderBy(asc(securityEvents.occurredAt), asc(securityEvents.id))
      .limit(oneMore);
    const events = rows
      .slice(0, SECURITY_EVENTS_PAGE_SIZE)
      .map(({ event }) => event)
      .reverse();
    return page(events, {
      hasOlder: rows[0]?.behind ?? false,
      hasNewer: rows.length === oneMore,
    });
  }
  const before = position.before;
  const rows = await database
    .select({
      event: securityEvents,
      behind: before ? anyWhere(sql`${key} >= ${pair(before)}`) : sql<boolean>`false`,
    })
    .from(securityEvents)
    .where(before ? and(mine, sql`${key} < ${pair(before)}`) : mine)
    .orderBy(desc(securityEvents.occurredAt), desc(securityEvents.id))
    .limit(oneMore);
  const events = rows.slice(0, SECURITY_EVENTS_PAGE_SIZE).map(({ event }) => event);
  return page(events, { hasOlder: rows.length === oneMore, hasNewer: rows[0]?.behind ?? false });
}

function page(
  events: SecurityEvent[],
  { hasOlder, hasNewer }: { hasOlder: boolean; hasNewer: boolean },
): SecurityEventsPage {
  const newest = events[0];
  const oldest = events.at(-1);
  return {
    events,
    older: oldest && hasOlder ? formatSecurityEventCursor(oldest) : null,
    newer: newest && hasNewer ? formatSecurityEventCursor(newest) : null,
  };
}

/**
 * Deletes up to `limit` events older than {@link SECURITY_EVENT_RETENTION_DAYS} (any member's),
 * oldest first. Resolves to the number deleted.
 */
export async function deleteExpiredSecurityEvents(
  database: Database,
  now: Date,
  limit: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - SECURITY_EVENT_RETENTION_DAYS * 24 * HOUR);
  const due = database
    .select({ id: securityEvents.id })
    .from(securityEvents)
    .where(lt(securityEvents.occurredAt, cutoff))
    .orderBy(asc(securityEvents.occurredAt))
    .limit(limit);
  const deleted = await database
    .delete(securityEvents)
    .where(inArray(securityEvents.id, due))
    .returning({ id: securityEvents.id });
  return deleted.length;
}
