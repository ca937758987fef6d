import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatements } from '../../db/prepared.ts';
import { blobs, requestCategories, requests, type RequestStatus } from '../../db/schema/index.ts';
import type { RequestSummaryAnswer } from './request-answers.ts';
import type { RequestPosition } from './request-cursor.ts';

/**
 * A member's requests as a list: a window of it by page or by position, with the counts that place
 * the window in the list, in one prepared statement for each shape of list.
 */

/** Which of a member's requests a list shows. */
export interface RequestFilter {
  userId: number;
  statuses?: readonly RequestStatus[] | undefined;
  categoryId?: string | undefined;
}

/** Which filters a list has and how its window is found: one prepared statement each. */
interface ListShape {
  statuses: readonly RequestStatus[] | undefined;
  byCategory: boolean;
  window: 'offset' | 'after' | 'before';
}

function filterCondition(shape: ListShape): SQL | undefined {
  return and(
    eq(requests.userId, sql.placeholder('userId')),
    // The groups of statuses are few and fixed: part of the statement, not a value of it.
    shape.statuses === undefined ? undefined : inArray(requests.status, [...shape.statuses]),
    shape.byCategory ? eq(requests.categoryId, sql.placeholder('categoryId')) : undefined,
  );
}

/**
 * Which part of a list: the requests after so many (a numbered page, as an address may name one),
 * or those right after or right before a position in the list (request-cursor.ts).
 */
type RequestWindow =
  | { readonly limit: number; readonly offset: number }
  | { readonly limit: number; readonly after: RequestPosition }
  | { readonly limit: number; readonly before: RequestPosition };

/** A window of a list of requests, where it lies in the list, and how many the list has. */
interface RequestSummaries {
  summaries: RequestSummaryAnswer[];
  totalCount: number;
  /** How many requests of the list come before the window's first. */
  countBefore: number;
  /** The positions of the window's first and last requests; undefined for an empty window. */
  first: RequestPosition | undefined;
  last: RequestPosition | undefined;
}

/** The list's order, newest first; each key is unique with the id. */
const listKey = sql`(${requests.updatedAt}, ${requests.createdAt}, ${requests.id})`;
/** A timestamp exactly as the database keeps it (to the microsecond), for a cursor. */
const exactly = (column: typeof requests.updatedAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The list's key of the position a window starts after or ends before, as values of the call. */
const positionKey = sql`(${sql.placeholder('updatedAt')}::timestamptz, ${sql.placeholder('createdAt')}::timestamptz, ${sql.placeholder('id')}::uuid)`;

/** The statement of listRequestSummaries, one for each shape of list. */
const requestSummaries = preparedStatements(
  'request_summaries',
  (shape: ListShape) =>
    `${shape.statuses?.join(',') ?? '*'}|${shape.byCategory ? 'category' : ''}|${shape.window}`,
  (database, shape, name) => {
    // Going back (`before`), the rows nearest the position are the oldest of the rows above it.
    const order = shape.window === 'before' ? asc : desc;
    const keyset =
      shape.window === 'after'
        ? sql`${listKey} < ${positionKey}`
        : shape.window === 'before'
          ? sql`${listKey} > ${positionKey}`
          : undefined;
    // Before the window: all above the position it follows, or above the one it precedes.
    const preceding =
      shape.window === 'after'
        ? sql<number>`count(*) filter (where ${listKey} >= ${positionKey})`
        : shape.window === 'before'
          ? sql<number>`count(*) filter (where ${listKey} > ${positionKey})`
          : sql<number>`0`;
    const counted = database
      .select({
        total: count().as('total'),
        preceding: preceding.mapWith(Number).as('preceding'),
      })
      .from(requests)
      .where(filterCondition(shape))
      .as('counted');
    const listed = database
      .select({
        id: requests.id,
        title: requests.title,
        status: requests.status,
        createdAt: requests.createdAt,
        updatedAt: requests.updatedAt,
        exactCreatedAt: exactly(requests.createdAt).as('exact_created_at'),
        exactUpdatedAt: exactly(requests.updatedAt).as('exact_updated_at'),
        // Named apart: a subquery's columns need names of their own, and both tables have an `id`.
        categoryId: sql<string>`${requestCategories.id}`.as('category_id'),
        categoryName: requestCategories.name,
        categoryDescription: requestCategories.description,
        categoryIcon: requestCategories.icon,
        attachmentCount:
          sql<number>`(select count(*) from ${blobs} where ${blobs.requestId} = ${requests.id})`
            .mapWith(Number)
            .as('attachment_count'),
      })
      .from(requests)
      .innerJoin(requestCategories, eq(requests.categoryId, requestCategories.id))
      .where(and(filterCondition(shape), keyset))
      .orderBy(order(requests.updatedAt), order(requests.createdAt), order(requests.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('listed');
    return database
      .select({
        total: counted.total,
        preceding: counted.preceding,
        listed: {
          id: listed.id,
          title: listed.title,
          status: listed.status,
          createdAt: listed.createdAt,
          updatedAt: listed.updatedAt,
          exactCreatedAt: listed.exactCreatedAt,
          exactUpdatedAt: listed.exactUpdatedAt,
          categoryId: listed.categoryId,
          categoryName: listed.categoryName,
          categoryDescription: listed.categoryDescription,
          categoryIcon: listed.categoryIcon,
          attachmentCount: listed.attachmentCount,
        },
      })
      .from(counted)
      .leftJoinLateral(listed, sql`true`)
      .orderBy(order(listed.updatedAt), order(listed.createdAt), order(listed.id))
      .prepare(name);
  },
);

/**
 * Summaries of a member's requests, most recently updated first, with how many the filter finds
 * in all and how many come before them, in one statement: the counts, joined with the window of
 * the list (none past the end). A window by position reads the requests from there on through
 * the index, however far down the list it is.
 */
export async function listRequestSummaries(
  database: Database,
  filter: RequestFilter,
  window: RequestWindow,
): Promise<RequestSummaries> {
  const backwards = 'before' in window;
  const position = 'after' in window ? window.after : 'before' in window ? window.before : null;
  const shape: ListShape = {
    statuses: filter.statuses,
    byCategory: filter.categoryId !== undefined,
    window: 'after' in window ? 'after' : backwards ? 'before' : 'offset',
  };
  const rows = await requestSummaries(database, shape).execute({
    userId: filter.userId,
    categoryId: filter.categoryId,
    limit: window.limit,
    offset: 'offset' in window ? window.offset : 0,
    ...position,
  });
  // Past the end of the list, the counts alone: one row without a listed request.
  const found = rows.flatMap(({ listed: row }) => (row === null ? [] : [row]));
  if (backwards) found.reverse();
  const summaries = found.map((row) => ({
    id: row.id,
    title: row.title,
    status: row.status,
    category: {
      id: row.categoryId,
      name: row.categoryName,
      description: row.categoryDescription,
      icon: row.categoryIcon,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    attachment_count: row.attachmentCount,
  }));
  const positionOf = (row: (typeof found)[number] | undefined) =>
    row && { updatedAt: row.exactUpdatedAt, createdAt: row.exactCreatedAt, id: row.id };
  const totalCount = rows[0]?.total ?? 0;
  const preceded = rows[0]?.preceding ?? 0;
  return {
    summaries,
    totalCount,
    countBefore:
      'offset' in window
        ? Math.min(window.offset, totalCount)
        : 'before' in window
          ? preceded - summaries.length
          : preceded,
    first: positionOf(found[0]),
    last: positionOf(found.at(-1)),
  };
}
