/**
 * Astro puts the digest of every inline style of every page into the style-src of every page's
 * Content-Security-Policy, although it also hashes the styles each page renders when it renders it.
 * With the product's styles inline that was 43 digests, 2.1 KB of header on every answer, which
 * pushed the signed-in pages past the 14 KB a new connection's first round trip carries. This
 * integration rewrites the policy the build serialized so that it names only the styles every page
 * may carry (the layer order, Astro's island style); each page adds its own when it renders. The
 * build stops if the manifest is not shaped as expected.
 */
import { createHash } from 'node:crypto';
import { ISLAND_STYLES } from 'astro/runtime/server/astro-island-styles.js';
import { serverModuleRewriting } from './rewrite-server-module.mjs';

const styleDirective = /"styleDirective":\{"resources":(\[[^\]]*\]),"hashes":\[[^\]]*\]\}/g;
const styleHashes = /"styleHashes":\[[^\]]*\]/g;

/**
 * The serialized manifest with only `keptHashes` as the site-wide style digests, or `undefined`
 * when `code` holds no manifest.
 *
 * @param {string} code
 * @param {readonly string[]} keptHashes
 * @returns {string | undefined}
 */
export function withPageOnlyStyleHashes(code, keptHashes) {
  const directives = code.match(styleDirective)?.length ?? 0;
  const lists = code.match(styleHashes)?.length ?? 0;
  if (directives === 0 && lists === 0) return undefined;
  if (directives !== 1 || lists !== 1) {
    throw new Error(
      `page-only-style-hashes: expected one styleDirective and one styleHashes in the manifest, ` +
        `found ${directives} and ${lists}; check this integration against this version of Astro`,
    );
  }
  const kept = JSON.stringify(keptHashes);
  return code
    .replace(
      styleDirective,
      (_, resources) => `"styleDirective":{"resources":${resources},"hashes":${kept}}`,
    )
    .replace(styleHashes, `"styleHashes":${kept}`);
}

/**
 * A style's source in the policy, as Astro writes it.
 *
 * @param {string} text
 */
export const styleDigest = (text) =>
  /** @type {`sha256-${string}`} */ (
    `sha256-${createHash('sha256').update(text).digest('base64')}`
  );

/**
 * @param {{ keptStyles: readonly string[] }} options The styles every page may carry besides
 *   Astro's island style.
 * @returns {import('astro').AstroIntegration}
 */
export function pageOnlyStyleHashes({ keptStyles }) {
  const keptHashes = [...keptStyles, ISLAND_STYLES].map(styleDigest);
  return serverModuleRewriting({
    name: 'page-only-style-hashes',
    marker: '"styleDirective"',
    rewrite: (code) => withPageOnlyStyleHashes(code, keptHashes),
  });
}
