import { defineMiddleware } from 'astro:middleware';
import { monitoring } from '../../../platform/monitoring.ts';
import { fetchCurrentUser, type CurrentUser } from '../api/profile';
import { readAheadPaths } from '../api/page-reads';
import { config } from '../config';
import { keepPageView, keptPageResponse, memberPageView } from '../member-pages/member-page-views';
import { monitoredMember } from '../monitoring/monitored-member';

/**
 * Signed-in pages show the member (initials, name), so the user is loaded once per page view,
 * before rendering starts: a 401 here still becomes a redirect. The page's own reads come in the
 * same call (src/server/api/page-reads.ts): one session check a page. A page the server kept for
 * this view (src/server/member-pages/member-page-views.ts) is sent again when that call answers
 * that the member's data is unchanged, without reads or rendering. A failure other than 401 is
 * re-thrown and shows the error page. From then on, errors of this request are reported as the
 * member's (by `external_id` only).
 */
export const currentUser = defineMiddleware(async (context, next) => {
  const { route } = context.locals;
  if (route.kind !== 'page' || route.route.guard !== 'auth') return next();
  const api = await context.locals.api();
  const view = memberPageView(context);
  const readAhead = await api.readAhead(readAheadPaths(route, context.url), {
    unlessVersion: view?.kept?.version,
  });
  if (view?.kept && readAhead.unchanged) {
    showMember(context.locals, view.kept.member);
    return keptPageResponse(view.kept);
  }
  const user = await fetchCurrentUser(api);
  showMember(context.locals, user);
  const response = await next();
  if (!view || readAhead.version === undefined) return response;
  return keepPageView(context, view, readAhead.version, user, response);
});

function showMember(locals: App.Locals, user: CurrentUser): void {
  locals.user = user;
  monitoring.identify(monitoredMember(user, config().internalCompanyNames));
}
