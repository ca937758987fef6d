import { defineMiddleware } from 'astro:middleware';
import { config } from '../config';
import { editorOnlyHost, isServedOnHost } from '../content-editor-host';

/**
 * In GitHub mode, the content editor on its own host and nothing else there
 * (src/server/content-editor-host.ts): anything else is "Page not found", before a session is
 * read or a form or action is taken.
 */
export const contentEditorHost = defineMiddleware((context, next) => {
  const served = isServedOnHost({
    route: context.locals.route,
    routePattern: context.routePattern,
    // The name the browser asked for, which the server has checked (scripts/start.mjs); Astro's
    // own idea of the host follows only the names the build was told of.
    host: context.request.headers.get('host') ?? context.url.host,
    editorHost: editorOnlyHost({
      storage: import.meta.env.CONTENT_EDITOR,
      editorOrigin: config().contentEditorOrigin,
      development: import.meta.env.DEV,
    }),
  });
  return served ? next() : context.rewrite('/404');
});
