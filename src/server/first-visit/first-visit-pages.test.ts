import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../../../scripts/free-port.mjs';
import { FirstVisitPages, type FirstVisitPagesOptions } from './first-visit-pages';

const cookieName = 'XSRF-TOKEN';
const page = (token: string) =>
  `<!doctype html><title>Sign in</title><form><input type="hidden" name="_xsrf" value="${token}">` +
  `</form><astro-island props='{"xsrfToken":[0,"${token}"]}'></astro-island>`;

interface Rendering {
  status?: number;
  cookies?: string[];
  body?: (token: string, requestId: string) => string;
}

/** A server shaped like scripts/start.mjs: copies first, else the page "Astro" renders. */
class TestServer {
  renders = 0;
  clock = 0;
  rendering: Rendering = {};
  readonly pages: FirstVisitPages;
  #tokens = 0;
  #server: Server;

  constructor(options: Partial<FirstVisitPagesOptions> = {}) {
    this.pages = new FirstVisitPages({
      paths: ['/sign-in'],
      cookieName,
      newToken: () => this.newToken(),
      isAnonymousToken: (token) => token.startsWith('anonymous-'),
      maxAgeMs: 60_000,
      now: () => this.clock,
      ...options,
    });
    this.#server = createServer((request, response) => {
      response.setHeader('x-request-id', `request-${this.renders}-${this.#tokens}`);
      if (this.pages.serve(request, response)) return;
      this.pages.watch(response);
      this.#render(request, response);
    });
  }

  newToken(): string {
    this.#tokens += 1;
    return `anonymous-${String(this.#tokens).padStart(20, '0')}`;
  }

  #render(request: IncomingMessage, response: ServerResponse) {
    this.renders += 1;
    const sent = /XSRF-TOKEN=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    const token = sent ?? this.newToken();
    const { status = 200, cookies, body = page } = this.rendering;
    response.statusCode = status;
    response.setHeader('content-type', 'text/html');
    response.setHeader('content-security-policy', "default-src 'self'");
    response.setHeader('cache-control', 'no-store');
    if (cookies) response.setHeader('set-cookie', cookies);
    else if (!sent)
      response.setHeader('set-cookie', `${cookieName}=${token}; Path=/; SameSite=Lax`);
    // Astro writes a page in pieces.
    const html = body(token, String(response.getHeader('x-request-id')));
    response.write(html.slice(0, 20));
    response.end(html.slice(20));
  }

  async listen(): Promise<string> {
    return `http://127.0.0.1:${await listenOnFreePort(this.#server)}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) =>
      this.#server.close(() => {
        resolve();
      }),
    );
  }
}

interface Visit {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  token: string | undefined;
}

/** A visit with Node's client, which hands over the bytes as sent (fetch would decompress). */
function visit(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Visit> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers: { 'accept-encoding': 'gzip', ...headers } }, (response) => {
      const pieces: Buffer[] = [];
      response.on('data', (piece: Buffer) => pieces.push(piece));
      response.on('end', () => {
        const bytes = Buffer.concat(pieces);
        const body =
          response.headers['content-encoding'] === 'gzip'
            ? gunzipSync(bytes).toString('utf8')
            : bytes.toString('utf8');
        const cookie = response.headers['set-cookie']?.join('\n') ?? '';
        const token = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1];
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, token });
      });
    })
      .on('error', reject)
      .end();
  });
}

let server: TestServer;
let origin: string;

beforeEach(async () => {
  server = new TestServer();
  origin = await server.listen();
});

afterEach(async () => {
  await server.close();
});

describe('FirstVisitPages', () => {
  it('renders the first visit, then gives the next ones copies with tokens of their own', async () => {
    const first = await visit(`${origin}/sign-in`);
    const second = await visit(`${origin}/sign-in`);
    const third = await visit(`${origin}/sign-in`);

    expect(server.renders).toBe(1);
    for (const copy of [second, third]) {
      expect(copy.status).toBe(200);
      expect(copy.headers['content-encoding']).toBe('gzip');
      expect(copy.token).toMatch(/^anonymous-/);
      expect(copy.body).toBe(page(copy.token ?? ''));
    }
    expect(new Set([first.token, second.token, third.token]).size).toBe(3);
  });

  it('gives a copy the headers of the page it copies, and the cookie with the same attributes', async () => {
    const kept = await visit(`${origin}/sign-in`);
    const copy = await visit(`${origin}/sign-in`);
    expect(copy.headers['content-security-policy']).toBe("default-src 'self'");
    expect(copy.headers['cache-control']).toBe('no-store');
    expect(copy.headers['content-type']).toBe('text/html');
    expect(copy.headers['vary']).toBe('Accept-Encoding');
    expect(copy.headers['set-cookie']).toEqual([
      `${cookieName}=${copy.token}; Path=/; SameSite=Lax`,
    ]);
    // Its own request id, never the kept one.
    expect(copy.headers['x-request-id']).toMatch(/^request-/);
    expect(copy.headers['x-request-id']).not.toBe(kept.headers['x-request-id']);
  });

  it('keeps the token of a visitor who has one of ours, and sets no cookie', async () => {
    await visit(`${origin}/sign-in`);
    const token = server.newToken();
    const copy = await visit(`${origin}/sign-in`, { cookie: `${cookieName}=${token}` });
    expect(server.renders).toBe(1);
    expect(copy.headers['set-cookie']).toBeUndefined();
    expect(copy.body).toBe(page(token));
  });

  it('keeps one page a path, whatever Host the visits name', async () => {
    await visit(`${origin}/sign-in`, { host: 'made-up-0.example' });
    const copies = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        visit(`${origin}/sign-in`, { host: `made-up-${index + 1}.example` }),
      ),
    );
    expect(server.renders).toBe(1);
    expect(copies.every(({ headers }) => headers['content-encoding'] === 'gzip')).toBe(true);
  });

  it('renders every visit that is not a plain first one', async () => {
    await visit(`${origin}/sign-in`);
    const rendered = [
      await visit(`${origin}/sign-in`, { cookie: 'session=abc' }),
      await visit(`${origin}/sign-in`, { cookie: `${cookieName}=anonymous-1; flash=x` }),
      await visit(`${origin}/sign-in`, { cookie: `${cookieName}=forged-token` }),
      await visit(`${origin}/sign-in?returnTo=%2Frequests`),
      await visit(`${origin}/sign-in`, { 'accept-encoding': 'br' }),
      await visit(`${origin}/sign-in`, { 'accept-encoding': 'gzip;q=0, br' }),
      await visit(`${origin}/sign-in`, {}, 'HEAD'),
      await visit(`${origin}/dashboard`),
    ];
    expect(server.renders).toBe(1 + rendered.length);
    expect(rendered.every(({ headers }) => headers['content-encoding'] !== 'gzip')).toBe(true);
  });

  it('renders again once the copy is older than its age, and copies the new page', async () => {
    await visit(`${origin}/sign-in`);
    server.rendering = { body: (token) => `${page(token)}<p>New words</p>` };
    server.clock = 60_000;
    await visit(`${origin}/sign-in`);
    const copy = await visit(`${origin}/sign-in`);
    expect(server.renders).toBe(2);
    expect(copy.body).toBe(`${page(copy.token ?? '')}<p>New words</p>`);
  });

  it.each<[string, Rendering]>([
    ['a page that is not a success', { status: 400 }],
    [
      'a page that sets another cookie too',
      { cookies: [`${cookieName}=anonymous-x; Path=/`, 'flash=1'] },
    ],
    ['a page that does not carry its token', { body: () => '<p>No form here</p>' }],
    ['a page that names its request', { body: (token, requestId) => `${page(token)}${requestId}` }],
  ])('never keeps %s', async (_, rendering) => {
    server.rendering = rendering;
    await visit(`${origin}/sign-in`);
    await visit(`${origin}/sign-in`);
    expect(server.renders).toBe(2);
  });
});
