import { defineMiddleware } from 'astro:middleware';
import { loggablePath, logger } from '../../../api/logger.ts';

/**
 * A request that fails with an error no other middleware turned into an answer is logged here,
 * on one JSON line with its stack, and answered with the error page (src/pages/500.astro), which
 * finds the error in `locals.failure`. Astro would do the same, but print the error as text.
 */
export const errorLogging = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    logger.error(
      { err: error, method: context.request.method, path: loggablePath(context.url.pathname) },
      'request failed',
    );
    context.locals.failure = error;
    return context.rewrite('/500');
  }
});
