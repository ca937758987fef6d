import { statSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startPortalServer } from './support/portal-server';

test('pages are compressed for browsers that accept it', async ({ request }) => {
  const brotli = await request.get('/sign-in', { headers: { 'accept-encoding': 'br' } });
  expect(brotli.headers()['content-encoding']).toBe('br');
  const gzip = await request.get('/sign-in', { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
});

/** The window a brotli stream was made with, in bits, from its first byte (as RFC 7932 lays out a stream header). */
function brotliWindowBits(firstByte: number): number {
  if ((firstByte & 1) === 0) return 16;
  const large = (firstByte >> 1) & 7;
  if (large !== 0) return 17 + large;
  const small = (firstByte >> 4) & 7;
  return small === 0 ? 17 : 8 + small;
}

test('pages are compressed with a window that fits them, not brotli’s 4 MB', async ({
  baseURL,
}) => {
  // Each response's encoder claims memory in proportion to its window; at 4 MB, V8 collected its
  // whole heap every score of pages under load.
  const firstByte = await new Promise<number>((resolve, reject) => {
    httpGet(
      new URL('/no-such-page', baseURL),
      { headers: { 'accept-encoding': 'br' } },
      (answer) => {
        expect(answer.headers['content-encoding']).toBe('br');
        answer.once('data', (chunk: Buffer) => {
          resolve(chunk[0] ?? 0);
          answer.destroy();
        });
      },
    ).on('error', reject);
  });
  expect(brotliWindowBits(firstByte)).toBeLessThanOrEqual(18);
});

test('scripts come precompressed, to be kept for good, and the same once decoded', async ({
  request,
}) => {
  const html = await (await request.get('/sign-in')).text();
  const script = /component-url="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1] ?? '';
  expect(script).not.toBe('');

  const plain = await request.get(script, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  for (const encoding of ['br', 'gzip']) {
    const compressed = await request.get(script, { headers: { 'accept-encoding': encoding } });
    const headers = compressed.headers();
    expect(headers['content-encoding']).toBe(encoding);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers['vary']).toBe('Accept-Encoding');
    expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(headers['x-content-type-options']).toBe('nosniff');
    // Served as the build wrote it, not compressed again for this request.
    const copy = path.join('dist/client', `${script}.${encoding === 'br' ? 'br' : 'gz'}`);
    expect(Number(headers['content-length'])).toBe(statSync(copy).size);
    expect((await compressed.body()).equals(await plain.body())).toBe(true);
  }
});

/** A GET naming `host` in its Host header (fetch sends the address's own). */
function getWithHost(
  url: string,
  host: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { host } }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => {
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body });
      });
    }).on('error', reject);
  });
}

test('a request for a name that is not the server’s is answered 421 before any work', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const { port } = new URL(origin);
  for (const host of ['evil.example', `made-up-${Date.now()}.example:${port}`, 'localhost:1']) {
    const answer = await getWithHost(`${origin}/sign-in`, host);
    expect(answer.status, host).toBe(421);
    expect(answer.headers['set-cookie'], host).toBeUndefined();
    expect(answer.body, host).toContain(`This server answers as ${origin}.`);
  }
  // Its own names, and probes by whatever name their platform gives the server.
  for (const host of [new URL(origin).host, `localhost:${port}`]) {
    expect((await getWithHost(`${origin}/sign-in`, host)).status, host).toBe(200);
  }
  expect((await getWithHost(`${origin}/healthz`, '10.1.2.3:8080')).status).toBe(200);
});

test('pages carry the security headers', async ({ request }) => {
  const headers = (await request.get('/sign-in')).headers();
  expect(headers['content-security-policy']).toContain("object-src 'none'");
  expect(headers['content-security-policy']).toContain("base-uri 'none'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cache-control']).toBe('private, no-store');
});

test('pages whose address carries a token send it to no other site', async ({ request }) => {
  for (const path of ['/reset-password/some-token', '/unlock/some-token']) {
    const headers = (await request.get(path)).headers();
    expect(headers['referrer-policy']).toBe('same-origin');
  }
});

test('a form post from another site is refused', async ({ request }) => {
  const response = await request.post('/sign-in?_action=auth.signIn', {
    headers: { origin: 'https://evil.example' },
    form: { email: 'member@example.com', password: 'portal-demo-2026' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});

test('an action call without the XSRF token is refused with a clear message', async ({
  request,
  baseURL,
}) => {
  await request.get('/sign-in');
  const response = await request.post('/_actions/auth.signIn/', {
    headers: { origin: baseURL ?? '', 'content-type': 'application/json' },
    data: { email: 'member@example.com', password: 'portal-demo-2026' },
  });
  expect(response.status()).toBe(403);
  expect(await response.json()).toMatchObject({
    message: 'This form has expired. Please reload the page and try again.',
  });
});

test('with files in an S3 bucket, pages may send files to the bucket and nowhere else', async ({
  request,
}) => {
  const portal = await startPortalServer({
    env: {
      // Nothing is sent to the bucket here: the page's policy is all this looks at.
      S3_BUCKET: 'portal-files',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'test-key',
      S3_SECRET_ACCESS_KEY: 'test-secret',
      SEED_DEMO_DATA: 'false',
    },
  });
  try {
    const page = await request.get(`${portal.baseURL}/sign-in`);
    const policy = page.headers()['content-security-policy'] ?? '';
    const connectSources = /connect-src ([^;]+)/.exec(policy)?.[1]?.split(/\s+/) ?? [];
    expect(connectSources.sort()).toEqual(["'self'", 'http://127.0.0.1:9']);
  } finally {
    await portal.stop();
  }
});
