import { getActionContext } from 'astro:actions';
import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { bodyLimitOf } from '../../routes';
import { BodyTooLargeError } from '../form-body';
import { refusal } from '../refusal';

/**
 * Refuses (413) a request body larger than its route takes (docs/PRODUCT.md §11), by its
 * declared length before anything reads it, and, for a body that does not declare one, as soon
 * as a reader of the form crosses the limit.
 */
export const bodyLimit = defineMiddleware(async (context, next) => {
  const limit = bodyLimitOf(context.locals.route);
  const declared = Number(context.request.headers.get('content-length') ?? 0);
  if (declared > limit) return tooLarge(context);
  try {
    return await next();
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge(context);
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
