/** Where the build puts its scripts and stylesheets (Astro's `build.assets`). */
const builtFilesPath = '/_astro/';

/**
 * Astro's policy with scripts and stylesheets taken from the build's own folder (and the hashes),
 * not from anywhere on the site: a file a member stored, served from this origin, can never run as
 * the portal's script or style, whatever type it claims. Needs the public origin: a path alone is
 * no CSP source.
 */
export function builtFilesOnly(policy: string, publicOrigin: string): string {
  return policy.replace(
    /(^|;\s*)(script-src|style-src) 'self'(?=[\s;]|$)/g,
    `$1$2 ${publicOrigin}${builtFilesPath}`,
  );
}
