import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { isAstroOwnRoute, paths, type Guard } from '../../routes';
import { config } from '../config';
import { partnerUrl } from '../offers';
import { rememberReturnTo } from '../session/return-to';
import { clearSession, hasPendingMfaStep, isAuthenticated } from '../session/session';

/**
 * Applies the route table: legacy and partner redirects, the root redirect,
 * and each page's guard. Paths the table does not know get the NotFound page
 * with status 404, even where Astro has a page file for them (fail closed).
 */
export const routeGuards = defineMiddleware(async (context, next) => {
  const match = context.locals.route;
  switch (match.kind) {
    case 'legacy':
      return context.redirect(`${match.location}${context.url.search}`, 301);
    case 'partner':
      return context.redirect(await partnerUrl(match.slug), 302);
    case 'not-found':
      // A route Astro serves that the table does not know (a page file added without its row,
      // one of Astro's own endpoints) is not found: the table is the only way in.
      return isAstroOwnRoute(context.routePattern) ? next() : context.rewrite('/404');
    case 'page': {
      if (match.route.name === 'Root') return context.redirect(homeFor(context), 302);
      const redirect = guardRedirect(match.route.guard, context);
      if (redirect === notFound) return context.rewrite('/404');
      if (redirect) return context.redirect(redirect, 302);
      return match.route.redirectTo ? context.redirect(match.route.redirectTo, 302) : next();
    }
  }
});

const notFound = Symbol('not found');

function homeFor(context: APIContext): string {
  const { session } = context.locals;
  if (!isAuthenticated(session)) return paths.signIn;
  return hasPendingMfaStep(session) ? paths.mfaEnrollment : paths.dashboard;
}

/** Where a guard sends this visitor instead of the page, if anywhere. */
export function guardRedirect(
  guard: Guard,
  context: APIContext,
): string | typeof notFound | undefined {
  const { session } = context.locals;
  const signedIn = isAuthenticated(session);
  switch (guard) {
    case 'public':
      return undefined;
    case 'auth':
      if (!signedIn) {
        if (session.token) clearSession(context);
        if (context.request.method === 'GET') {
          rememberReturnTo(context.cookies, `${context.url.pathname}${context.url.search}`);
        }
        return paths.signIn;
      }
      return hasPendingMfaStep(session) ? paths.mfaEnrollment : undefined;
    case 'guest':
      return signedIn && !hasPendingMfaStep(session) ? paths.dashboard : undefined;
    case 'mfa-step':
      return signedIn && session.mfaStep ? undefined : paths.signIn;
    case 'kit-gallery':
      return config().kitGallery ? undefined : notFound;
    case 'outbox-viewer':
      return config().outboxViewer ? undefined : notFound;
    case 'content-editor':
      return import.meta.env.CONTENT_EDITOR ? undefined : notFound;
  }
}
