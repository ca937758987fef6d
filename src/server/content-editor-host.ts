import type { RouteMatch } from '../route-matching';
import type { RouteName } from '../routes';

/**
 * In GitHub mode the content editor is served on a host of its own (CONTENT_EDITOR_ORIGIN), and
 * nothing of the member portal is served there: Keystatic keeps its GitHub token in a cookie that
 * scripts can read, for the whole of its host, so no portal script may ever run on that host, and
 * the portal's cookies never reach it.
 */

/** The editor's page and its API. */
const editorRoutes: ReadonlySet<RouteName> = new Set(['ContentEditor', 'ContentEditorApi']);

/** Answered on the editor's host too: the probes, and the reports of its page's policy. */
const everyHostRoutes: ReadonlySet<RouteName> = new Set(['Health', 'Ready', 'CspReports']);

/**
 * Astro's error pages, which a refused request is answered with (Astro also names the 404 page as
 * the route of an address it has no file for, such as `/`, which the route table may know).
 */
const errorPagePatterns: ReadonlySet<string> = new Set(['/404', '/500']);

/**
 * The host (`name[:port]`, as in `Host`) the editor alone is served on; `undefined` when the
 * editor shares the server's hosts (no editor, its local mode, or `astro dev` in GitHub mode
 * without an address for it), and `null` when it must be served nowhere (GitHub mode without an
 * address; the server refuses to start before, src/server/content-editor-settings.ts).
 */
export function editorOnlyHost({
  storage,
  editorOrigin,
  development,
}: {
  storage: string | undefined;
  editorOrigin: string | undefined;
  development: boolean;
}): string | null | undefined {
  if (storage !== 'github') return undefined;
  if (editorOrigin) return new URL(editorOrigin).host;
  return development ? undefined : null;
}

/**
 * Whether a request for `route` (Astro's `routePattern` for it) on `host` is answered; anything
 * else is "Page not found".
 */
export function isServedOnHost({
  route,
  routePattern,
  host,
  editorHost,
}: {
  route: RouteMatch;
  routePattern: string;
  host: string;
  editorHost: string | null | undefined;
}): boolean {
  if (editorHost === undefined) return true;
  const forEditor = route.kind === 'page' && editorRoutes.has(route.route.name);
  if (editorHost === null || host.toLowerCase() !== editorHost) return !forEditor;
  return (
    forEditor ||
    (route.kind === 'page' && everyHostRoutes.has(route.route.name)) ||
    (route.kind === 'not-found' && errorPagePatterns.has(routePattern))
  );
}
