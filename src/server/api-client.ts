import type { z } from 'zod';
import { currentRequestId, requestIdHeader } from '../../api/logger.ts';

/** How a request reaches the API: `fetch` over HTTP, or the embedded app's `fetch` in-process. */
export type ApiTransport = (request: Request) => Promise<Response>;

export interface ApiCredentials {
  readonly token?: string | undefined;
  readonly mfaToken?: string | undefined;
}

/** docs/PRODUCT.md §8: the API said no (or could not be understood). */
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

  /** docs/PRODUCT.md §4: this 401 asks for the MFA step rather than a new sign-in. */
  get isMfaRequired(): boolean {
    return this.status === 401 && this.serverMessage === mfaRequiredMessage;
  }
}

export const mfaRequiredMessage = 'MFA authentication required';

export interface ApiResult<T> {
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
 * The web tier's only way to the API (docs/PRODUCT.md §10): JSON in and out, the
 * session's authorization and mfa-token headers attached when present, and the
 * visitor's address passed on for the API's rate limits.
 */
export class ApiClient {
  readonly #transport: ApiTransport;
  readonly #baseUrl: string;
  readonly #credentials: ApiCredentials;
  readonly #clientAddress: string | undefined;

  constructor(options: {
    transport: ApiTransport;
    baseUrl: string;
    credentials?: ApiCredentials;
    clientAddress?: string | undefined;
  }) {
    this.#transport = options.transport;
    this.#baseUrl = options.baseUrl;
    this.#credentials = options.credentials ?? {};
    this.#clientAddress = options.clientAddress;
  }

  /** The same client with other credentials (e.g. right after signing in). */
  withCredentials(credentials: ApiCredentials): ApiClient {
    return new ApiClient({
      transport: this.#transport,
      baseUrl: this.#baseUrl,
      credentials,
      clientAddress: this.#clientAddress,
    });
  }

  async request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    { body, schema }: RequestOptions<T> = {},
  ): Promise<ApiResult<T>> {
    const headers = new Headers({ accept: 'application/json' });
    if (body !== undefined) headers.set('content-type', 'application/json');
    const { token, mfaToken } = this.#credentials;
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (mfaToken) headers.set('mfa-token', mfaToken);
    if (this.#clientAddress) headers.set('x-forwarded-for', this.#clientAddress);
    const requestId = currentRequestId();
    if (requestId) headers.set(requestIdHeader, requestId);

    const response = await this.#transport(
      new Request(new URL(path, this.#baseUrl), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

    const payload = await readJson(response);
    if (!response.ok) {
      throw new ApiError(response.status, serverMessageOf(payload), serverFieldOf(payload));
    }
    if (!schema) return { data: payload as T, headers: response.headers, status: response.status };

    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiError(502, undefined);
    }
    return { data: parsed.data, headers: response.headers, status: response.status };
  }
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
