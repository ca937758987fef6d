import { z } from 'zod';
import { requestStatuses } from '../../lib/request-status';
import {
  firstPage,
  listPositionFrom,
  writeListPosition,
  type ListPosition,
} from '../../lib/list-position';
import {
  requestStatusTabFrom,
  requestStatusTabs,
  tabParameter,
} from '../../lib/request-status-tabs';
import { ApiError, type ApiClient } from './client';

/**
 * Typed readers of the requests, categories and files calls. Every answer is checked against the
 * contract before a page sees it; a shape that does not match becomes an `ApiError` 502, so a page
 * shows the error page rather than half a request.
 */

/** The icons a category may carry. */
const categoryIcons = ['home', 'travel', 'health', 'finance', 'family', 'errands'] as const;

export type CategoryIcon = (typeof categoryIcons)[number];

const moment = z.iso.datetime({ offset: true });

const categorySchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  // An icon this web tier does not know yet is left out rather than failing the whole page.
  icon: z.enum(categoryIcons).nullable().catch(null),
});

/** A request category: `id` is a readable slug such as `travel`. */
export type Category = z.infer<typeof categorySchema>;

const attachmentSchema = z.object({
  id: z.string().min(1),
  filename: z.string(),
  content_type: z.string(),
  byte_size: z.number().int().nonnegative(),
  created_at: moment,
});

/** A file of a request or of one of its notes. */
export type Attachment = z.infer<typeof attachmentSchema>;

const statusSchema = z.enum(requestStatuses);

const requestSummarySchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  status: statusSchema,
  category: categorySchema,
  created_at: moment,
  updated_at: moment,
  attachment_count: z.number().int().nonnegative(),
});

/** A request as lists show it. */
export type RequestSummary = z.infer<typeof requestSummarySchema>;

const requestUpdateSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['created', 'status_changed', 'note']),
  author: z.enum(['member', 'concierge']),
  body: z.string().nullable(),
  /** The new status of a `status_changed` entry; null for the other kinds. */
  status: statusSchema.nullable(),
  created_at: moment,
  attachments: z.array(attachmentSchema),
});

/** One entry of a request's timeline. */
export type RequestUpdate = z.infer<typeof requestUpdateSchema>;

const requestDetailSchema = requestSummarySchema.extend({
  details: z.string().nullable(),
  timeline: z.array(requestUpdateSchema),
  attachments: z.array(attachmentSchema),
});

/**
 * One request with its details, timeline (oldest first) and every file of it and its notes.
 * Not named `Request`, which would hide the Fetch API's `Request` wherever it is imported.
 */
export type RequestDetail = z.infer<typeof requestDetailSchema>;

const pageMetaSchema = z.object({
  page: z.number().int().positive(),
  per_page: z.number().int().positive(),
  total_count: z.number().int().nonnegative(),
  total_pages: z.number().int().nonnegative(),
  // The pages either side by position; an API that pages by number alone may leave them out.
  next_cursor: z.string().min(1).nullable().default(null),
  previous_cursor: z.string().min(1).nullable().default(null),
});

/** Where a page of a list stands: 10 to a page, most recently updated first. */
export type PageMeta = z.infer<typeof pageMetaSchema>;

const requestPageSchema = z.object({
  requests: z.array(requestSummarySchema),
  meta: pageMetaSchema,
});

/** One page of the member's requests. */
export type RequestPage = z.infer<typeof requestPageSchema>;

const categoryPageSchema = requestPageSchema.extend({ category: categorySchema });

/** A category and one page of the member's requests in it. */
type CategoryPage = z.infer<typeof categoryPageSchema>;

const recentUpdateSchema = requestUpdateSchema.extend({
  request_id: z.string().min(1),
  request_title: z.string(),
});

/** A timeline entry as the dashboard lists it, with the request it belongs to. */
export type RecentUpdate = z.infer<typeof recentUpdateSchema>;

const dashboardSchema = z.object({
  open_request_count: z.number().int().nonnegative(),
  open_requests: z.array(requestSummarySchema),
  recent_updates: z.array(recentUpdateSchema),
  categories: z.array(categorySchema),
  /** Partner offer ids; their words and addresses are the web tier's. */
  offers: z.array(z.string()),
});

/** What the dashboard shows. */
export type Dashboard = z.infer<typeof dashboardSchema>;

const downloadSchema = z.object({ url: z.string().min(1), expires_at: moment });

/** A short-lived signed address that serves one file. */
export type Download = z.infer<typeof downloadSchema>;

/** Which requests a list shows: `open` is submitted, in progress or waiting on the member. */
export type RequestFilter = 'open' | 'closed';

/** Ids in paths are the API's to judge; only what could never be one is refused here. */
const plausibleId = /^[\w-]{1,100}$/;

/**
 * Runs an API read and answers `undefined` when the API says the thing is not there (404): an
 * unknown id or someone else's (never 403). Any other failure is thrown.
 */
async function unlessNotFound<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export const dashboardPath = '/api/v1/dashboard';

export async function fetchDashboard(api: ApiClient): Promise<Dashboard> {
  const { data } = await api.request('GET', dashboardPath, { schema: dashboardSchema });
  return data;
}

interface RequestsQuery {
  status?: RequestFilter | undefined;
  position?: ListPosition | undefined;
}

/** The API's address of one page of the member's requests. */
export function requestsPath({ status, position = firstPage }: RequestsQuery = {}): string {
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  writeListPosition(query, position);
  return `/api/v1/requests?${query.toString()}`;
}

/** One page of the member's requests, open or closed (every request when no filter is given). */
export async function fetchRequests(
  api: ApiClient,
  query: RequestsQuery = {},
): Promise<RequestPage> {
  const { data } = await api.request('GET', requestsPath(query), { schema: requestPageSchema });
  return data;
}

/**
 * What the Requests page lists for an address (`?tab=`, and `?page=`, `?after=` or `?before=`):
 * the addressed tab at its position, the other tab at its first page.
 */
export function requestsPageLists(search: URLSearchParams) {
  const selectedTab = requestStatusTabFrom(search.get(tabParameter));
  const requested = listPositionFrom(search);
  const lists = requestStatusTabs.map((tab) => ({
    tab,
    status: tab.filter,
    position: tab === selectedTab ? requested : firstPage,
  }));
  return { selectedTab, lists };
}

/** The API's address of one of the member's requests; undefined for what could never be an id. */
export function requestPath(requestId: string): string | undefined {
  return plausibleId.test(requestId) ? `/api/v1/requests/${requestId}` : undefined;
}

/** The member's request, or `undefined` when there is none of theirs with that id. */
export async function fetchRequest(
  api: ApiClient,
  requestId: string,
): Promise<RequestDetail | undefined> {
  const path = requestPath(requestId);
  if (path === undefined) return undefined;
  return unlessNotFound(async () => {
    const { data } = await api.request('GET', path, { schema: requestDetailSchema });
    return data;
  });
}

export const categoriesPath = '/api/v1/request_categories';

/** Every category, in display order. */
export async function fetchCategories(api: ApiClient): Promise<Category[]> {
  const { data } = await api.request('GET', categoriesPath, {
    schema: z.object({ categories: z.array(categorySchema) }),
  });
  return data.categories;
}

/** The API's address of a category's page of requests; undefined for what could never be an id. */
export function categoryPath(
  categoryId: string,
  position: ListPosition = firstPage,
): string | undefined {
  if (!plausibleId.test(categoryId)) return undefined;
  const query = new URLSearchParams();
  writeListPosition(query, position);
  const search = query.toString();
  return `/api/v1/request_categories/${categoryId}${search ? `?${search}` : ''}`;
}

/** A category with one page of the member's requests in it, or `undefined` for an unknown one. */
export async function fetchCategory(
  api: ApiClient,
  categoryId: string,
  position: ListPosition = firstPage,
): Promise<CategoryPage | undefined> {
  const path = categoryPath(categoryId, position);
  if (path === undefined) return undefined;
  return unlessNotFound(async () => {
    const { data } = await api.request('GET', path, { schema: categoryPageSchema });
    return data;
  });
}

/** The API's address of a file's download; undefined for what could never be an id. */
export function downloadPath(attachmentId: string): string | undefined {
  return plausibleId.test(attachmentId) ? `/api/v1/attachments/${attachmentId}` : undefined;
}

/**
 * A signed download address for one of the member's files, or `undefined` when the file is not
 * theirs (or does not exist).
 */
export async function fetchDownload(
  api: ApiClient,
  attachmentId: string,
): Promise<Download | undefined> {
  const path = downloadPath(attachmentId);
  if (path === undefined) return undefined;
  return unlessNotFound(async () => {
    const { data } = await api.request('GET', path, { schema: downloadSchema });
    return data;
  });
}

/** What a new request is made of: the ids of files already sent to storage, at most one. */
export interface NewRequest {
  readonly categoryId: string;
  readonly title: string;
  readonly details: string;
  readonly attachmentIds: readonly string[];
}

/** Makes a request for the member; answers its id. */
export async function createRequest(api: ApiClient, request: NewRequest): Promise<string> {
  const { data } = await api.request('POST', '/api/v1/requests', {
    body: {
      request: {
        category_id: request.categoryId,
        title: request.title,
        details: request.details,
        attachment_ids: request.attachmentIds,
      },
    },
    schema: z.object({ id: z.string().min(1) }),
  });
  return data.id;
}

/** Adds a note (words, files, or both) to one of the member's requests. */
export async function addNoteToRequest(
  api: ApiClient,
  requestId: string,
  note: { readonly body: string; readonly attachmentIds: readonly string[] },
): Promise<void> {
  await api.request('POST', `/api/v1/requests/${encodeURIComponent(requestId)}/notes`, {
    body: { note: { body: note.body, attachment_ids: note.attachmentIds } },
  });
}

/** Cancels one of the member's open requests. */
export async function cancelRequest(api: ApiClient, requestId: string): Promise<void> {
  await api.request('POST', `/api/v1/requests/${encodeURIComponent(requestId)}/cancel`);
}
