import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { acceptsCoding } from '../http/content-coding.ts';
import { GzipTemplate } from './gzip-template.ts';

/**
 * Copies of the pages a first visit sees. Signed out, with no cookie but perhaps an anonymous XSRF
 * token, SignIn is the same page for everybody but for that token: rendering it anew for each
 * visitor cost six times what sending a file does. So the first such answer of each page is kept,
 * as Astro wrote it for a real visitor, split where its token stands, and compressed once; the next
 * first visits get a copy with a token of their own, in the cookie the kept answer set and in every
 * place the page carried it. Anything else (a session, a toast, a query, a HEAD, a browser that
 * takes no gzip) is rendered as usual. A kept page is renewed after
 * {@link FirstVisitPagesOptions.maxAgeMs}, from the next first visit.
 */
export interface FirstVisitPagesOptions {
  /** The paths whose first visits get copies (the route table's `firstVisitCopies`). */
  readonly paths: readonly string[];
  /** The name of the XSRF cookie. */
  readonly cookieName: string;
  /** A new anonymous XSRF token. */
  readonly newToken: () => string;
  /** Whether a token from a cookie is one of ours, for a visitor with no session. */
  readonly isAnonymousToken: (token: string) => boolean;
  /** How long a kept page is served before the next first visit renews it. */
  readonly maxAgeMs: number;
  readonly now?: () => number;
}

interface KeptPage {
  readonly keptAt: number;
  readonly statusCode: number;
  readonly headers: OutgoingHttpHeaders;
  /** The Set-Cookie line of the XSRF cookie, split where its token stands. */
  readonly cookieParts: readonly string[];
  readonly body: GzipTemplate;
}

/** Headers that belong to one answer, or that this sets itself. */
const headersOfOneAnswer = new Set([
  'set-cookie',
  'x-request-id',
  'date',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'vary',
]);

export class FirstVisitPages {
  readonly #options: FirstVisitPagesOptions;
  readonly #paths: ReadonlySet<string>;
  readonly #kept = new Map<string, KeptPage>();
  readonly #keeping = new Set<string>();
  readonly #toKeep = new WeakMap<ServerResponse, string>();

  constructor(options: FirstVisitPagesOptions) {
    this.#options = options;
    this.#paths = new Set(options.paths);
  }

  /**
   * Answers a first visit with a copy of its kept page: true when it did. Called before the
   * answer is compressed (a copy is gzip already).
   */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const visit = this.#firstVisit(request);
    if (!visit) return false;
    const kept = this.#kept.get(visit.key);
    const now = (this.#options.now ?? Date.now)();
    if (
      kept &&
      now - kept.keptAt < this.#options.maxAgeMs &&
      acceptsCoding(request.headers['accept-encoding'], 'gzip')
    ) {
      const token = visit.token ?? this.#options.newToken();
      const body = kept.body.render(token);
      response.writeHead(kept.statusCode, {
        ...kept.headers,
        ...(visit.token ? {} : { 'set-cookie': kept.cookieParts.join(token) }),
        'content-encoding': 'gzip',
        'content-length': body.length,
        vary: 'Accept-Encoding',
      });
      response.end(body);
      return true;
    }
    if ((!kept || now - kept.keptAt >= this.#options.maxAgeMs) && !visit.token) {
      this.#toKeep.set(response, visit.key);
    }
    return false;
  }

  /**
   * Keeps the page Astro is about to write, when {@link serve} found it missing or old. Called
   * with the response whose `write` and `end` Astro will call (inside compression).
   */
  watch(response: ServerResponse): void {
    const key = this.#toKeep.get(response);
    if (key === undefined || this.#keeping.has(key)) return;
    this.#keep(key, response);
  }

  /** The visit's page and its anonymous token, if it is a first visit to a page kept here. */
  #firstVisit(request: IncomingMessage): { key: string; token?: string } | undefined {
    if (request.method !== 'GET' || !request.url || !this.#paths.has(request.url)) return undefined;
    // By path alone: the page names no host, and a key the client writes would grow without
    // bound. At most one page a path is kept.
    const key = request.url;
    const cookie = request.headers.cookie;
    if (cookie === undefined) return { key };
    // Only the XSRF cookie, with a token of ours for nobody signed in: the page reuses it.
    const [name, value, ...rest] = cookie.trim().split(/=|;\s*/);
    if (rest.some((part) => part !== '') || name !== this.#options.cookieName || !value) {
      return undefined;
    }
    return this.#options.isAnonymousToken(value) ? { key, token: value } : undefined;
  }

  /** Keeps the page Astro writes to `response`, if it is a page made for a first visit. */
  #keep(key: string, response: ServerResponse): void {
    this.#keeping.add(key);
    const pieces: Buffer[] = [];
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') {
        pieces.push(
          Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
        );
      } else if (chunk instanceof Uint8Array) {
        pieces.push(Buffer.from(chunk));
      }
    };
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    response.end = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') collect(chunk, rest[0]);
      try {
        const page = keptPage(response, Buffer.concat(pieces).toString('utf8'), this.#options);
        if (page) this.#kept.set(key, { ...page, keptAt: (this.#options.now ?? Date.now)() });
      } finally {
        this.#keeping.delete(key);
      }
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    response.once('close', () => this.#keeping.delete(key));
  }
}

/**
 * What to keep of an answer to a first visit: only a whole page (200, HTML) that set exactly
 * one cookie, the XSRF one, whose token the page carries; never anything naming the request.
 */
function keptPage(
  response: ServerResponse,
  body: string,
  { cookieName }: FirstVisitPagesOptions,
): Omit<KeptPage, 'keptAt'> | undefined {
  if (response.statusCode !== 200) return undefined;
  if (!String(response.getHeader('content-type') ?? '').startsWith('text/html')) return undefined;
  const setCookie = response.getHeader('set-cookie');
  const cookies = Array.isArray(setCookie)
    ? setCookie
    : setCookie === undefined
      ? []
      : [String(setCookie)];
  const [cookie, ...others] = cookies;
  if (!cookie || others.length > 0 || !cookie.startsWith(`${cookieName}=`)) return undefined;
  const token = cookie.slice(cookieName.length + 1).split(';')[0] ?? '';
  if (token.length < 16 || !body.includes(token)) return undefined;
  const requestId = String(response.getHeader('x-request-id') ?? '');
  if (requestId && body.includes(requestId)) return undefined;

  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (!headersOfOneAnswer.has(name) && value !== undefined) headers[name] = value;
  }
  return {
    statusCode: 200,
    headers,
    cookieParts: cookie.split(token),
    body: new GzipTemplate(body.split(token)),
  };
}
