import { defineMiddleware } from 'astro:middleware';
import { currentRequestId, newRequestId, withRequestId } from '../../../platform/logger.ts';
import { REQUEST_ID_HEADER } from '../../../contract/headers.ts';

/**
 * Every request has an id: the one scripts/start.mjs gave it (in a request header it always
 * overwrites, and already in the answer's `X-Request-Id`), or, under `astro dev`, a new one. It is
 * kept in `locals.requestId` for the error pages, sent on to the API, and on every log line.
 */
export const requestContext = defineMiddleware(async (context, next) => {
  const givenByEntryPoint = currentRequestId();
  const requestId =
    givenByEntryPoint ?? context.request.headers.get(REQUEST_ID_HEADER) ?? newRequestId();
  context.locals.requestId = requestId;
  if (givenByEntryPoint !== undefined) return next();
  const response = await withRequestId(requestId, next);
  try {
    response.headers.set('X-Request-Id', requestId);
  } catch {
    // Redirects made with Response.redirect() have immutable headers; they show no page.
  }
  return response;
});
