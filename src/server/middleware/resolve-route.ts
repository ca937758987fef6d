import { defineMiddleware } from 'astro:middleware';
import { matchRoute } from '../../routes';

/** Resolves the request against the route table once, for every later concern. */
export const resolveRoute = defineMiddleware((context, next) => {
  context.locals.route = matchRoute(context.url.pathname);
  return next();
});
