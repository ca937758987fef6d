import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../route-matching';
import { cspReportBodyLimitBytes, formBodyLimitBytes, uploadBodyLimitBytes } from '../../routes';
import {
  BodyTooLargeError,
  bodyLimitFor,
  bodyLimitOfRequest,
  countedRequestBody,
  isBodyTooLarge,
} from './request-bodies';

const now = Date.parse('2026-11-25T12:00:00Z');
const sessionCookie = (expiresAt: number) => `session=${expiresAt}.${'t'.repeat(43)}`;

async function readAll(source: AsyncIterable<Uint8Array>): Promise<number> {
  let length = 0;
  for await (const chunk of source) length += chunk.byteLength;
  return length;
}

describe('bodyLimitFor', () => {
  it('gives a member the route’s own limit on a page that takes a file', () => {
    expect(bodyLimitFor(matchRoute('/dashboard'), true)).toBe(uploadBodyLimitBytes);
  });

  it('gives a visitor without a session the form limit on every page, whatever it takes', () => {
    for (const path of ['/dashboard', '/requests/12', '/requests/category/3', '/sign-in']) {
      expect(bodyLimitFor(matchRoute(path), false), path).toBe(formBodyLimitBytes);
    }
    expect(bodyLimitFor(matchRoute('/_actions/requests.create/'), false)).toBe(formBodyLimitBytes);
  });

  it('keeps a smaller limit smaller, with or without a session', () => {
    expect(bodyLimitFor(matchRoute('/csp-reports'), false)).toBe(cspReportBodyLimitBytes);
    expect(bodyLimitFor(matchRoute('/csp-reports'), true)).toBe(cspReportBodyLimitBytes);
  });

  it('lets a signed storage address take a whole file without a session', () => {
    expect(bodyLimitFor(matchRoute('/storage/uploads/token'), false)).toBe(uploadBodyLimitBytes);
  });
});

describe('bodyLimitOfRequest', () => {
  const limitOf = (url: string, cookie?: string) =>
    bodyLimitOfRequest({ url, headers: { cookie } }, 'session', now);

  it('reads the session from the cookie this server writes', () => {
    expect(limitOf('/dashboard?_action=requests.create', sessionCookie(now + 60_000))).toBe(
      uploadBodyLimitBytes,
    );
  });

  it('treats an expired, malformed or differently named session cookie as none', () => {
    expect(limitOf('/dashboard', sessionCookie(now - 1))).toBe(formBodyLimitBytes);
    expect(limitOf('/dashboard', 'session=forever')).toBe(formBodyLimitBytes);
    expect(limitOf('/dashboard', `x${sessionCookie(now + 60_000)}`)).toBe(formBodyLimitBytes);
    expect(limitOf('/dashboard')).toBe(formBodyLimitBytes);
  });

  it('matches the path the way the pages do, whatever the request line looks like', () => {
    const cookie = sessionCookie(now + 60_000);
    expect(limitOf('/dashboard/?x=1', cookie)).toBe(uploadBodyLimitBytes);
    expect(limitOf('//dashboard', cookie)).toBe(formBodyLimitBytes);
  });
});

/** A request whose body arrives in `count` chunks of `bytes`, and the answer to it. */
function exchange(count: number, bytes: number) {
  let pulled = 0;
  const request = Object.assign(
    new Readable({
      read() {
        if (pulled === count) {
          this.push(null);
          return;
        }
        pulled += 1;
        this.push(Buffer.alloc(bytes));
      },
    }),
    { complete: false },
  );
  const response = new EventEmitter();
  return {
    request,
    response,
    pulled: () => pulled,
    body: (limit: number) =>
      countedRequestBody(
        request as unknown as IncomingMessage,
        response as unknown as ServerResponse,
        limit,
      ),
  };
}

describe('countedRequestBody', () => {
  it('passes a body within the limit through whole', async () => {
    expect(await readAll(exchange(4, 1024).body(4096))).toBe(4096);
  });

  it('cuts a body at the first chunk that crosses the limit', async () => {
    const { body } = exchange(64, 1024);
    await expect(readAll(body(4096))).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('reads and drops what the client sends after the limit, so the answer reaches it', async () => {
    const { body, pulled, request } = exchange(64, 1024);
    await readAll(body(4096)).catch(() => undefined);
    await expect.poll(pulled).toBe(64);
    expect(request.readableEnded).toBe(true);
  });

  it('lets a client go that sends more than any route takes after the limit', async () => {
    const chunks = Math.ceil(uploadBodyLimitBytes / 65_536) * 2;
    const { body, pulled, request } = exchange(chunks, 65_536);
    await readAll(body(4096)).catch(() => undefined);
    await expect.poll(() => request.destroyed).toBe(true);
    expect(request.readableEnded).toBe(false);
    expect(pulled()).toBeLessThan(chunks);
  });

  it('reaches a reader of the request built on it as an error it can recognise', async () => {
    const request = new Request('http://portal.test/sign-in', {
      method: 'POST',
      body: Readable.toWeb(Readable.from(exchange(8, 1024).body(4096))),
      duplex: 'half',
    } as RequestInit);
    const failure: unknown = await request
      .clone()
      .arrayBuffer()
      .catch((error: unknown) => error);
    expect(isBodyTooLarge(failure)).toBe(true);
  });
});
