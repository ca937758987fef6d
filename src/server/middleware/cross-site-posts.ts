import { defineMiddleware } from 'astro:middleware';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
const formTypes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * Refuses (403) a post from another site before anything reads it: a form (or a body without a
 * type) whose `Origin` is not the site's own. Astro's own origin check does the same for every
 * route alike; it is off (astro.config.mjs) so that the table can name the one route a provider's
 * page posts to from its own site (`crossSitePosts`: a SAML answer). Posts with another type of
 * body (JSON) need a CORS preflight from another site, which nothing here answers.
 */
export const crossSitePosts = defineMiddleware((context, next) => {
  const { request, url, locals } = context;
  if (safeMethods.has(request.method)) return next();
  if (locals.route.kind === 'page' && locals.route.route.crossSitePosts) return next();
  if (request.headers.get('origin') === url.origin) return next();
  const type = request.headers.get('content-type');
  const formLike = type === null || formTypes.some((form) => type.toLowerCase().includes(form));
  if (!formLike) return next();
  return new Response(`Cross-site ${request.method} form submissions are forbidden`, {
    status: 403,
  });
});
