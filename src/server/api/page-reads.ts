import type { RouteMatch } from '../../route-matching';
import type { RouteName } from '../../routes';
import { listPositionFrom } from '../../lib/list-position';
import {
  deviceSessionsPath,
  fetchDeviceSessions,
  fetchRememberedDevices,
  rememberedDevicesPath,
} from './devices';
import { currentUserPath } from './profile';
import {
  fetchSecurityEvents,
  securityEventsPath,
  securityEventsPositionFrom,
} from './security-events';
import type { ApiClient } from './client';
import { fetchMfaStatus, mfaStatusPath } from './mfa';
import { fetchPasskeys, passkeysPath } from './passkeys';
import {
  categoriesPath,
  categoryPath,
  dashboardPath,
  downloadPath,
  fetchCategories,
  fetchCategory,
  fetchDashboard,
  fetchDownload,
  fetchRequest,
  fetchRequests,
  requestPath,
  requestsPageLists,
  requestsPath,
  type Category,
  type RequestDetail,
} from './requests';

/**
 * One API read of a page: its address, known before the page renders, and the call the page makes
 * for it. `path` is undefined when the read asks the API nothing (an id that could never be one).
 */
interface PageRead<T> {
  readonly path: string | undefined;
  readonly read: (api: ApiClient) => Promise<T>;
}

/** What a page's reads depend on: its route parameters and its address (`Astro` has both). */
interface PageAddress {
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly url: URL;
}

type PageReadsOf = (page: PageAddress) => Readonly<Record<string, PageRead<unknown>>>;

const categoriesRead: PageRead<Category[]> = { path: categoriesPath, read: fetchCategories };

function requestRead(requestId: string): PageRead<RequestDetail | undefined> {
  return { path: requestPath(requestId), read: (api: ApiClient) => fetchRequest(api, requestId) };
}

/**
 * The API reads of each signed-in page, said once: the page makes its calls through these
 * (`pageReads.Dashboard(Astro).dashboard.read(api)`), and the read-ahead batch takes their
 * addresses ({@link readAheadPaths}). A read the page then does not make (a passkey list for a
 * member without passkeys) costs a query; a call made around these goes to the API on its own,
 * which the statement-count test (tests/e2e/statements-per-page.spec.ts) would show.
 */
export const pageReads = {
  Dashboard: () => ({ dashboard: { path: dashboardPath, read: fetchDashboard } }),
  Requests: ({ url }: PageAddress) => {
    const [open, closed] = requestsPageLists(url.searchParams).lists.map((query) => ({
      path: requestsPath(query),
      read: (api: ApiClient) => fetchRequests(api, query),
    }));
    if (!open || !closed) throw new Error('the Requests page lists an open and a closed tab');
    return { open, closed, categories: categoriesRead };
  },
  Request: ({ params }: PageAddress) => ({ request: requestRead(params['requestId'] ?? '') }),
  // The file's download is signed ahead too: used only when the request lists it.
  RequestAttachment: ({ params }: PageAddress) => {
    const attachmentId = params['attachmentId'] ?? '';
    return {
      request: requestRead(params['requestId'] ?? ''),
      download: {
        path: downloadPath(attachmentId),
        read: (api: ApiClient) => fetchDownload(api, attachmentId),
      },
    };
  },
  RequestCategory: ({ params, url }: PageAddress) => {
    const categoryId = params['categoryId'] ?? '';
    const position = listPositionFrom(url.searchParams);
    return {
      category: {
        path: categoryPath(categoryId, position),
        read: (api: ApiClient) => fetchCategory(api, categoryId, position),
      },
      // Its new-request form lists every category.
      categories: categoriesRead,
    };
  },
  // Which factors there are matters only to a member who has the step on; read ahead for all,
  // the member is not known yet.
  AccountSecurity: () => ({
    status: { path: mfaStatusPath, read: fetchMfaStatus },
    passkeys: { path: passkeysPath, read: fetchPasskeys },
  }),
  AccountDevices: () => ({
    sessions: { path: deviceSessionsPath, read: fetchDeviceSessions },
    remembered: { path: rememberedDevicesPath, read: fetchRememberedDevices },
  }),
  AccountActivity: ({ url }: PageAddress) => {
    const position = securityEventsPositionFrom(url.searchParams);
    return {
      events: {
        path: securityEventsPath(position),
        read: (api: ApiClient) => fetchSecurityEvents(api, position),
      },
    };
  },
} satisfies Partial<Record<RouteName, PageReadsOf>>;

type PageMatch = Extract<RouteMatch, { kind: 'page' }>;

/**
 * What a signed-in page view reads ahead in one call before the page renders
 * (`ApiClient.readAhead`): the member its layout shows and the page's own reads, so that a page
 * view checks the session once and loads the member once.
 */
export function readAheadPaths({ route, params }: PageMatch, url: URL): string[] {
  const readsOf: PageReadsOf | undefined = (pageReads as Partial<Record<RouteName, PageReadsOf>>)[
    route.name
  ];
  const reads = readsOf ? Object.values(readsOf({ params, url })) : [];
  return [currentUserPath, ...reads.flatMap(({ path }) => (path === undefined ? [] : [path]))];
}
