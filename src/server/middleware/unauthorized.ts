import { defineMiddleware } from 'astro:middleware';
import { ApiError } from '../api/client';
import { endSessionAfterUnauthorized } from '../session/session-ended';

/**
 * A 401 from the API while rendering a page. "MFA authentication required" leads to the MFA step;
 * any other 401 clears the session, stores the current path and goes to SignIn.
 */
export const unauthorized = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    if (!(error instanceof ApiError) || !error.isUnauthorized) throw error;
    return context.redirect(endSessionAfterUnauthorized(context, error, context.url), 302);
  }
});
