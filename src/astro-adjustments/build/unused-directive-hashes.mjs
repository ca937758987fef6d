/**
 * Astro puts the digest of every client directive's script into the script-src of every page's
 * Content-Security-Policy, its own five (`load`, `idle`, `visible`, `media`, `only`) included,
 * though the product's islands hydrate only by its own (`client:paint`, `client:onscreen`;
 * src/astro-adjustments/build/unused-directive-hashes.test.ts fails on any other in a page). That
 * was 0.3 KB of header on every answer, enough to push the Dashboard past the 14.6 KB a new
 * connection's first round trip carries. This integration rewrites the policy the build serialized
 * without the digests of the directives named unused. The build stops if the manifest is not shaped
 * as expected, or does not carry one of them.
 */
import { createHash } from 'node:crypto';
import { serverModuleRewriting } from './rewrite-server-module.mjs';

const clientDirectives = /"clientDirectives":(\[\[.*?\]\]),"/;
const hashLists = /"(scriptHashes|hashes)":(\[[^\]]*\])/g;
const scriptDirective = /"scriptDirective":\{"resources":\[[^\]]*\],"hashes":\[[^\]]*\][^}]*\}/g;

/** @param {string} script */
const digestOf = (script) => `sha256-${createHash('sha256').update(script).digest('base64')}`;

/**
 * The serialized manifest without the script digests of the `unused` directives, or `undefined`
 * when `code` holds no manifest.
 *
 * @param {string} code
 * @param {readonly string[]} unused
 * @returns {string | undefined}
 */
export function withoutUnusedDirectiveHashes(code, unused) {
  const directives = clientDirectives.exec(code);
  if (!directives) return undefined;
  const scriptLists = code.match(scriptDirective)?.length ?? 0;
  if (scriptLists !== 1) {
    throw new Error(
      `unused-directive-hashes: expected one scriptDirective in the manifest, found ` +
        `${scriptLists}; check this integration against this version of Astro`,
    );
  }
  const scripts = new Map(/** @type {[string, string][]} */ (JSON.parse(directives[1] ?? '[]')));
  const dropped = new Set(
    unused.map((name) => {
      const script = scripts.get(name);
      if (script === undefined) {
        throw new Error(`unused-directive-hashes: the manifest has no client directive "${name}"`);
      }
      return digestOf(script);
    }),
  );
  const withoutDropped = (/** @type {string} */ list) =>
    JSON.stringify(
      /** @type {string[]} */ (JSON.parse(list)).filter((digest) => !dropped.has(digest)),
    );
  return code
    .replace(scriptDirective, (directive) =>
      directive.replace(hashLists, (_, name, list) => `"${name}":${withoutDropped(list)}`),
    )
    .replace(/"scriptHashes":(\[[^\]]*\])/, (_, list) => `"scriptHashes":${withoutDropped(list)}`);
}

/**
 * @param {{ unused: readonly string[] }} options
 * @returns {import('astro').AstroIntegration}
 */
export function unusedDirectiveHashes({ unused }) {
  return serverModuleRewriting({
    name: 'unused-directive-hashes',
    marker: '"clientDirectives"',
    rewrite: (code) => withoutUnusedDirectiveHashes(code, unused),
  });
}
