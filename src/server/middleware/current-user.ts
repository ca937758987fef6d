import { defineMiddleware } from 'astro:middleware';
import { monitoring } from '../../../api/monitoring.ts';
import { fetchCurrentUser } from '../api/accounts';
import { pageReads } from '../api/page-reads';
import { config } from '../config';
import { monitoredMember } from '../monitoring/monitored-member';

/**
 * Signed-in pages show the member (initials, name), so the user is loaded once
 * per page view, before rendering starts: a 401 here still becomes a redirect. The page's own
 * reads come in the same call (src/server/api/page-reads.ts): one session check a page.
 * A failure other than 401 is re-thrown (docs/PRODUCT.md §4) and shows the error page. From then
 * on, errors of this request are reported as the member's (by `external_id` only).
 */
export const currentUser = defineMiddleware(async (context, next) => {
  const { route } = context.locals;
  if (route.kind === 'page' && route.route.guard === 'auth') {
    const api = await context.locals.api();
    await api.readAhead(pageReads(route, context.url));
    const user = await fetchCurrentUser(api);
    context.locals.user = user;
    monitoring.identify(monitoredMember(user, config().internalCompanyNames));
  }
  return next();
});
