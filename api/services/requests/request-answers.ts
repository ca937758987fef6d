import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement, preparedStatements } from '../../db/prepared.ts';
import {
  blobs,
  requestCategories,
  requests,
  requestUpdates,
  type RequestStatus,
  type RequestUpdate,
  type RequestUpdateAuthor,
  type RequestUpdateKind,
} from '../../db/schema/index.ts';
import { describeCategory, type CategoryAnswer } from './request-categories.ts';
import type { RequestPosition } from './request-cursor.ts';

/**
 * The shapes of requests, their timelines and files in the API's answers, and the queries that read
 * them. Every query is scoped to one member: another member's request is simply not found.
 */

interface AttachmentAnswer {
  id: string;
  filename: string;
  content_type: string;
  byte_size: number;
  created_at: string;
}

export interface UpdateAnswer {
  id: string;
  kind: RequestUpdateKind;
  author: RequestUpdateAuthor;
  body: string;
  /** The status moved to, for `status_changed`; otherwise null. */
  status: RequestStatus | null;
  created_at: string;
  attachments: AttachmentAnswer[];
}

export interface RequestSummaryAnswer {
  id: string;
  title: string;
  status: RequestStatus;
  category: CategoryAnswer;
  created_at: string;
  updated_at: string;
  attachment_count: number;
}

export interface RequestAnswer extends RequestSummaryAnswer {
  details: string;
  /** Oldest first. */
  timeline: UpdateAnswer[];
  /** Every file of the request and of its notes, oldest first. */
  attachments: AttachmentAnswer[];
}

/** A timeline entry on the dashboard, with the request it belongs to. */
export interface RecentUpdateAnswer extends UpdateAnswer {
  request_id: string;
  request_title: string;
}

function describeUpdate(update: RequestUpdate, attachments: AttachmentAnswer[]): UpdateAnswer {
  return {
    id: update.id,
    kind: update.kind,
    author: update.author,
    body: update.body,
    status: update.status,
    created_at: update.createdAt.toISOString(),
    attachments,
  };
}

/** Whichever way two entries tie on time, the request's creation comes first. */
const creationFirst = sql`case when ${requestUpdates.kind} = 'created' then 0 else 1 end`;

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

/**
 * The files of the rows `where` picks, as the answers show them (oldest first), made by the
 * database: one statement brings a list of entries together with their files.
 */
function attachmentsWhere(where: SQL) {
  return sql<AttachmentAnswer[]>`(
    select coalesce(json_agg(json_build_object(
      'id', ${blobs.id},
      'filename', ${blobs.filename},
      'content_type', ${blobs.contentType},
      'byte_size', ${blobs.byteSize},
      'created_at', to_char(${blobs.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ) order by ${blobs.createdAt}, ${blobs.id}), '[]'::json)
    from ${blobs} where ${where})`;
}

const requestWithFiles = preparedStatement('request_with_files', (database, name) =>
  database
    .select({
      request: requests,
      category: requestCategories,
      attachments: attachmentsWhere(eq(blobs.requestId, requests.id)),
    })
    .from(requests)
    .innerJoin(requestCategories, eq(requests.categoryId, requestCategories.id))
    .where(
      and(
        eq(requests.id, sql.placeholder('requestId')),
        eq(requests.userId, sql.placeholder('userId')),
      ),
    )
    .prepare(name),
);

const timelineOfRequest = preparedStatement('request_timeline', (database, name) =>
  database
    .select({
      update: requestUpdates,
      attachments: attachmentsWhere(eq(blobs.requestUpdateId, requestUpdates.id)),
    })
    .from(requestUpdates)
    .where(eq(requestUpdates.requestId, sql.placeholder('requestId')))
    .orderBy(asc(requestUpdates.createdAt), asc(creationFirst), asc(requestUpdates.id))
    .prepare(name),
);

/**
 * One of the member's requests with its timeline and files; undefined when it is not theirs. Two
 * statements: the request with its files, then its timeline with each entry's files.
 */
export async function loadRequest(
  database: Database,
  userId: number,
  requestId: string,
): Promise<RequestAnswer | undefined> {
  const [row] = await requestWithFiles(database).execute({ requestId, userId });
  if (!row) return undefined;
  const { request, category, attachments } = row;
  const timeline = await timelineOfRequest(database).execute({ requestId: request.id });
  return {
    id: request.id,
    title: request.title,
    status: request.status,
    category: describeCategory(category),
    created_at: request.createdAt.toISOString(),
    updated_at: request.updatedAt.toISOString(),
    attachment_count: attachments.length,
    details: request.details,
    timeline: timeline.map((entry) => describeUpdate(entry.update, entry.attachments)),
    attachments,
  };
}

/** One timeline entry with its files. */
export async function loadUpdate(database: Database, updateId: string): Promise<UpdateAnswer> {
  const [row] = await database
    .select({
      update: requestUpdates,
      attachments: attachmentsWhere(eq(blobs.requestUpdateId, requestUpdates.id)),
    })
    .from(requestUpdates)
    .where(eq(requestUpdates.id, updateId));
  if (!row) throw new Error(`Timeline entry ${updateId} is gone.`);
  return describeUpdate(row.update, row.attachments);
}

const recentUpdates = preparedStatement('recent_updates', (database, name) => {
  // A request's `updated_at` is its latest entry's time, so the latest entries of all are among
  // those of the most recently updated requests: a few rows of two indexes, however many
  // requests and entries the member has.
  const latest = database
    .select({ id: requests.id, title: requests.title })
    .from(requests)
    .where(eq(requests.userId, sql.placeholder('userId')))
    .orderBy(desc(requests.updatedAt), desc(requests.createdAt), desc(requests.id))
    .limit(sql.placeholder('limit'))
    .as('latest');
  const entries = database
    .select({
      id: requestUpdates.id,
      requestId: requestUpdates.requestId,
      kind: requestUpdates.kind,
      author: requestUpdates.author,
      body: requestUpdates.body,
      status: requestUpdates.status,
      createdAt: requestUpdates.createdAt,
      creationLast: sql<number>`${creationFirst}`.as('creation_last'),
    })
    .from(requestUpdates)
    .where(eq(requestUpdates.requestId, latest.id))
    .orderBy(desc(requestUpdates.createdAt), desc(creationFirst), desc(requestUpdates.id))
    .limit(sql.placeholder('limit'))
    .as('entries');
  return database
    .select({
      update: {
        id: entries.id,
        requestId: entries.requestId,
        kind: entries.kind,
        author: entries.author,
        body: entries.body,
        status: entries.status,
        createdAt: entries.createdAt,
      },
      requestTitle: latest.title,
      attachments: attachmentsWhere(eq(blobs.requestUpdateId, entries.id)),
    })
    .from(latest)
    .innerJoinLateral(entries, sql`true`)
    .orderBy(desc(entries.createdAt), desc(entries.creationLast), desc(entries.id))
    .limit(sql.placeholder('limit'))
    .prepare(name);
});

/** The latest timeline entries of all the member's requests, newest first, with their files. */
export async function listRecentUpdates(
  database: Database,
  userId: number,
  limit: number,
): Promise<RecentUpdateAnswer[]> {
  const rows = await recentUpdates(database).execute({ userId, limit });
  return rows.map(({ update, requestTitle, attachments }) => ({
    ...describeUpdate(update, attachments),
    request_id: update.requestId,
    request_title: requestTitle,
  }));
}
