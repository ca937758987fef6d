import { defineMiddleware } from 'astro:middleware';
import { guardRedirect } from './route-guards';

const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A post to a page only members see is held to that page's guard before anything reads its body: a
 * visitor without a session, or with a code still to enter, goes where the guard sends them (303,
 * as the action's own 401 would) and what they sent is never read, not even for its XSRF token. The
 * other guards run after the form's action, in routeGuards.
 */
export const memberOnlyPosts = defineMiddleware((context, next) => {
  const { route } = context.locals;
  if (readOnlyMethods.has(context.request.method)) return next();
  if (route.kind !== 'page' || route.route.guard !== 'auth') return next();
  const redirect = guardRedirect('auth', context);
  return typeof redirect === 'string' ? context.redirect(redirect, 303) : next();
});
