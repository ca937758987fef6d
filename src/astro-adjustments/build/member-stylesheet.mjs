/**
 * Signed-in pages link one stylesheet; every other page keeps its styles inline.
 *
 * A first visit must paint without waiting for a file, so the pages before sign-in carry their
 * styles in their HTML (decision 028). A member's pages are rendered again and again, and inline
 * styles were half of each one's HTML: sent, compressed and rendered as text every time. So the
 * build (with `build.inlineStylesheets: 'never'`, each page listing Vite's CSS files) rewrites the
 * server's manifest once the whole build is done:
 *
 * - the pages named by `memberPages` (the route table's signed-in pages) link one file,
 *   `_astro/member.<digest>.css`, made here from every file any of them uses, in a stable order;
 * - every other page gets its files inline again, as `inlineStylesheets: 'always'` wrote them;
 * - the address of the member stylesheet replaces `memberStylesheetMarker` in the server's code,
 *   so that the pages before sign-in can have the browser fetch it ahead, at leisure;
 * - Vite's CSS files, which no page links any more, are removed.
 *
 * The order of rules between files does not matter: every rule sits in a cascade layer whose order
 * the page states first (src/styles/layer-order.mjs), and Vite's own order already differs from
 * page to page. The build stops if the manifest is not shaped as expected.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memberStylesheetMarker } from '../../lib/member-stylesheet.ts';

const routesKey = '"routes":';

/**
 * The manifest's routes in a server module's code, with where their JSON starts and ends, or
 * `undefined` when the code holds no manifest.
 *
 * @param {string} code
 * @returns {{ routes: ManifestRoute[], start: number, end: number } | undefined}
 */
export function manifestRoutesOf(code) {
  const key = code.indexOf(`${routesKey}[`);
  if (key === -1) return undefined;
  const start = key + routesKey.length;
  let depth = 0;
  let inString = false;
  for (let index = start; index < code.length; index += 1) {
    const character = code[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === '[' || character === '{') {
      depth += 1;
    } else if ((character === ']' || character === '}') && --depth === 0) {
      const end = index + 1;
      return { routes: JSON.parse(code.slice(start, end)), start, end };
    }
  }
  throw new Error('member-stylesheet: the manifest’s routes do not end');
}

/**
 * Lists merged into one, each item once, every list's own order kept where the lists agree: an
 * item new to the merge goes right after the item before it in its list, or first.
 *
 * @param {readonly (readonly string[])[]} lists
 * @returns {string[]}
 */
export function mergedInOrder(lists) {
  /** @type {string[]} */
  const merged = [];
  for (const list of lists) {
    let after = -1;
    for (const item of list) {
      const at = merged.indexOf(item);
      if (at === -1) {
        merged.splice(after + 1, 0, item);
        after += 1;
      } else {
        after = Math.max(after, at);
      }
    }
  }
  return merged;
}

/**
 * The URLPattern pathname of one of Astro's routes (`/requests/[requestId]` is
 * `/requests/:requestId`), as the route table writes it.
 *
 * @param {string} astroRoute
 */
export const routePatternOf = (astroRoute) =>
  astroRoute.replace(/\[(\w+)\]/gu, (_, name) => `:${name}`);

/**
 * @typedef {{ type: 'inline', content: string } | { type: 'external', src: string }} RouteStyle
 * @typedef {{ routeData: { route: string }, styles: RouteStyle[] }} ManifestRoute
 */

/**
 * The manifest's routes with the member pages linking `memberStylesheet` and the others' styles
 * inline, and the member stylesheet's files in order.
 *
 * @param {readonly ManifestRoute[]} routes
 * @param {ReadonlySet<string>} memberPatterns The route table's patterns of the member pages.
 * @param {(src: string) => string} cssOf A CSS file's text, by its address in the manifest.
 * @param {string} memberStylesheet Its address in the manifest.
 */
export function withMemberStylesheet(routes, memberPatterns, cssOf, memberStylesheet) {
  const externalOf = (/** @type {ManifestRoute} */ route) =>
    route.styles.map((style) => {
      if (style.type !== 'external') {
        throw new Error(
          `member-stylesheet: ${route.routeData.route} has an inline style; the build must ` +
            `run with build.inlineStylesheets: 'never'`,
        );
      }
      return style.src;
    });
  const isMemberPage = (/** @type {ManifestRoute} */ route) =>
    memberPatterns.has(routePatternOf(route.routeData.route));
  const found = new Set(routes.filter(isMemberPage).map((r) => routePatternOf(r.routeData.route)));
  const missing = [...memberPatterns].filter((pattern) => !found.has(pattern));
  if (missing.length > 0) {
    throw new Error(`member-stylesheet: no page in the manifest for ${missing.join(', ')}`);
  }
  const memberFiles = mergedInOrder(routes.filter(isMemberPage).map(externalOf));
  const rewritten = routes.map((route) => {
    const files = externalOf(route);
    if (files.length === 0) return route;
    /** @type {RouteStyle[]} */
    const styles = isMemberPage(route)
      ? [{ type: 'external', src: memberStylesheet }]
      : [{ type: 'inline', content: files.map(cssOf).join('') }];
    return { ...route, styles };
  });
  return { routes: rewritten, memberFiles };
}

/**
 * @param {{ memberPagePatterns: readonly string[] }} options The route table's patterns of the
 *   pages that link the member stylesheet.
 * @returns {import('astro').AstroIntegration}
 */
export function memberStylesheet({ memberPagePatterns }) {
  /** @type {string | undefined} */
  let serverDir;
  /** @type {string | undefined} */
  let clientDir;
  return {
    name: 'member-stylesheet',
    hooks: {
      'astro:config:done': ({ config }) => {
        if (config.build.inlineStylesheets !== 'never') {
          throw new Error("member-stylesheet: set build.inlineStylesheets: 'never'");
        }
        serverDir = fileURLToPath(config.build.server);
        clientDir = fileURLToPath(config.build.client);
      },
      'astro:build:done': async () => {
        if (!serverDir || !clientDir) throw new Error('member-stylesheet: no build folders');
        const modules = [];
        for (const entry of await readdir(serverDir, { recursive: true })) {
          if (!entry.endsWith('.mjs')) continue;
          const file = join(serverDir, entry);
          modules.push({ file, code: await readFile(file, 'utf8') });
        }
        const manifests = modules.filter(({ code }) => code.includes(`${routesKey}[`));
        const [manifest] = manifests;
        if (!manifest || manifests.length !== 1) {
          throw new Error(`member-stylesheet: found ${manifests.length} manifests, expected 1`);
        }
        const found = manifestRoutesOf(manifest.code);
        if (!found) throw new Error('member-stylesheet: the manifest has no routes');

        /** @type {Map<string, string>} */
        const texts = new Map();
        for (const route of found.routes) {
          for (const style of route.styles) {
            if (style.type === 'external' && !texts.has(style.src)) {
              texts.set(style.src, await readFile(join(clientDir, style.src), 'utf8'));
            }
          }
        }
        const cssOf = (/** @type {string} */ src) => texts.get(src) ?? '';
        const placeholder = '\u0000member-stylesheet\u0000';
        const { routes, memberFiles } = withMemberStylesheet(
          found.routes,
          new Set(memberPagePatterns),
          cssOf,
          placeholder,
        );
        const css = memberFiles.map(cssOf).join('');
        const digest = createHash('sha256').update(css).digest('base64url').slice(0, 10);
        const src = `_astro/member.${digest}.css`;
        await writeFile(join(clientDir, src), css);

        const routesJson = JSON.stringify(routes).replaceAll(
          JSON.stringify(placeholder).slice(1, -1),
          src,
        );
        manifest.code =
          manifest.code.slice(0, found.start) + routesJson + manifest.code.slice(found.end);

        const naming = modules.filter(({ code }) => code.includes(memberStylesheetMarker));
        if (naming.length === 0) {
          throw new Error(`member-stylesheet: no server module names ${memberStylesheetMarker}`);
        }
        for (const module of naming) {
          module.code = module.code.replaceAll(memberStylesheetMarker, `/${src}`);
        }
        for (const module of new Set([manifest, ...naming])) {
          await writeFile(module.file, module.code);
        }
        // Every page now has these inline or in the member stylesheet: none links them.
        for (const file of texts.keys()) await rm(join(clientDir, file));
      },
    },
  };
}
