import { defineMiddleware } from 'astro:middleware';
import { matchRoute } from '../../route-matching';

/** The error page's own route, which Astro renders through the middleware again. */
const errorPagePattern = '/500';

/**
 * Resolves the request against the route table once, for every later concern. The error page is
 * shown at the address that failed: it must not be taken for that page again (its guard, its
 * member to load), so it resolves as a page the table does not know.
 */
export const resolveRoute = defineMiddleware((context, next) => {
  context.locals.route =
    context.routePattern === errorPagePattern
      ? { kind: 'not-found' }
      : matchRoute(context.url.pathname);
  return next();
});
