/**
 * Astro hashes every inline script and style of a page for its Content-Security-Policy on every
 * request, though they are the same from one request to the next (a page's styles are all inline),
 * and that hashing was about 8% of a sign-in page's server time. This Vite plugin makes Astro's
 * `generateCspDigest` remember the digests it made, at most {@link cachedDigests} of them (the
 * oldest is forgotten first), so the work is done once per distinct content. The build stops if
 * Astro's function is no longer where this expects it.
 */

/** Distinct inline contents remembered: far more than the product's pages have. */
export const cachedDigests = 512;

const astroModule = /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/;
const original = 'async function generateCspDigest(data, algorithm) {';

/**
 * The source of Astro's encryption module with `generateCspDigest` remembering its answers.
 *
 * @param {string} code
 * @returns {string}
 */
export function withCachedCspDigests(code) {
  if (!code.includes(original)) {
    throw new Error(
      'cached-csp-digests: astro/dist/core/encryption.js no longer defines generateCspDigest as ' +
        'expected; check the plugin against this version of Astro',
    );
  }
  return `${code.replace(original, 'async function generateCspDigestOnce(data, algorithm) {')}
const cspDigests = new Map();
function generateCspDigest(data, algorithm) {
  const key = algorithm + "\\u0000" + data;
  let digest = cspDigests.get(key);
  if (digest === undefined) {
    digest = generateCspDigestOnce(data, algorithm);
    digest.catch(() => cspDigests.delete(key));
    if (cspDigests.size >= ${cachedDigests}) cspDigests.delete(cspDigests.keys().next().value);
    cspDigests.set(key, digest);
  }
  return digest;
}
`;
}

/** @returns {import('vite').Plugin} */
export function cachedCspDigests() {
  return {
    name: 'cached-csp-digests',
    enforce: 'pre',
    transform(code, id) {
      if (!astroModule.test(id.split('?')[0] ?? id)) return undefined;
      return { code: withCachedCspDigests(code), map: null };
    },
  };
}
