import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  blobs,
  requestCategories,
  requests,
  requestUpdates,
  type Blob,
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

export function describeAttachment(blob: Blob): AttachmentAnswer {
  return {
    id: blob.id,
    filename: blob.filename,
    content_type: blob.contentType,
    byte_size: blob.byteSize,
    created_at: blob.createdAt.toISOString(),
  };
}

function describeUpdate(update: RequestUpdate, attachments: Blob[]): UpdateAnswer {
  return {
    id: update.id,
    kind: update.kind,
    author: update.author,
    body: update.body,
    status: update.status,
    created_at: update.createdAt.toISOString(),
    attachments: attachments.map(describeAttachment),
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

export async function countRequests(database: Database, filter: RequestFilter): Promise<number> {
  const [row] = await database
    .select({ value: count() })
    .from(requests)
    .where(filterCondition(filter));
  return row?.value ?? 0;
}

/** Summaries of a member's requests, most recently updated first. */
export async function listRequestSummaries(
  database: Database,
  filter: RequestFilter,
  window: { limit: number; offset: number },
): Promise<RequestSummaryAnswer[]> {
  const rows = await database
    .select({
      request: requests,
      category: requestCategories,
      attachmentCount:
        sql<number>`(select count(*) from ${blobs} where ${blobs.requestId} = ${requests.id})`.mapWith(
          Number,
        ),
    })
    .from(requests)
    .innerJoin(requestCategories, eq(requests.categoryId, requestCategories.id))
    .where(filterCondition(filter))
    .orderBy(desc(requests.updatedAt), desc(requests.createdAt), desc(requests.id))
    .limit(window.limit)
    .offset(window.offset);
  return rows.map(({ request, category, attachmentCount }) => ({
    id: request.id,
    title: request.title,
    status: request.status,
    category: describeCategory(category),
    created_at: request.createdAt.toISOString(),
    updated_at: request.updatedAt.toISOString(),
    attachment_count: attachmentCount,
  }));
}

/** One of the member's requests with its timeline and files; undefined when it is not theirs. */
export async function loadRequest(
  database: Database,
  userId: number,
  requestId: string,
): Promise<RequestAnswer | undefined> {
  const [row] = await database
    .select({ request: requests, category: requestCategories })
    .from(requests)
    .innerJoin(requestCategories, eq(requests.categoryId, requestCategories.id))
    .where(and(eq(requests.id, requestId), eq(requests.userId, userId)));
  if (!row) return undefined;
  const { request, category } = row;
  // One after the other: callers pass transactions, which run one statement at a time.
  const updates = await database
    .select()
    .from(requestUpdates)
    .where(eq(requestUpdates.requestId, request.id))
    .orderBy(asc(requestUpdates.createdAt), asc(creationFirst), asc(requestUpdates.id));
  const files = await database
    .select()
    .from(blobs)
    .where(eq(blobs.requestId, request.id))
    .orderBy(asc(blobs.createdAt), asc(blobs.id));
  return {
    id: request.id,
    title: request.title,
    status: request.status,
    category: describeCategory(category),
    created_at: request.createdAt.toISOString(),
    updated_at: request.updatedAt.toISOString(),
    attachment_count: files.length,
    details: request.details,
    timeline: updates.map((update) =>
      describeUpdate(
        update,
        files.filter((file) => file.requestUpdateId === update.id),
      ),
    ),
    attachments: files.map(describeAttachment),
  };
}

/** One timeline entry with its files. */
export async function loadUpdate(database: Database, updateId: string): Promise<UpdateAnswer> {
  const [update] = await database
    .select()
    .from(requestUpdates)
    .where(eq(requestUpdates.id, updateId));
  if (!update) throw new Error(`Timeline entry ${updateId} is gone.`);
  const files = await database
    .select()
    .from(blobs)
    .where(eq(blobs.requestUpdateId, updateId))
    .orderBy(asc(blobs.createdAt), asc(blobs.id));
  return describeUpdate(update, files);
}

/** The latest timeline entries of all the member's requests, newest first. */
export async function listRecentUpdates(
  database: Database,
  userId: number,
  limit: number,
): Promise<RecentUpdateAnswer[]> {
  const rows = await database
    .select({ update: requestUpdates, requestTitle: requests.title })
    .from(requestUpdates)
    .innerJoin(requests, eq(requestUpdates.requestId, requests.id))
    .where(eq(requests.userId, userId))
    .orderBy(desc(requestUpdates.createdAt), desc(creationFirst), desc(requestUpdates.id))
    .limit(limit);
  const updateIds = rows.map(({ update }) => update.id);
  const files =
    updateIds.length === 0
      ? []
      : await database
          .select()
          .from(blobs)
          .where(inArray(blobs.requestUpdateId, updateIds))
          .orderBy(asc(blobs.createdAt), asc(blobs.id));
  return rows.map(({ update, requestTitle }) => ({
    ...describeUpdate(
      update,
      files.filter((file) => file.requestUpdateId === update.id),
    ),
    request_id: update.requestId,
    request_title: requestTitle,
  }));
}
