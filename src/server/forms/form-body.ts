import { formBodyLimitBytes } from '../../routes';
import { BodyTooLargeError, isBodyTooLarge } from '../http/request-bodies';

const formTypes = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const forms = new WeakMap<Request, Promise<FormData | undefined>>();

/**
 * The form a POST carried, read at most once per request and never past `limit` (the route's
 * body limit; `formBodyLimitBytes` unless told), whatever the request declared: a body that goes
 * on is refused with {@link BodyTooLargeError} as soon as it crosses the limit, before it is
 * parsed. Not a form (or not one that parses): undefined. The request itself stays unread for the
 * action that handles it.
 */
export function postedForm(
  request: Request,
  limit: number = formBodyLimitBytes,
): Promise<FormData | undefined> {
  const contentType = request.headers.get('content-type') ?? '';
  if (request.method !== 'POST' || !formTypes.some((type) => contentType.startsWith(type))) {
    return Promise.resolve(undefined);
  }
  let form = forms.get(request);
  if (!form) {
    form = readForm(request.clone(), contentType, limit);
    forms.set(request, form);
  }
  return form;
}

async function readForm(
  copy: Request,
  contentType: string,
  limit: number,
): Promise<FormData | undefined> {
  const body = await readAtMost(copy.body, limit);
  try {
    return await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
}

/**
 * A request body, read whole but never past `limit` bytes: crossing it throws
 * {@link BodyTooLargeError} at once, whatever length the request declared, as does a body the
 * entry point cut at its own count.
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Blob> {
  const chunks: BlobPart[] = [];
  if (!stream) return new Blob(chunks);
  const reader = stream.getReader();
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw isBodyTooLarge(error) ? new BodyTooLargeError(String(error)) : error;
    });
    if (done) return new Blob(chunks);
    length += value.byteLength;
    if (length > limit) {
      // Not awaited: cancelling one branch of a cloned body settles only when both are.
      void reader.cancel();
      throw new BodyTooLargeError(`The body is larger than ${limit} bytes.`);
    }
    chunks.push(new Uint8Array(value));
  }
}

/**
 * A text field of a form post (a body that is not a form gives nothing): to
 * re-render the form after a failed submission with what was typed (never the
 * password), or to read the XSRF token a form echoes.
 */
export async function submittedField(
  request: Request,
  name: string,
  limit: number = formBodyLimitBytes,
): Promise<string | undefined> {
  const value = (await postedForm(request, limit))?.get(name);
  return typeof value === 'string' ? value.slice(0, 320) : undefined;
}
