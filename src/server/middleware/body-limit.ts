import { getActionContext } from 'astro:actions';
import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { bodyLimitFor, isBodyTooLarge } from '../http/request-bodies';
import { refusal } from '../http/refusal';
import { isAuthenticated } from '../session/session';

/**
 * Decides how much of the request body may be read: the route's limit for a visitor with a session,
 * the form limit for anyone else (src/server/http/request-bodies.ts). Refuses (413) a body that
 * declares more before anything reads it, and one that turns out longer as it is read (the entry
 * point counts every byte, chunked or not; forms are read with a cap).
 */
export const bodyLimit = defineMiddleware(async (context, next) => {
  const { locals, request } = context;
  locals.bodyLimit = bodyLimitFor(locals.route, isAuthenticated(locals.session));
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > locals.bodyLimit) return tooLarge(context);
  try {
    return await next();
  } catch (error) {
    if (isBodyTooLarge(error)) return tooLarge(context);
    throw error;
  }
});

const tooLarge = (context: APIContext) =>
  refusal(413, {
    title: 'Too much to send',
    message:
      'What was sent is larger than this page takes. Files are added with the file picker, ' +
      'not pasted into a field.',
    scripted: getActionContext(context).action?.calledFrom === 'rpc',
    retryPath: context.url.pathname,
  });
