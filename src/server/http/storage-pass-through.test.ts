import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { withRequestId } from '../../../platform/logger.ts';
import { ApiUnavailableError, type ApiTransport } from '../api/client';
import { BodyTooLargeError } from './request-bodies';
import { passToStorage } from './storage-pass-through';

const site = 'http://portal.test';
const uploadPath = '/storage/uploads/a-signed-token?x=1';

function recordingTransport(answer: () => Response = () => new Response(null, { status: 204 })) {
  const requests: Request[] = [];
  const transport: ApiTransport = (request) => {
    requests.push(request);
    return Promise.resolve(answer());
  };
  return { requests, transport };
}

/** A visitor's upload: `pieces` of bytes, each `everyMs` after the last. */
function slowBody(pieces: Uint8Array[], everyMs: number): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      const piece = pieces[next++];
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
}

const put = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(`${site}${uploadPath}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);

/** An API on a loopback port, answering with `handle`. */
let server: Server | undefined;
async function apiOverHttp(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const stopping = server;
  server = undefined;
  if (!stopping?.listening) return;
  stopping.closeAllConnections();
  await new Promise((resolve) => stopping.close(resolve));
});

const overHttp = (baseUrl: string, timeoutMs = 0) => ({
  transport: (request: Request) => fetch(request),
  baseUrl,
  visitorAddress: '203.0.113.9',
  timeoutMs,
});

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of request) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

describe('passing storage addresses to the API', () => {
  it('hands the API the upload’s declaration, the visitor’s address and the request id, and nothing else', async () => {
    const { requests, transport } = recordingTransport();
    const bytes = new TextEncoder().encode('%PDF-1.4');
    await withRequestId('request-id-1', () =>
      passToStorage(
        put(bytes, {
          'content-length': String(bytes.byteLength),
          'x-checksum-sha256': 'c2hhMjU2',
          origin: site,
          cookie: 'session=1.secret',
          authorization: 'Bearer secret',
          'x-forwarded-for': '198.51.100.1',
          'x-portal-client-address': '198.51.100.2',
          'x-request-id': 'chosen-by-the-visitor',
        }),
        { transport, baseUrl: 'http://api.test', visitorAddress: '203.0.113.9', timeoutMs: 0 },
      ),
    );
    const [sent] = requests;
    expect(sent?.url).toBe(`http://api.test${uploadPath}`);
    expect(sent?.method).toBe('PUT');
    expect(Object.fromEntries(sent?.headers ?? [])).toEqual({
      'accept-encoding': 'identity',
      'content-length': '8',
      'content-type': 'application/pdf',
      'x-checksum-sha256': 'c2hhMjU2',
      origin: site,
      'x-forwarded-for': '203.0.113.9',
      'x-request-id': 'request-id-1',
    });
    expect(new Uint8Array((await sent?.arrayBuffer()) ?? [])).toEqual(bytes);
  });

  it('hands a CORS preflight’s questions to the API', async () => {
    const { requests, transport } = recordingTransport();
    await passToStorage(
      new Request(`${site}${uploadPath}`, {
        method: 'OPTIONS',
        headers: {
          origin: site,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type,x-checksum-sha256',
        },
      }),
      { transport, baseUrl: 'http://api.test', visitorAddress: undefined, timeoutMs: 0 },
    );
    expect(requests[0]?.headers.get('access-control-request-method')).toBe('PUT');
    expect(requests[0]?.headers.get('access-control-request-headers')).toBe(
      'content-type,x-checksum-sha256',
    );
    expect(requests[0]?.headers.has('x-forwarded-for')).toBe(false);
  });

  it('hands back the API’s answer without its connection headers, cookies or request id, in headers that can be added to', async () => {
    const { transport } = recordingTransport(
      () =>
        new Response('file', {
          status: 200,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="a.pdf"',
            connection: 'keep-alive',
            'keep-alive': 'timeout=5',
            'set-cookie': 'tracker=1',
            'x-request-id': 'the-apis-own-id',
          },
        }),
    );
    const answer = await passToStorage(new Request(`${site}/storage/files/a-signed-token`), {
      transport,
      baseUrl: 'http://api.test',
      visitorAddress: undefined,
      timeoutMs: 0,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="a.pdf"');
    expect(answer.headers.has('connection')).toBe(false);
    expect(answer.headers.has('keep-alive')).toBe(false);
    expect(answer.headers.has('set-cookie')).toBe(false);
    expect(answer.headers.has('x-request-id')).toBe(false);
    answer.headers.set('x-frame-options', 'DENY');
    expect(await answer.text()).toBe('file');
  });

  it('streams an upload to an API over HTTP with its declared length, and the API’s answer back', async () => {
    let received:
      { length?: string | undefined; chunked?: string | undefined; bytes: Buffer } | undefined;
    const origin = await apiOverHttp((request, response) => {
      void readAll(request).then((bytes) => {
        received = {
          length: request.headers['content-length'],
          chunked: request.headers['transfer-encoding'],
          bytes,
        };
        response.writeHead(204).end();
      });
    });
    const pieces = [new Uint8Array(1000).fill(1), new Uint8Array(500).fill(2)];
    const answer = await passToStorage(
      put(slowBody(pieces, 10), { 'content-length': '1500' }),
      overHttp(origin),
    );
    expect(answer.status).toBe(204);
    expect(received?.length).toBe('1500');
    expect(received?.chunked).toBeUndefined();
    expect(received?.bytes).toEqual(Buffer.concat(pieces));
  });

  it('answers that the API is unavailable when nothing listens at its origin', async () => {
    const origin = await apiOverHttp(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    await expect(
      passToStorage(new Request(`${site}/storage/files/a-signed-token`), overHttp(origin, 1_000)),
    ).rejects.toThrow(ApiUnavailableError);
  });

  it('gives up when the API has the whole upload and does not answer in time', async () => {
    const origin = await apiOverHttp((request) => {
      void readAll(request);
    });
    const started = Date.now();
    await expect(passToStorage(put('%PDF-1.4'), overHttp(origin, 200))).rejects.toThrow(
      'kept waiting on the API for 200 ms before an answer',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives up on the embedded API when it keeps the exchange waiting, though it ignores the abort signal', async () => {
    const neverAnswers: ApiTransport = () => new Promise<Response>(() => undefined);
    await expect(
      passToStorage(new Request(`${site}/storage/files/a-signed-token`), {
        transport: neverAnswers,
        baseUrl: 'http://embedded-api.internal',
        visitorAddress: undefined,
        timeoutMs: 100,
      }),
    ).rejects.toThrow(ApiUnavailableError);
  });

  it('waits for a visitor whose upload takes longer than the time limit, as long as it keeps coming', async () => {
    const origin = await apiOverHttp((request, response) => {
      void readAll(request).then(() => response.writeHead(204).end());
    });
    const pieces = Array.from({ length: 6 }, () => new Uint8Array(100));
    const answer = await passToStorage(put(slowBody(pieces, 100)), overHttp(origin, 250));
    expect(answer.status).toBe(204);
  });

  it('lets the visitor read the refusal of an API that answered before taking the whole upload', async () => {
    const origin = await apiOverHttp((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end('{"error":"This upload address is invalid or has expired."}');
    });
    const pieces = Array.from({ length: 8 }, () => new Uint8Array(64 * 1024));
    const answer = await passToStorage(put(slowBody(pieces, 50)), overHttp(origin, 150));
    expect(answer.status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await answer.json()).toEqual({
      error: 'This upload address is invalid or has expired.',
    });
  });

  it('cuts off a download the API stops sending midway', async () => {
    const origin = await apiOverHttp((_request, response) => {
      response.writeHead(200, { 'content-length': '2000' });
      response.write(Buffer.alloc(1000));
    });
    const answer = await passToStorage(
      new Request(`${site}/storage/files/a-signed-token`),
      overHttp(origin, 200),
    );
    expect(answer.status).toBe(200);
    await expect(answer.arrayBuffer()).rejects.toThrow('kept waiting on the API for 200 ms');
  });

  it('does not hurry a visitor who reads a download slowly', async () => {
    const origin = await apiOverHttp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(200_000, 7));
    });
    const answer = await passToStorage(
      new Request(`${site}/storage/files/a-signed-token`),
      overHttp(origin, 100),
    );
    const body = answer.body;
    if (!body) throw new Error('The download has no body');
    const reader = body.getReader();
    let length = 0;
    for (;;) {
      const piece = await reader.read();
      if (piece.done) break;
      length += piece.value.byteLength;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(length).toBe(200_000);
  });

  it('turns an upload that outgrows its limit into the body limit’s error, whatever the API answered', async () => {
    const outgrown = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new BodyTooLargeError('The body is larger than 10 bytes.'));
      },
    });
    // The embedded API reads the body, finds it broken, and answers 500.
    const embedded: ApiTransport = async (request) => {
      await request.arrayBuffer().catch(() => undefined);
      return new Response('{"error":"Something went wrong."}', { status: 500 });
    };
    await expect(
      passToStorage(put(outgrown), {
        transport: embedded,
        baseUrl: 'http://embedded-api.internal',
        visitorAddress: undefined,
        timeoutMs: 0,
      }),
    ).rejects.toThrow(BodyTooLargeError);
  });

  it('turns an upload that outgrows its limit on its way to an API over HTTP into the body limit’s error', async () => {
    const origin = await apiOverHttp((request, response) => {
      void readAll(request)
        .catch(() => undefined)
        .then(() => response.writeHead(204).end());
    });
    const outgrown = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new BodyTooLargeError('The body is larger than 10 bytes.'));
      },
    });
    await expect(passToStorage(put(outgrown), overHttp(origin, 1_000))).rejects.toThrow(
      BodyTooLargeError,
    );
  });
});
