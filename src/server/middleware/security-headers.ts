import { defineMiddleware } from 'astro:middleware';
import { config } from '../config';

/** Pages that carry a secret token in their address must not leak it in a Referer. */
const tokenPages = new Set(['ResetPassword', 'UnlockUser']);

/**
 * docs/PRODUCT.md §11 headers. The CSP itself (hashes of every inline script and
 * style) is emitted by Astro; framing is refused here because a `<meta>` CSP
 * cannot say `frame-ancestors`.
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
  headers.append('Content-Security-Policy', "frame-ancestors 'none'");
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (config().secureCookies) {
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  }
  if (
    (headers.get('content-type') ?? '').startsWith('text/html') &&
    !headers.has('cache-control')
  ) {
    // Pages are rendered per visitor: never stored by shared caches or the back button.
    headers.set('Cache-Control', 'private, no-store');
  }
  return response;
});
