import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDirectory, listStaticFiles, staticFiles } from './static-files.mjs';

let root: string;
let server: Server;
let origin: string;
/** What the server was left to answer after the static files: the pages. */
const handedOn: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'static-files-'));
  const client = path.join(root, clientDirectory);
  mkdirSync(path.join(client, '_astro'), { recursive: true });
  writeFileSync(path.join(client, 'robots.txt'), 'User-agent: *\nDisallow:\n');
  writeFileSync(path.join(client, '.hidden'), 'secret');
  writeFileSync(path.join(client, '_astro', 'app.a1b2.js'), 'console.log("plain");');
  writeFileSync(path.join(client, '_astro', 'app.a1b2.js.br'), 'brotli bytes');
  writeFileSync(path.join(client, '_astro', 'app.a1b2.js.gz'), 'gzip bytes!');
  const serveStatic = staticFiles(root);
  server = createServer((request, response) => {
    if (serveStatic(request, response)) return;
    handedOn.push(request.url ?? '');
    response.writeHead(200).end('page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('listStaticFiles', () => {
  it('lists the files by the path a browser asks for, without copies or dot-files', () => {
    const files = listStaticFiles(path.join(root, clientDirectory));
    expect([...files.keys()].sort()).toEqual(['/_astro/app.a1b2.js', '/robots.txt']);
  });

  it('lists nothing when there is no build', () => {
    expect(listStaticFiles(path.join(root, 'missing')).size).toBe(0);
  });
});

describe('staticFiles', () => {
  it('serves a file of the build with its type, a validator and a short cache life', async () => {
    const response = await fetch(`${origin}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('User-agent: *\nDisallow:\n');
  });

  it('answers 304 to a browser that has the same version', async () => {
    const first = await fetch(`${origin}/robots.txt`);
    await first.arrayBuffer();
    const again = await fetch(`${origin}/robots.txt`, {
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('serves a hashed script from the copy the browser takes, each with its own validator', async () => {
    // fetch would decode the copies; the raw bytes show which one was sent.
    const ask = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const address = `${origin}/_astro/app.a1b2.js`;
        get(address, { headers: { 'accept-encoding': encoding } }, (answer) => {
          let body = '';
          answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
          answer.on('end', () => {
            resolve({ headers: answer.headers, body });
          });
        }).on('error', reject);
      });
    const brotli = await ask('gzip, br');
    expect(brotli.body).toBe('brotli bytes');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    const gzip = await ask('gzip');
    expect(gzip.body).toBe('gzip bytes!');
    expect(gzip.headers['content-length']).toBe('11');
    const plain = await ask('identity');
    expect(plain.body).toBe('console.log("plain");');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(new Set([brotli.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
  });

  it('hands on every other path, a dot-file, a copy by its own name and a non-GET alike', async () => {
    handedOn.length = 0;
    for (const address of ['/dashboard', '/.hidden', '/_astro/app.a1b2.js.br', '/robots.txt/']) {
      await (await fetch(`${origin}${address}`)).arrayBuffer();
    }
    await (await fetch(`${origin}/robots.txt`, { method: 'POST', body: 'x' })).arrayBuffer();
    expect(handedOn).toEqual([
      '/dashboard',
      '/.hidden',
      '/_astro/app.a1b2.js.br',
      '/robots.txt/',
      '/robots.txt',
    ]);
  });

  it('answers a file asked for with a query string too', async () => {
    const response = await fetch(`${origin}/robots.txt?v=2`);
    expect(response.status).toBe(200);
  });
});
