import type { RouteMatch } from '../../routes';
import { listPositionFrom } from '../../lib/list-position';
import {
  currentUserPath,
  deviceSessionsPath,
  rememberedDevicesPath,
  securityEventsPath,
  securityEventsPositionFrom,
} from './accounts';
import { mfaStatusPath } from './mfa';
import { passkeysPath } from './passkeys';
import {
  categoriesPath,
  categoryPath,
  dashboardPath,
  downloadPath,
  requestPath,
  requestsPageLists,
  requestsPath,
} from './requests';

type PageMatch = Extract<RouteMatch, { kind: 'page' }>;

/**
 * The API reads a signed-in page makes, beside the member its layout shows: read ahead in one
 * call before the page renders (`ApiClient.readAhead`), so that a page view checks the session
 * once and loads the member once (docs/PRODUCT.md §14). Each list mirrors what the page's own
 * code asks for, with the same path builders; a read the page then does not make costs a query,
 * and a call the list misses goes to the API on its own, which the statement-count test
 * (tests/e2e/statements-per-page.spec.ts) would show.
 */
export function pageReads({ route, params }: PageMatch, url: URL): string[] {
  return [currentUserPath, ...readsOf(route.name, params, url.searchParams)];
}

function readsOf(
  name: PageMatch['route']['name'],
  params: Record<string, string>,
  search: URLSearchParams,
): string[] {
  switch (name) {
    case 'Dashboard':
      return [dashboardPath];
    case 'Requests':
      return [
        ...requestsPageLists(search).lists.map(({ status, position }) =>
          requestsPath({ status, position }),
        ),
        categoriesPath,
      ];
    case 'Request':
      return present(requestPath(params.requestId ?? ''));
    // The file's download is signed ahead too: used only when the request lists it.
    case 'RequestAttachment':
      return [
        ...present(requestPath(params.requestId ?? '')),
        ...present(downloadPath(params.attachmentId ?? '')),
      ];
    case 'RequestCategory':
      // Its new-request form lists every category.
      return [
        ...present(categoryPath(params.categoryId ?? '', listPositionFrom(search))),
        categoriesPath,
      ];
    // Which factors there are matters only to a member who has the step on; read ahead for all,
    // the member is not known yet.
    case 'AccountSecurity':
      return [mfaStatusPath, passkeysPath];
    case 'AccountDevices':
      return [deviceSessionsPath, rememberedDevicesPath];
    case 'AccountActivity':
      return [securityEventsPath(securityEventsPositionFrom(search))];
    default:
      return [];
  }
}

const present = (path: string | undefined): string[] => (path === undefined ? [] : [path]);
