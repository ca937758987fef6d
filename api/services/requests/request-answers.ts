import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
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
