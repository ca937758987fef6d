/**
 * Resolving an address against the route table (src/routes.ts): legacy redirects first, then the
 * partners' redirects, then the pages.
 */
import { PARTNER_OFFER_IDS, type PartnerOfferId } from '../contract/partner-offers.ts';
import {
  formBodyLimitBytes,
  legacyRedirects,
  pageRoutes,
  partnerRedirectPatterns,
  type PageRoute,
} from './routes.ts';

const isPartnerOfferId = (value: string): value is PartnerOfferId =>
  (PARTNER_OFFER_IDS as readonly string[]).includes(value);

export type RouteMatch =
  | { readonly kind: 'page'; readonly route: PageRoute; readonly params: Record<string, string> }
  | { readonly kind: 'legacy'; readonly location: string }
  | { readonly kind: 'partner'; readonly slug: PartnerOfferId }
  | { readonly kind: 'not-found' };

/**
 * The largest request body the matched route takes from a member (src/server/http/request-bodies.ts
 * decides it for each visitor).
 */
export const bodyLimitOf = (match: RouteMatch): number =>
  (match.kind === 'page' ? match.route.maxBodyBytes : undefined) ?? formBodyLimitBytes;

const compile = (pattern: string) => new URLPattern({ pathname: pattern });

const legacyMatchers = legacyRedirects.map((redirect) => ({
  redirect,
  matcher: compile(redirect.pattern),
}));
const partnerMatchers = partnerRedirectPatterns.map(compile);
const pageMatchers = pageRoutes.map((route) => ({ route, matcher: compile(route.pattern) }));

const definedParams = (groups: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(groups).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/**
 * Resolves a pathname against the table: legacy redirects first, then partner
 * redirects, then pages. A trailing slash is tolerated (`/dashboard/`).
 */
export function matchRoute(pathname: string): RouteMatch {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

  for (const { redirect, matcher } of legacyMatchers) {
    const result = matcher.exec({ pathname: path });
    if (result) return { kind: 'legacy', location: redirect.to(result.pathname.groups) };
  }

  for (const matcher of partnerMatchers) {
    const result = matcher.exec({ pathname: path });
    if (result) {
      const slug = result.pathname.groups['slug'] ?? '';
      return isPartnerOfferId(slug) ? { kind: 'partner', slug } : { kind: 'not-found' };
    }
  }

  for (const { route, matcher } of pageMatchers) {
    const result = matcher.exec({ pathname: path });
    if (result) return { kind: 'page', route, params: definedParams(result.pathname.groups) };
  }

  return { kind: 'not-found' };
}
