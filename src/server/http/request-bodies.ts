import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { bodyLimitOf, matchRoute, type RouteMatch } from '../../route-matching.ts';
import { formBodyLimitBytes, uploadBodyLimitBytes } from '../../routes.ts';
import { cookieFromHeader, parseSessionCookie } from '../session/session-cookie.ts';

/**
 * How much of a request body is read, and by whom it is cut. The limit is decided before a byte is
 * read, from the route and whether the visitor has a session: a visitor without one gets the form
 * limit on every route (but those whose own credential stands in for a session), so a stranger
 * never sends the 25 MiB a member's file post may carry. The production entry point counts the
 * bytes as they arrive, chunked or not, and the first reader past the limit gets
 * {@link BodyTooLargeError}, which the bodyLimit middleware answers with 413.
 */

/** A request body longer than its route takes (answered 413 by the bodyLimit middleware). */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Whether an error is {@link BodyTooLargeError}, by name: the entry point and the built server
 * each have their own copy of the class.
 */
export const isBodyTooLarge = (error: unknown): boolean =>
  error instanceof Error && error.name === 'BodyTooLargeError';

/** The largest body the matched route takes from this visitor. */
export function bodyLimitFor(match: RouteMatch, hasSession: boolean): number {
  const routeLimit = bodyLimitOf(match);
  const ownCredential = match.kind === 'page' && match.route.fullBodyLimitWithoutSession;
  return hasSession || ownCredential ? routeLimit : Math.min(routeLimit, formBodyLimitBytes);
}

/**
 * The body limit of a request as the entry point sees it, before Astro: its path against the route
 * table, and a session cookie of the form this server writes whose expiry lies ahead (the API
 * judges the token itself).
 */
export function bodyLimitOfRequest(
  request: { readonly url?: string | undefined; readonly headers: { cookie?: string | undefined } },
  sessionCookieName: string,
  now: number = Date.now(),
): number {
  const { pathname } = new URL(request.url ?? '/', 'http://entry.invalid');
  const session = parseSessionCookie(cookieFromHeader(request.headers.cookie, sessionCookieName));
  return bodyLimitFor(matchRoute(pathname), (session?.expiresAt.getTime() ?? 0) > now);
}

/**
 * The body of a request to the production server, counted as it arrives, chunked or not, and cut
 * at `limit`: past it, its reader gets {@link BodyTooLargeError} instead of the next chunk. Astro
 * reads this in place of the request's stream (a request's `body`, when set). What the client
 * goes on sending is read and dropped, so that the refusal reaches it and the connection serves
 * the next request (as Node does with a body nobody read, which this drops the same way), up to
 * the most any route takes; past that the connection is closed.
 */
export function countedRequestBody(
  request: IncomingMessage,
  response: ServerResponse,
  limit: number,
): AsyncGenerator<Uint8Array> {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.byteLength;
      if (received > limit) done(new BodyTooLargeError(`The body is larger than ${limit} bytes.`));
      else done(null, chunk);
    },
  });
  let dropping = false;
  const dropTheRest = () => {
    if (dropping) return;
    dropping = true;
    request.unpipe(counter);
    let dropped = 0;
    request.on('data', (chunk: Buffer) => {
      dropped += chunk.byteLength;
      // More than any route takes is no client waiting for an answer: let it go.
      if (dropped > uploadBodyLimitBytes) request.destroy();
    });
    // Unpiping paused it, and a paused stream stays so for a new listener.
    request.resume();
  };
  // Once the counter has closed: unpiping from a counter that is closing pauses the request.
  counter.once('error', () => counter.once('close', dropTheRest));
  response.once('finish', () => {
    if (!request.complete) dropTheRest();
  });
  request.pipe(counter);
  // A generator, not the stream itself: Astro takes an object with keys of its own for JSON.
  return (async function* read() {
    for await (const chunk of counter) yield chunk as Uint8Array;
  })();
}
