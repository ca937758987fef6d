import { currentRequestId } from '../../../platform/logger.ts';
import { loggablePath } from '../../lib/token-redaction.ts';
import { ApiUnavailableError, type ApiTransport } from '../api/client';
import { isBodyTooLarge } from './request-bodies';
import { REQUEST_ID_HEADER, CHECKSUM_HEADER } from '../../../contract/headers.ts';

/**
 * What a signed storage request may carry to the API: the upload's declaration (type, length,
 * checksum) and what a CORS preflight asks. Nothing else: no cookie, no authorization (the
 * signature in the address is the only credential), no forwarding header the visitor wrote.
 */
const passedRequestHeaders = [
  'accept',
  'content-type',
  'content-length',
  CHECKSUM_HEADER.toLowerCase(),
  'origin',
  'access-control-request-method',
  'access-control-request-headers',
];

/**
 * What the API's answer may not carry on to the visitor: the headers of its own connection to
 * this server (RFC 9110, section 7.6.1), cookies, which storage never sets, and its request id, which is
 * this server's own unless the API trusts it as a proxy: the visitor quotes the one the site gave.
 */
const droppedAnswerHeaders = [
  'x-request-id',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'set-cookie',
];

interface StoragePassThrough {
  readonly transport: ApiTransport;
  readonly baseUrl: string;
  /** The visitor's address (scripts/start.mjs worked it out), for the API's X-Forwarded-For. */
  readonly visitorAddress: string | undefined;
  /**
   * How long the API may keep the exchange waiting on it at any one time (API_TIMEOUT_MS; 0 for
   * no limit). A file travels at the visitor's pace, so no limit holds the whole exchange: the
   * API must connect, take each piece of an upload it is given, answer once the upload is
   * complete, and send each piece of a download asked for, each within this time.
   */
  readonly timeoutMs: number;
}

/**
 * Hands a signed storage request to the API that signed it, the embedded one or the one at
 * API_ORIGIN, and its answer back, both bodies streamed. The API judges the signature; this only
 * carries.
 *
 * Throws {@link ApiUnavailableError} when the API cannot be reached or keeps the exchange waiting
 * too long before answering (a 503 page), and the body limit's error when the visitor's upload
 * outgrew it (a 413, src/server/middleware/body-limit.ts). Past the answer's headers, the same
 * failures cut the download off.
 */
export async function passToStorage(
  request: Request,
  { transport, baseUrl, visitorAddress, timeoutMs }: StoragePassThrough,
): Promise<Response> {
  const url = new URL(request.url);
  const watchdog = new Watchdog(timeoutMs);
  const described = `${request.method} ${loggablePath(url.pathname)}`;

  const headers = new Headers();
  for (const name of passedRequestHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // Without this a fetch asks for compressed answers and unpacks them itself, after which the
  // answer's Content-Encoding and Content-Length would describe bytes it no longer holds.
  headers.set('accept-encoding', 'identity');
  if (visitorAddress) headers.set('x-forwarded-for', visitorAddress);
  const requestId = currentRequestId();
  if (requestId) headers.set(REQUEST_ID_HEADER, requestId);

  // `failure` is set by the upload as it breaks off (outgrown, or the visitor gone). Once the API
  // has answered (it may refuse before reading the whole upload), the download is what it is
  // waited on for.
  const visitorSide: { failure?: Error; answered?: boolean } = {};
  const upload =
    request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null
      ? pulledThrough(request.body, {
          waiting: () => {
            if (!visitorSide.answered) watchdog.waitOnVisitor();
          },
          taken: () => {
            if (!visitorSide.answered) watchdog.waitOnApi();
          },
          failed: (error) => {
            visitorSide.failure = error instanceof Error ? error : new Error(String(error));
          },
        })
      : undefined;

  watchdog.waitOnApi();
  let answer: Response;
  try {
    answer = await Promise.race([
      transport(
        new Request(new URL(`${url.pathname}${url.search}`, baseUrl), {
          method: request.method,
          headers,
          ...(upload ? { body: upload, duplex: 'half' } : {}),
          signal: AbortSignal.any([request.signal, watchdog.signal]),
        }),
      ),
      watchdog.expired,
    ]);
  } catch (error) {
    watchdog.stop();
    if (visitorSide.failure) throw visitorSide.failure;
    if (watchdog.signal.aborted) {
      throw new ApiUnavailableError(
        `${described} kept waiting on the API for ${timeoutMs} ms before an answer`,
        { cause: error },
      );
    }
    if (error instanceof TypeError && !request.signal.aborted) {
      throw new ApiUnavailableError(`${described} could not reach the API`, { cause: error });
    }
    throw error;
  }
  visitorSide.answered = true;
  // The embedded API answers rather than throws when the body it reads breaks off.
  if (visitorSide.failure && isBodyTooLarge(visitorSide.failure)) {
    watchdog.stop();
    await answer.body?.cancel().catch(() => undefined);
    throw visitorSide.failure;
  }

  const answerHeaders = new Headers(answer.headers);
  for (const name of droppedAnswerHeaders) answerHeaders.delete(name);
  const body = answer.body ? downloadedThrough(answer.body, watchdog, described) : null;
  if (!body) watchdog.stop();
  // A copy with headers of its own: the security headers are added to it on the way out.
  return new Response(body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answerHeaders,
  });
}

/**
 * The visitor's upload, handed on a piece at a time as the API takes it (no reading ahead), so
 * that the watchdog knows whose turn it is.
 */
function pulledThrough(
  source: ReadableStream<Uint8Array>,
  events: { waiting(): void; taken(): void; failed(error: unknown): void },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        events.waiting();
        let piece: ReadableStreamReadResult<Uint8Array>;
        try {
          piece = await reader.read();
        } catch (error) {
          events.failed(error);
          throw error;
        }
        if (piece.done) controller.close();
        else controller.enqueue(piece.value);
        // Given to the API, the next move is its: take the next piece, or answer.
        events.taken();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The API's answer, read a piece at a time as the visitor takes it. The race is for the embedded
 * API, whose streams ignore the abort signal.
 */
function downloadedThrough(
  source: ReadableStream<Uint8Array>,
  watchdog: Watchdog,
  described: string,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        watchdog.waitOnApi();
        try {
          const piece = await Promise.race([reader.read(), watchdog.expired]);
          if (piece.done) {
            watchdog.stop();
            controller.close();
          } else {
            watchdog.waitOnVisitor();
            controller.enqueue(piece.value);
          }
        } catch (error) {
          watchdog.stop();
          void reader.cancel().catch(() => undefined);
          controller.error(
            watchdog.signal.aborted
              ? new ApiUnavailableError(
                  `${described} kept waiting on the API for ${watchdog.timeoutMs} ms mid-answer`,
                  { cause: error },
                )
              : error,
          );
        }
      },
      cancel(reason) {
        watchdog.stop();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Aborts the exchange when the API keeps it waiting for longer than `timeoutMs` at a time. */
class Watchdog {
  readonly timeoutMs: number;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Rejects once the time is up; the races above lose to it. */
  readonly expired: Promise<never>;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.expired = new Promise<never>((_resolve, reject) => {
      this.#controller.signal.addEventListener(
        'abort',
        () => {
          reject(this.#controller.signal.reason as Error);
        },
        { once: true },
      );
    });
    // Nobody may be racing it when it fires.
    this.expired.catch(() => undefined);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** From now the exchange waits on the API, which has `timeoutMs` to move. */
  waitOnApi(): void {
    this.#clear();
    if (this.timeoutMs <= 0 || this.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#controller.abort(new DOMException('The API kept the exchange waiting', 'TimeoutError'));
    }, this.timeoutMs);
  }

  /** From now the exchange waits on the visitor, who takes as long as they take. */
  waitOnVisitor(): void {
    this.#clear();
  }

  stop(): void {
    this.#clear();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
