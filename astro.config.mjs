// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cspReportingDirectives } from './src/lib/csp-reporting.ts';
import { signedInPagePatterns, uploadBodyLimitBytes } from './src/routes.ts';
import { cachedCspDigests } from './src/astro-adjustments/build/cached-csp-digests.mjs';
import { islandModuleGraph } from './src/astro-adjustments/build/island-module-graph.mjs';
import { memberStylesheet } from './src/astro-adjustments/build/member-stylesheet.mjs';
import {
  pageOnlyStyleHashes,
  styleDigest,
} from './src/astro-adjustments/build/page-only-style-hashes.mjs';
import { reactIslands } from './src/astro-adjustments/build/react-islands.mjs';
import { settledContentStore } from './src/astro-adjustments/build/settled-content-store.mjs';
import { taggedComponents } from './src/astro-adjustments/build/tagged-components.mjs';
import { unusedDirectiveHashes } from './src/astro-adjustments/build/unused-directive-hashes.mjs';
import { contentEditor, contentEditorStorage } from './src/build/content-editor.mjs';
import { dataFolderAtDevStart } from './src/build/data-folder-at-dev-start.mjs';
import { localhostAtDevStart } from './src/build/localhost-at-dev-start.mjs';
import { layerOrder } from './src/styles/layer-order.mjs';
import { customPropertiesNamedIn, pruneUnusedTokens } from './src/styles/prune-unused-tokens.mjs';

/**
 * @template T
 * @param {() => T} make
 * @returns {() => T}
 */
const once = (make) => {
  /** @type {{ value: T } | undefined} */
  let made;
  return () => (made ??= { value: make() }).value;
};

/**
 * The folder the project's packages really are in: `node_modules`, or wherever a link in its place
 * leads (worktrees sharing one install; the copy `tests/e2e/dev-server.spec.ts` runs). The
 * development server serves files from the project and from here alone, and the islands' renderer
 * is one of them: refused, no island would hydrate under `npm run dev`.
 */
const packagesFolder = path.dirname(
  path.dirname(realpathSync(createRequire(import.meta.url).resolve('astro/package.json'))),
);

/**
 * Server-rendered Astro on Node (standalone). Pages render on the server;
 * React hydrates only the islands that need it.
 *
 * The embedded reference API (PGlite, pg) is loaded by Node at run time, not
 * bundled: PGlite finds its WebAssembly files next to its own module.
 */
// Behind a TLS-terminating proxy, Astro trusts the forwarded host and protocol only for the
// public origin named here (at build time); otherwise every form post would fail the origin check.
const publicOrigin = process.env.PUBLIC_ORIGIN ? new URL(process.env.PUBLIC_ORIGIN) : undefined;
// The content editor's own host in GitHub mode, likewise (src/server/content-editor-host.ts).
const contentEditorOrigin = process.env.CONTENT_EDITOR_ORIGIN
  ? new URL(process.env.CONTENT_EDITOR_ORIGIN)
  : undefined;

export default defineConfig({
  output: 'server',
  // The largest body any route takes (a storage upload); each route's own limit is applied by
  // the bodyLimit middleware, and scripts/start.mjs refuses longer bodies by their declared
  // length before reading them. Middleware mode: scripts/start.mjs serves the build's files
  // itself, from a list made at start, so that a page costs no file-system check. Pages are
  // rendered whole, then sent: streamed, a page went to the compressor in hundreds of small
  // pieces, which cost more than rendering it (docs/PERFORMANCE.md).
  adapter: node({
    mode: 'middleware',
    bodySizeLimit: uploadBodyLimitBytes,
    experimentalDisableStreaming: true,
  }),
  // All session state lives in our own cookies and the API (docs/ARCHITECTURE.md).
  session: false,
  // Vite's CSS files, which member-stylesheet (below) puts back inline in every page but the
  // signed-in ones, and joins into the one file those link.
  build: { inlineStylesheets: 'never' },
  integrations: [
    react(),
    // The content editors' editor, only in builds that may serve it
    // (docs/decisions/059-content-editor-keystatic.md).
    contentEditor(),
    localhostAtDevStart(),
    dataFolderAtDevStart(),
    reactIslands(),
    islandModuleGraph(),
    // Every page may carry the layer order and Astro's island style; its other styles it hashes
    // as it renders them.
    pageOnlyStyleHashes({ keptStyles: [layerOrder] }),
    // Signed-in pages link one stylesheet; the pages before sign-in keep theirs inline and fetch
    // it ahead (docs/decisions/073-signed-in-pages-link-their-stylesheet.md).
    memberStylesheet({ memberPagePatterns: signedInPagePatterns }),
    // Islands hydrate by the product's own directives only; Astro's five are never rendered,
    // but for the content editor's page, which hydrates by `client:only` in a build that has it.
    unusedDirectiveHashes({
      unused:
        contentEditorStorage('build', process.env) === 'github'
          ? ['load', 'idle', 'visible', 'media']
          : ['load', 'idle', 'visible', 'media', 'only'],
    }),
  ],
  // No code blocks in editor content; Shiki's inline styles would also need CSP exceptions.
  markdown: { syntaxHighlight: false },
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
  security: {
    // Our own check, in the middleware, lets the route table name the one route that takes posts
    // from another site (src/server/middleware/cross-site-posts.ts).
    checkOrigin: false,
    allowedDomains: [publicOrigin, contentEditorOrigin].flatMap((origin) =>
      origin ? [{ hostname: origin.hostname, protocol: origin.protocol.replace(':', '') }] : [],
    ),
    // The largest form any page takes (a new request with its file, posted without JavaScript);
    // the bodyLimit middleware holds every other route, RPC calls included, to its own limit.
    actionBodySizeLimit: uploadBodyLimitBytes,
    // One policy, in one header: Astro adds the hashes of every script and style it renders to
    // these directives. frame-ancestors works only in a header, which is where Astro puts it.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "form-action 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        ...cspReportingDirectives,
      ],
      styleDirective: { hashes: [styleDigest(layerOrder)] },
    },
  },
  vite: {
    plugins: [cachedCspDigests(), taggedComponents(), settledContentStore()],
    server: { fs: { allow: [fileURLToPath(new URL('.', import.meta.url)), packagesFolder] } },
    css: {
      postcss: {
        plugins: [
          pruneUnusedTokens({
            used: once(() =>
              customPropertiesNamedIn(fileURLToPath(new URL('src', import.meta.url))),
            ),
          }),
        ],
      },
    },
    // Vite's scan of the pages does not follow the ceremonies' bundle (below) to its dependency:
    // found only when a page first loads it, it would be bundled then and every open page of
    // `npm run dev` reloaded, cutting short whatever the member (or a test) was doing.
    optimizeDeps: { include: ['@simplewebauthn/browser'] },
    // The passkey ceremonies are built as a "worker" bundle (src/islands/passkey-ceremonies.ts), loaded as an
    // ES module on the page.
    worker: { format: 'es' },
    build: {
      rolldownOptions: {
        // Every constant an island imports is copied into it: a form's fallback message rides
        // with its own form instead of the whole catalogue riding with every form.
        optimization: { inlineConst: { mode: 'all' } },
        output: {
          codeSplitting: {
            // docs/PERFORMANCE.md: each of these requests costs a first visit on a phone, and
            // gzip compresses one script better than its pieces.
            groups: [
              {
                // React in one script rather than four (0.7 KB less than the pieces).
                name: 'react',
                test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/,
                priority: 20,
              },
              {
                // What every form island uses, in one script rather than seven (0.9 KB less):
                // the fields, the error summary, the button, and the action plumbing.
                name: 'form-kit',
                test: /[\\/]src[\\/](ui[\\/](TextInput|Field|ErrorSummary|Button|Ripple|Text)[\\/]|islands[\\/](use-form-action\.ts|island-actions\.ts|form-failure\.ts|account-form\.module\.css)|lib[\\/]xsrf-names\.ts)/,
                priority: 10,
              },
            ],
          },
        },
      },
    },
    ssr: {
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm'],
    },
  },
});
