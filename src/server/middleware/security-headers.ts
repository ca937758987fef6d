import { defineMiddleware } from 'astro:middleware';
import { fallbackContentSecurityPolicy, reportingEndpointsHeader } from '../../lib/csp-reporting';
import { builtFilesOnly } from '../../astro-adjustments/rendering/built-files-policy';
import { contentEditorPolicy } from '../../astro-adjustments/rendering/content-editor-policy';
import { config } from '../config';

/** Pages that carry a secret token in their address must not leak it in a Referer. */
const tokenPages = new Set(['ResetPassword', 'UnlockUser', 'ConfirmEmail']);

/**
 * The value of `Clear-Site-Data` on the answer that signs a member out: nothing of the session
 * stays in the browser's cache or storage. Its cookies go one by one (`forgetSignedInCookies`), so
 * that a device the member asked to remember stays remembered. Deleting the account forgets the
 * cookies too.
 */
const siteDataClearedBy = {
  'signed-out': '"cache", "storage"',
  'account-deleted': '"cache", "cookies", "storage"',
} as const;

/**
 * The security headers, on every answer the server renders. The Content-Security-Policy of a page
 * is Astro's, in one header (hashes of every inline script and style, and the directives of
 * astro.config.mjs, framing and reporting included), with scripts and styles from the build's
 * folder alone (the content editor's page takes inline styles and reaches GitHub); an HTML answer
 * Astro did not render gets a policy that allows nothing, except under `astro dev`, where no page
 * has a policy. Answers are never stored by any cache unless they say otherwise: pages and action
 * answers are made for one visitor.
 */
export const securityHeaders = defineMiddleware(async (context, next) => {
  const response = await next();
  const headers = response.headers;
  const route = context.locals.route;
  const onTokenPage = route.kind === 'page' && tokenPages.has(route.route.name);

  headers.set('X-Content-Type-Options', 'nosniff');
  // A token page's address never leaves the site, but its own forms still carry their origin:
  // under `no-referrer` a browser posts them with `Origin: null`, which the origin check refuses.
  headers.set('Referrer-Policy', onTokenPage ? 'same-origin' : 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Reporting-Endpoints', reportingEndpointsHeader);
  const astroPolicy = headers.get('content-security-policy');
  if (astroPolicy) {
    const onEditorPage = route.kind === 'page' && route.route.name === 'ContentEditor';
    const policy = onEditorPage ? contentEditorPolicy(astroPolicy) : astroPolicy;
    const { publicOrigin, contentEditorOrigin } = config();
    // The editor's page, on its own host in GitHub mode, loads the build's files from there.
    const builtFilesOrigin = onEditorPage ? (contentEditorOrigin ?? publicOrigin) : publicOrigin;
    headers.set(
      'Content-Security-Policy',
      builtFilesOrigin ? builtFilesOnly(policy, builtFilesOrigin) : policy,
    );
  } else if (isHtml(headers) && !import.meta.env.DEV) {
    // Astro writes no policy under `astro dev`, so every page would get this one, and it refuses
    // the styles, scripts and websocket of Vite's client that the development server runs on.
    headers.set('Content-Security-Policy', fallbackContentSecurityPolicy);
  }
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (config().secureCookies) {
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  }
  if (!headers.has('cache-control')) headers.set('Cache-Control', 'private, no-store');
  if (context.locals.signedOut) {
    headers.set('Clear-Site-Data', siteDataClearedBy[context.locals.signedOut]);
  }
  return response;
});

const isHtml = (headers: Headers) => (headers.get('content-type') ?? '').startsWith('text/html');
