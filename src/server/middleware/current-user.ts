import { defineMiddleware } from 'astro:middleware';
import { fetchCurrentUser } from '../accounts';

/**
 * Signed-in pages show the member (initials, name), so the user is loaded once
 * per page view, before rendering starts: a 401 here still becomes a redirect.
 * A failure other than 401 is re-thrown (docs/PRODUCT.md §4) and shows the error page.
 */
export const currentUser = defineMiddleware(async (context, next) => {
  const { route } = context.locals;
  if (route.kind === 'page' && route.route.guard === 'auth') {
    context.locals.user = await fetchCurrentUser(await context.locals.api());
  }
  return next();
});
