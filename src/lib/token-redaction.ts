/**
 * The tokens that addresses carry in their path (reset, unlock and email confirmation links,
 * signed storage addresses), found from the route table itself: every route parameter is taken
 * for a secret unless the table declares it loggable (`loggableRouteParameters`), so a new token
 * route is redacted without anyone remembering to. Every log line and error report that holds an
 * address goes through here; pages that report errors are given {@link routePathTokenRules}.
 */

import {
  legacyRedirects,
  loggableRouteParameters,
  pageRoutes,
  partnerRedirectPatterns,
} from '../routes.ts';
import { pathTokenRules, redactorFromRules } from './path-token-redaction.ts';

/** Every path pattern the site answers: pages, legacy and partner redirects. */
export const routePatterns: readonly string[] = [
  ...pageRoutes.map(({ pattern }) => pattern),
  ...legacyRedirects.map(({ pattern }) => pattern),
  ...partnerRedirectPatterns,
];

/** The rules of the route table's addresses, as data. */
export const routePathTokenRules = pathTokenRules(routePatterns, loggableRouteParameters);

/** `text` with the token of every address of the route table in it replaced by `[redacted]`. */
export const redactPathTokens = redactorFromRules(routePathTokenRules);

/**
 * A path fit for a log line: no query string or fragment (signed addresses carry their signature
 * there), and the tokens of the route table's addresses replaced by `[redacted]`.
 */
export function loggablePath(url: string): string {
  return redactPathTokens(url.split(/[?#]/, 1)[0] ?? '');
}
