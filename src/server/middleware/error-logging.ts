import { defineMiddleware } from 'astro:middleware';
import { logger } from '../../../platform/logger.ts';
import { loggablePath } from '../../lib/token-redaction.ts';
import { monitoring } from '../../../platform/monitoring.ts';
import { ApiUnavailableError } from '../api/client';

/**
 * A request that fails with an error no other middleware turned into an answer is logged here,
 * on one JSON line with its stack, reported (with the member, once loaded), and answered with the error page (src/pages/500.astro), which
 * finds the error in `locals.failure`. Astro would do the same, but print the error as text.
 * An API that is away or too slow makes it a 503 (Astro gives the error page 500 whatever the
 * page sets).
 */
export const errorLogging = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    const unavailable = error instanceof ApiUnavailableError;
    logger.error(
      { err: error, method: context.request.method, path: loggablePath(context.url.pathname) },
      unavailable ? 'request failed: the API is unavailable' : 'request failed',
    );
    monitoring.reportError(error);
    context.locals.failure = error;
    // A request whose body was read (a file on its way to storage) cannot be rewritten as it is:
    // the error page is asked for with its headers alone.
    const page = await context.rewrite(
      context.request.bodyUsed
        ? new Request(new URL('/500', context.url), { headers: context.request.headers })
        : '/500',
    );
    if (!unavailable) return page;
    return new Response(page.body, { status: 503, headers: page.headers });
  }
});
