import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  OPEN_REQUEST_STATUSES,
  requestCategories,
  requests,
  requestUpdates,
  type RequestStatus,
} from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { attachFiles, type AttachmentProblem } from '../files/files.ts';
import {
  loadRequest,
  loadUpdate,
  type RequestAnswer,
  type RequestSummaryAnswer,
  type UpdateAnswer,
} from './request-answers.ts';
import { listRequestSummaries } from './request-list.ts';
import type { FileStorage } from '../files/storage/file-storage.ts';
import { encodeCursor, type RequestPosition } from './request-cursor.ts';

/** Concierge requests: listing, making, notes and cancelling. */

const REQUESTS_PER_PAGE = 10;

/** `open` and `closed` in list filters. */
const REQUEST_STATUS_GROUPS = {
  open: OPEN_REQUEST_STATUSES,
  closed: ['completed', 'cancelled'],
} as const satisfies Record<string, readonly RequestStatus[]>;
type RequestStatusGroup = keyof typeof REQUEST_STATUS_GROUPS;

function isOpenStatus(status: RequestStatus): boolean {
  return (OPEN_REQUEST_STATUSES as readonly RequestStatus[]).includes(status);
}

export interface PageMeta {
  /** The page's number: as asked, or, for a page by position, as many pages down as it starts. */
  page: number;
  per_page: number;
  total_count: number;
  total_pages: number;
  /** The next page's cursor (`after`), or null on the last page. */
  next_cursor: string | null;
  /** The page before's cursor (`before`), or null on the first page. */
  previous_cursor: string | null;
}

export interface RequestPage {
  requests: RequestSummaryAnswer[];
  meta: PageMeta;
}

/**
 * Which page: its number (an address may name one), or the page right after or right before a
 * position that a page's cursor named (request-cursor.ts).
 */
export type PagePosition =
  | { readonly page: number }
  | { readonly after: RequestPosition }
  | { readonly before: RequestPosition };

/** One page of a member's requests, most recently updated first; past the last, none. */
export async function pageOfRequests(
  database: Database,
  query: {
    userId: number;
    status?: RequestStatusGroup | undefined;
    categoryId?: string | undefined;
    position: PagePosition;
  },
): Promise<RequestPage> {
  const filter = {
    userId: query.userId,
    statuses: query.status === undefined ? undefined : REQUEST_STATUS_GROUPS[query.status],
    categoryId: query.categoryId,
  };
  const { position } = query;
  const listed = await listRequestSummaries(
    database,
    filter,
    'page' in position
      ? { limit: REQUESTS_PER_PAGE, offset: (position.page - 1) * REQUESTS_PER_PAGE }
      : { limit: REQUESTS_PER_PAGE, ...position },
  );
  const { summaries, totalCount, countBefore, first, last } = listed;
  return {
    requests: summaries,
    meta: {
      page: 'page' in position ? position.page : Math.floor(countBefore / REQUESTS_PER_PAGE) + 1,
      per_page: REQUESTS_PER_PAGE,
      total_count: totalCount,
      total_pages: Math.ceil(totalCount / REQUESTS_PER_PAGE),
      next_cursor: last && countBefore + summaries.length < totalCount ? encodeCursor(last) : null,
      previous_cursor: first && countBefore > 0 ? encodeCursor(first) : null,
    },
  };
}

export interface NewRequest {
  categoryId: string;
  title: string;
  details: string;
  attachmentIds: readonly string[];
}

type CreateRequestResult =
  | { created: true; request: RequestAnswer }
  | { created: false; reason: 'unknown_category' | AttachmentProblem };

/** Thrown by `refuse` inside a transaction to undo it; carries why. */
class Refusal extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

/**
 * Runs `work` in a transaction. Calling `refuse(reason)` in it rolls everything back, and the
 * reason is returned instead of a result.
 */
async function refusable<Result, Reason extends string>(
  database: Database,
  work: (transaction: Database, refuse: (reason: Reason) => never) => Promise<Result>,
): Promise<{ done: true; result: Result } | { done: false; reason: Reason }> {
  const refuse = (reason: Reason): never => {
    throw new Refusal(reason);
  };
  try {
    return {
      done: true,
      result: await database.transaction((transaction) => work(transaction, refuse)),
    };
  } catch (error) {
    // Only `refuse` makes a Refusal, and only with a Reason.
    if (error instanceof Refusal) return { done: false, reason: error.reason as Reason };
    throw error;
  }
}

/** Makes a request with its `created` timeline entry and its file, all or nothing. */
export async function createRequest(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  userId: number,
  input: NewRequest,
): Promise<CreateRequestResult> {
  const outcome = await refusable<RequestAnswer, 'unknown_category' | AttachmentProblem>(
    database,
    async (transaction, refuse) => {
      const [category] = await transaction
        .select({ id: requestCategories.id })
        .from(requestCategories)
        .where(eq(requestCategories.id, input.categoryId));
      if (!category) return refuse('unknown_category');
      const now = clock.now();
      const [request] = await transaction
        .insert(requests)
        .values({
          userId,
          categoryId: category.id,
          title: input.title,
          details: input.details,
          status: 'submitted',
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: requests.id });
      if (!request) throw new Error('Creating a request returned no row.');
      const [update] = await transaction
        .insert(requestUpdates)
        .values({ requestId: request.id, kind: 'created', author: 'member', createdAt: now })
        .returning({ id: requestUpdates.id });
      if (!update) throw new Error('Creating a timeline entry returned no row.');
      const problem = await attachFiles(
        transaction,
        storage,
        now,
        { userId, requestId: request.id, requestUpdateId: update.id },
        input.attachmentIds,
      );
      if (problem) return refuse(problem);
      const answer = await loadRequest(transaction, userId, request.id);
      if (!answer) throw new Error(`Request ${request.id} vanished while being created.`);
      return answer;
    },
  );
  return outcome.done
    ? { created: true, request: outcome.result }
    : { created: false, reason: outcome.reason };
}

interface NewNote {
  body: string;
  attachmentIds: readonly string[];
}

type AddNoteResult =
  | { added: true; update: UpdateAnswer }
  | { added: false; reason: 'not_found' | 'closed' | AttachmentProblem };

/**
 * Adds the member's note (and its file) to the timeline of one of their open requests, and
 * moves the request to the top of the lists. A closed request takes no more notes: nobody is
 * working on it to read them.
 */
export async function addNote(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  userId: number,
  requestId: string,
  note: NewNote,
): Promise<AddNoteResult> {
  const outcome = await refusable<UpdateAnswer, 'not_found' | 'closed' | AttachmentProblem>(
    database,
    async (transaction, refuse) => {
      const [request] = await transaction
        .select({ id: requests.id, status: requests.status })
        .from(requests)
        .where(and(eq(requests.id, requestId), eq(requests.userId, userId)))
        .for('update');
      if (!request) return refuse('not_found');
      if (!isOpenStatus(request.status)) return refuse('closed');
      const now = clock.now();
      const [update] = await transaction
        .insert(requestUpdates)
        .values({
          requestId: request.id,
          kind: 'note',
          author: 'member',
          body: note.body,
          createdAt: now,
        })
        .returning({ id: requestUpdates.id });
      if (!update) throw new Error('Adding a note returned no row.');
      const problem = await attachFiles(
        transaction,
        storage,
        now,
        { userId, requestId: request.id, requestUpdateId: update.id },
        note.attachmentIds,
      );
      if (problem) return refuse(problem);
      await transaction.update(requests).set({ updatedAt: now }).where(eq(requests.id, request.id));
      return loadUpdate(transaction, update.id);
    },
  );
  return outcome.done
    ? { added: true, update: outcome.result }
    : { added: false, reason: outcome.reason };
}

type CancelRequestResult =
  | { cancelled: true; request: RequestAnswer }
  | { cancelled: false; reason: 'not_found' | 'closed' };

/** Moves one of the member's open requests to `cancelled`, with its timeline entry. */
export async function cancelRequest(
  database: Database,
  clock: Clock,
  userId: number,
  requestId: string,
): Promise<CancelRequestResult> {
  const outcome = await refusable<RequestAnswer, 'not_found' | 'closed'>(
    database,
    async (transaction, refuse) => {
      const [request] = await transaction
        .select({ id: requests.id, status: requests.status })
        .from(requests)
        .where(and(eq(requests.id, requestId), eq(requests.userId, userId)))
        .for('update');
      if (!request) return refuse('not_found');
      if (!isOpenStatus(request.status)) return refuse('closed');
      const now = clock.now();
      await transaction
        .update(requests)
        .set({ status: 'cancelled', updatedAt: now })
        .where(eq(requests.id, request.id));
      await transaction.insert(requestUpdates).values({
        requestId: request.id,
        kind: 'status_changed',
        author: 'member',
        status: 'cancelled',
        createdAt: now,
      });
      const answer = await loadRequest(transaction, userId, request.id);
      if (!answer) throw new Error(`Request ${request.id} vanished while being cancelled.`);
      return answer;
    },
  );
  return outcome.done
    ? { cancelled: true, request: outcome.result }
    : { cancelled: false, reason: outcome.reason };
}
