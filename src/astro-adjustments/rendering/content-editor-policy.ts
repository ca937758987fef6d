/**
 * Where the content editor's page reaches in GitHub mode, besides this site (read from Keystatic's
 * own code): GitHub's API for the repository's files and commits, its raw files, the editors'
 * pictures, and the typeface its interface asks of Google Fonts.
 */
const gitHubConnections = ['https://api.github.com', 'https://raw.githubusercontent.com'];
const gitHubImages = ['https://avatars.githubusercontent.com'];
const typefaceStylesheets = ['https://fonts.googleapis.com'];
const typefaceFiles = ['https://fonts.gstatic.com'];

const directive = (name: string) => new RegExp(`(^|;\\s*)${name}( [^;]*)?(?=;|$)`);

/**
 * Astro's policy for the content editor's page (/keystatic, in a build made for GitHub mode).
 * Keystatic's interface writes its styles as it runs, so its page takes inline styles, which no
 * other page does: a style digest would make browsers ignore `'unsafe-inline'`, so its style
 * sources are the site's own and inline, without digests. It also reaches GitHub and its typeface.
 * Its scripts stay as Astro hashed them.
 */
export function contentEditorPolicy(policy: string): string {
  return [
    ['style-src', ["'self' 'unsafe-inline'", ...typefaceStylesheets].join(' ')],
    ['font-src', ["'self'", ...typefaceFiles].join(' ')],
    ['connect-src', ["'self'", ...gitHubConnections].join(' ')],
    ['img-src', ["'self' data: blob:", ...gitHubImages].join(' ')],
  ].reduce((updated, [name = '', sources = '']) => {
    const pattern = directive(name);
    return pattern.test(updated)
      ? updated.replace(pattern, `$1${name} ${sources}`)
      : `${updated}; ${name} ${sources}`;
  }, policy);
}
