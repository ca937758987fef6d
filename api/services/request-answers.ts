import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  blobs,
  requestCategories,
  requests,
  requestUpdates,
  type RequestStatus,
  type RequestUpdate,
  type RequestUpdateAuthor,
  type RequestUpdateKind,
} from '../db/schema.ts';
import { describeCategory, type CategoryAnswer } from './request-categories.ts';

/**
 * The shapes of requests, their timelines and files in the API's answers (docs/PRODUCT.md
 * §7.2.1), and the queries that read them. Every query is scoped to one member: another member's
 * request is simply not found.
 */

export interface AttachmentAnswer {
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

function filterCondition(filter: RequestFilter): SQL | undefined {
  return and(
    eq(requests.userId, filter.userId),
    filter.statuses === undefined ? undefined : inArray(requests.status, [...filter.statuses]),
    filter.categoryId === undefined ? undefined : eq(requests.categoryId, filter.categoryId),
  );
}

/** A window of a list of requests, and how many the whole list has. */
export interface RequestSummaries {
  summaries: RequestSummaryAnswer[];
  totalCount: number;
}

/**
 * Summaries of a member's requests, most recently updated first, and how many the filter finds
 * in all, in one statement: the count, joined with the window of the list (none past the end).
 */
export async function listRequestSummaries(
  database: Database,
  filter: RequestFilter,
  window: { limit: number; offset: number },
): Promise<RequestSummaries> {
  const counted = database
    .select({ total: count().as('total') })
    .from(requests)
    .where(filterCondition(filter))
    .as('counted');
  const listed = database
    .select({
      id: requests.id,
      title: requests.title,
      status: requests.status,
      createdAt: requests.createdAt,
      updatedAt: requests.updatedAt,
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
    .where(filterCondition(filter))
    .orderBy(desc(requests.updatedAt), desc(requests.createdAt), desc(requests.id))
    .limit(window.limit)
    .offset(window.offset)
    .as('listed');
  const rows = await database
    .select({
      total: counted.total,
      listed: {
        id: listed.id,
        title: listed.title,
        status: listed.status,
        createdAt: listed.createdAt,
        updatedAt: listed.updatedAt,
        categoryId: listed.categoryId,
        categoryName: listed.categoryName,
        categoryDescription: listed.categoryDescription,
        categoryIcon: listed.categoryIcon,
        attachmentCount: listed.attachmentCount,
      },
    })
    .from(counted)
    .leftJoinLateral(listed, sql`true`)
    .orderBy(desc(listed.updatedAt), desc(listed.createdAt), desc(listed.id));
  // Past the end of the list, the count alone: one row without a listed request.
  const summaries = rows.flatMap(({ listed: row }) =>
    row === null
      ? []
      : [
          {
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
          },
        ],
  );
  return { summaries, totalCount: rows[0]?.total ?? 0 };
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

/**
 * One of the member's requests with its timeline and files; undefined when it is not theirs. Two
 * statements: the request with its files, then its timeline with each entry's files.
 */
export async function loadRequest(
  database: Database,
  userId: number,
  requestId: string,
): Promise<RequestAnswer | undefined> {
  const [row] = await database
    .select({
      request: requests,
      category: requestCategories,
      attachments: attachmentsWhere(eq(blobs.requestId, requests.id)),
    })
    .from(requests)
    .innerJoin(requestCategories, eq(requests.categoryId, requestCategories.id))
    .where(and(eq(requests.id, requestId), eq(requests.userId, userId)));
  if (!row) return undefined;
  const { request, category, attachments } = row;
  const timeline = await database
    .select({
      update: requestUpdates,
      attachments: attachmentsWhere(eq(blobs.requestUpdateId, requestUpdates.id)),
    })
    .from(requestUpdates)
    .where(eq(requestUpdates.requestId, request.id))
    .orderBy(asc(requestUpdates.createdAt), asc(creationFirst), asc(requestUpdates.id));
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

/** The latest timeline entries of all the member's requests, newest first, with their files. */
export async function listRecentUpdates(
  database: Database,
  userId: number,
  limit: number,
): Promise<RecentUpdateAnswer[]> {
  const rows = await database
    .select({
      update: requestUpdates,
      requestTitle: requests.title,
      attachments: attachmentsWhere(eq(blobs.requestUpdateId, requestUpdates.id)),
    })
    .from(requestUpdates)
    .innerJoin(requests, eq(requestUpdates.requestId, requests.id))
    .where(eq(requests.userId, userId))
    .orderBy(desc(requestUpdates.createdAt), desc(creationFirst), desc(requestUpdates.id))
    .limit(limit);
  return rows.map(({ update, requestTitle, attachments }) => ({
    ...describeUpdate(update, attachments),
    request_id: update.requestId,
    request_title: requestTitle,
  }));
}
