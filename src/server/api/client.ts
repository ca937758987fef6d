import { z } from 'zod';
import { currentRequestId } from '../../../platform/logger.ts';
import { loggablePath } from '../../lib/token-redaction.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { MFA_TOKEN_HEADER, REQUEST_ID_HEADER } from '../../../contract/headers.ts';

/** How a request reaches the API: `fetch` over HTTP, or the embedded app's `fetch` in-process. */
export type ApiTransport = (request: Request) => Promise<Response>;

interface ApiCredentials {
  readonly token?: string | undefined;
  readonly mfaToken?: string | undefined;
}

/** The API said no (or could not be understood). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own message (`error`, or `status.message`), when it sent one. */
  readonly serverMessage: string | undefined;
  /** The input the message is about (`field`, e.g. `user.email`), when the server named one. */
  readonly field: string | undefined;

  constructor(status: number, serverMessage: string | undefined, field?: string) {
    super(serverMessage ?? `The API answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.field = field;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /** This 401 asks for the MFA step rather than a new sign-in. */
  get isMfaRequired(): boolean {
    return this.status === 401 && this.serverMessage === ErrorMessage.mfaRequired;
  }
}

/**
 * The API could not serve the call: it did not answer in time, could not be reached, or said
 * it (or its database) is unavailable (502, 503, 504). Pages show the 503 page for it.
 */
export class ApiUnavailableError extends ApiError {
  /** What happened, for the log. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(503, undefined);
    this.name = 'ApiUnavailableError';
    this.message = `The API is unavailable: ${reason}`;
    this.reason = reason;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** Answers that mean "not now" rather than "no": a gateway's, or the API's own 503. */
const unavailableStatuses = new Set([502, 503, 504]);

interface ApiResult<T> {
  readonly data: T;
  readonly headers: Headers;
  readonly status: number;
}

interface RequestOptions<T> {
  readonly body?: unknown;
  /** Validates the answer: the web tier trusts no shape it did not check. */
  readonly schema?: z.ZodType<T>;
}

/**
 * The web tier's only way to the API: JSON in and out, the session's authorization and mfa-token
 * headers attached when present, and the visitor's address (for the API's rate limits) and browser
 * passed on.
 */
export class ApiClient {
  /**
   * Answers of GET calls read ahead in one batch (`readAhead`), by path, with the credentials
   * they were read with: a call with other credentials (a session just started) reads anew.
   */
  readonly #readAhead = new Map<string, ReadAheadAnswer>();
  readonly #transport: ApiTransport;
  readonly #baseUrl: string;
  readonly #credentials: ApiCredentials;
  readonly #clientAddress: string | undefined;
  readonly #userAgent: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: {
    transport: ApiTransport;
    baseUrl: string;
    credentials?: ApiCredentials;
    clientAddress?: string | undefined;
    /** The visitor's `User-Agent`, which the API keeps with a new session and security events. */
    userAgent?: string | undefined;
    /** How long a call (its answer read whole) may take; 0 for no limit (the default). */
    timeoutMs?: number;
  }) {
    this.#transport = options.transport;
    this.#baseUrl = options.baseUrl;
    this.#credentials = options.credentials ?? {};
    this.#clientAddress = options.clientAddress;
    this.#userAgent = options.userAgent;
    this.#timeoutMs = options.timeoutMs ?? 0;
  }

  /** The same client with other credentials (e.g. right after signing in). */
  withCredentials(credentials: ApiCredentials): ApiClient {
    return new ApiClient({
      transport: this.#transport,
      baseUrl: this.#baseUrl,
      credentials,
      clientAddress: this.#clientAddress,
      userAgent: this.#userAgent,
      timeoutMs: this.#timeoutMs,
    });
  }

  /**
   * Reads these GET calls ahead, in one call of the API (POST /api/v1/batch, one session check for
   * all of them), so that the page's own calls of the same paths are answered without going to the
   * API again. Resolves to the member's data version the API read with them, if it names one; given
   * `unlessVersion`, an API that finds the member's data still at that version makes no reads and
   * answers `unchanged`. Throws as `request` does when the session ended (a 401 asks for a sign-in)
   * or the API is unavailable; any other failure (an API without batches answers 404) leaves the
   * calls to go one by one.
   */
  async readAhead(
    paths: readonly string[],
    { unlessVersion }: { unlessVersion?: string | undefined } = {},
  ): Promise<ReadAhead> {
    const nothing: ReadAhead = { version: undefined, unchanged: false };
    if (paths.length < 2) return nothing;
    const credentials = credentialsKey(this.#credentials);
    let answer: BatchAnswer;
    try {
      ({ data: answer } = await this.request('POST', '/api/v1/batch', {
        body: {
          requests: paths.map((path) => ({ method: 'GET', path })),
          ...(unlessVersion === undefined ? {} : { unless_version: unlessVersion }),
        },
        schema: batchAnswerSchema,
      }));
    } catch (error) {
      // Reading ahead only saves calls: unless every call would fail the same way (the session
      // ended, the API away), the page's calls go one by one and fail, if they do, as their own.
      if (
        error instanceof ApiUnavailableError ||
        (error instanceof ApiError && error.isUnauthorized)
      ) {
        throw error;
      }
      return nothing;
    }
    if ('unchanged' in answer) {
      // Only an answer to the version asked about can mean the caller's copy.
      return answer.version === unlessVersion
        ? { version: answer.version, unchanged: true }
        : nothing;
    }
    answer.responses.forEach((response, index) => {
      const path = paths[index];
      if (path !== undefined) {
        this.#readAhead.set(path, { credentials, status: response.status, payload: response.body });
      }
    });
    return { version: answer.version, unchanged: false };
  }

  async request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<ApiResult<T>> {
    const readAhead = method === 'GET' ? this.#readAhead.get(path) : undefined;
    if (readAhead && readAhead.credentials === credentialsKey(this.#credentials)) {
      return this.#settle(
        method,
        path,
        readAhead.status,
        readAhead.payload,
        new Headers(),
        options,
      );
    }
    const json = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = new Headers({ accept: 'application/json' });
    if (json !== undefined) {
      headers.set('content-type', 'application/json');
      // Declared, the embedded API's thread is sent the body whole instead of as a stream
      // (api/embedded-thread-messages.ts): one message instead of several.
      headers.set('content-length', String(Buffer.byteLength(json)));
    }
    const { token, mfaToken } = this.#credentials;
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (mfaToken) headers.set(MFA_TOKEN_HEADER, mfaToken);
    if (this.#clientAddress) headers.set('x-forwarded-for', this.#clientAddress);
    if (this.#userAgent) headers.set('user-agent', this.#userAgent);
    const requestId = currentRequestId();
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);

    const signal = this.#timeoutMs > 0 ? AbortSignal.timeout(this.#timeoutMs) : undefined;
    const request = new Request(new URL(path, this.#baseUrl), {
      method,
      headers,
      ...(json === undefined ? {} : { body: json }),
      ...(signal ? { signal } : {}),
    });
    const { response, payload } = await this.#call(request, signal);
    return this.#settle(method, path, response.status, payload, response.headers, options);
  }

  /** The result of an answer: its data, checked against the schema, or the error it means. */
  #settle<T>(
    method: string,
    path: string,
    status: number,
    payload: unknown,
    headers: Headers,
    { schema }: RequestOptions<T>,
  ): ApiResult<T> {
    if (unavailableStatuses.has(status)) {
      throw new ApiUnavailableError(`${method} ${loggablePath(path)} answered ${status}`);
    }
    if (status < 200 || status > 299) {
      throw new ApiError(status, serverMessageOf(payload), serverFieldOf(payload));
    }
    if (!schema) return { data: payload as T, headers, status };

    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiError(502, undefined);
    }
    return { data: parsed.data, headers, status };
  }

  /**
   * Sends the request and reads the answer, within the time limit. `fetch` honours the signal;
   * the embedded API's in-process `fetch` does not, hence the race.
   */
  async #call(
    request: Request,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; payload: unknown }> {
    const exchange = (async () => {
      const response = await this.#transport(request);
      return { response, payload: await readJson(response) };
    })();
    try {
      return await (signal ? Promise.race([exchange, rejectOnAbort(signal)]) : exchange);
    } catch (error) {
      if (signal?.aborted) {
        // The answer may still come; nobody waits for it any more.
        exchange.catch(() => undefined);
        throw new ApiUnavailableError(
          `${request.method} ${new URL(request.url).pathname} got no answer within ${this.#timeoutMs} ms`,
          { cause: error },
        );
      }
      if (error instanceof TypeError) {
        // `fetch` could not reach the API (refused, reset, no such host).
        throw new ApiUnavailableError(
          `${request.method} ${new URL(request.url).pathname} could not reach the API`,
          { cause: error },
        );
      }
      throw error;
    }
  }
}

interface ReadAheadAnswer {
  readonly credentials: string;
  readonly status: number;
  readonly payload: unknown;
}

/** What reading ahead found: the member's data version, and whether the caller's copy stands. */
interface ReadAhead {
  readonly version: string | undefined;
  readonly unchanged: boolean;
}

const batchAnswerSchema = z.union([
  z.object({ version: z.string().max(20), unchanged: z.literal(true) }),
  z.object({
    version: z.string().max(20).optional(),
    responses: z.array(z.object({ status: z.number().int(), body: z.unknown() })),
  }),
]);
type BatchAnswer = z.infer<typeof batchAnswerSchema>;

function credentialsKey({ token, mfaToken }: ApiCredentials): string {
  return `${token ?? ''} ${mfaToken ?? ''}`;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const abort = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `{ error }` (most calls) or `{ status: { message } }` (the password reset submit). */
function serverMessageOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { error, status } = payload as { error?: unknown; status?: { message?: unknown } };
  if (typeof error === 'string' && error.trim()) return error;
  if (typeof status?.message === 'string' && status.message.trim()) return status.message;
  return undefined;
}

/** `{ field }` or `{ status: { field } }`: the input a refusal is about. */
function serverFieldOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { field, status } = payload as { field?: unknown; status?: { field?: unknown } };
  if (typeof field === 'string' && field) return field;
  if (typeof status?.field === 'string' && status.field) return status.field;
  return undefined;
}
