import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withRequestId } from '../../../platform/logger.ts';
import { ApiClient, ApiError, ApiUnavailableError, type ApiTransport } from './client';

function recordingTransport(answer: () => Response) {
  const requests: Request[] = [];
  const transport: ApiTransport = (request) => {
    requests.push(request);
    return Promise.resolve(answer());
  };
  return { requests, transport };
}

const client = (transport: ApiTransport, credentials = {}) =>
  new ApiClient({
    transport,
    baseUrl: 'http://api.test',
    credentials,
    clientAddress: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0',
  });

describe('the API client', () => {
  it('sends JSON with the session headers and the visitor address and browser', async () => {
    const { requests, transport } = recordingTransport(() => Response.json({ ok: true }));
    await client(transport, { token: 'tok', mfaToken: 'mfa' }).request('POST', '/api/v1/x', {
      body: { a: 1 },
    });
    const [sent] = requests;
    expect(sent?.url).toBe('http://api.test/api/v1/x');
    expect(sent?.headers.get('authorization')).toBe('Bearer tok');
    expect(sent?.headers.get('mfa-token')).toBe('mfa');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(sent?.headers.get('x-forwarded-for')).toBe('203.0.113.9');
    expect(sent?.headers.get('user-agent')).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0',
    );
    expect(await sent?.json()).toEqual({ a: 1 });
  });

  it('declares the length of the JSON it sends, in bytes', async () => {
    const { requests, transport } = recordingTransport(() => Response.json({ ok: true }));
    await client(transport).request('POST', '/api/v1/x', { body: { name: 'Zoë' } });
    expect(requests[0]?.headers.get('content-length')).toBe('15');
  });

  it('leaves out the session headers when there is no session', async () => {
    const { requests, transport } = recordingTransport(() => new Response(null, { status: 204 }));
    await client(transport).request('DELETE', '/api/v1/users/sign_out');
    expect(requests[0]?.headers.has('authorization')).toBe(false);
    expect(requests[0]?.headers.has('mfa-token')).toBe(false);
  });

  it('reads the server message from an error field', async () => {
    const { transport } = recordingTransport(() =>
      Response.json({ error: 'Invalid email or password.' }, { status: 401 }),
    );
    const failure = await client(transport)
      .request('GET', '/x')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, serverMessage: 'Invalid email or password.' });
    expect((failure as ApiError).isMfaRequired).toBe(false);
  });

  it('reads the server message from status.message (password reset)', async () => {
    const { transport } = recordingTransport(() =>
      Response.json({ status: { message: 'Token expired' } }, { status: 422 }),
    );
    await expect(client(transport).request('PUT', '/x')).rejects.toMatchObject({
      serverMessage: 'Token expired',
    });
  });

  it('recognises the 401 that asks for the MFA step', async () => {
    const { transport } = recordingTransport(() =>
      Response.json({ error: 'MFA authentication required' }, { status: 401 }),
    );
    await expect(client(transport).request('GET', '/x')).rejects.toMatchObject({
      isMfaRequired: true,
      isUnauthorized: true,
    });
  });

  it('has no server message when the error body is not JSON', async () => {
    const { transport } = recordingTransport(
      () => new Response('<html>Internal error', { status: 500 }),
    );
    await expect(client(transport).request('GET', '/x')).rejects.toMatchObject({
      status: 500,
      serverMessage: undefined,
    });
  });

  it('refuses an answer that does not have the agreed shape', async () => {
    const { transport } = recordingTransport(() => Response.json({ full_name: 42 }));
    await expect(
      client(transport).request('GET', '/x', { schema: z.object({ full_name: z.string() }) }),
    ).rejects.toMatchObject({ status: 502 });
  });

  it('passes on the id of the request being served', async () => {
    const { requests, transport } = recordingTransport(() => Response.json({}));
    await withRequestId('req-0123456789', () => client(transport).request('GET', '/x'));
    expect(requests[0]?.headers.get('x-request-id')).toBe('req-0123456789');
  });

  it('gives up on an API that does not answer within its time limit', async () => {
    const never: ApiTransport = () => new Promise(() => undefined);
    const limited = new ApiClient({ transport: never, baseUrl: 'http://api.test', timeoutMs: 50 });
    const startedAt = Date.now();
    const failure = limited.request('GET', '/api/v1/users/current');
    await expect(failure).rejects.toBeInstanceOf(ApiUnavailableError);
    await expect(failure).rejects.toMatchObject({
      status: 503,
      reason: 'GET /api/v1/users/current got no answer within 50 ms',
    });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('gives up on an answer whose body does not arrive in time', async () => {
    const stalled: ApiTransport = () =>
      Promise.resolve(new Response(new ReadableStream({ start: () => undefined })));
    const limited = new ApiClient({
      transport: stalled,
      baseUrl: 'http://api.test',
      timeoutMs: 50,
    });
    await expect(limited.request('GET', '/x')).rejects.toBeInstanceOf(ApiUnavailableError);
  });

  it('waits as long as it takes without a time limit', async () => {
    const slow: ApiTransport = () =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolve(Response.json({ ok: true }));
        }, 60),
      );
    const unlimited = new ApiClient({ transport: slow, baseUrl: 'http://api.test', timeoutMs: 0 });
    await expect(unlimited.request('GET', '/x')).resolves.toMatchObject({ data: { ok: true } });
  });

  it('calls an API it cannot reach unavailable', async () => {
    const refused: ApiTransport = () => Promise.reject(new TypeError('fetch failed'));
    await expect(client(refused).request('GET', '/x')).rejects.toMatchObject({
      name: 'ApiUnavailableError',
      reason: 'GET /x could not reach the API',
    });
  });

  it('names an unavailable call by its path alone: an unlock token travels in the query', async () => {
    const { transport } = recordingTransport(() => new Response(null, { status: 503 }));
    const failure = client(transport).request('GET', '/api/v1/users/unlock?unlock_token=secret');
    await expect(failure).rejects.toMatchObject({
      reason: 'GET /api/v1/users/unlock answered 503',
    });
  });

  it.each([502, 503, 504])('calls an API that answers %i unavailable', async (status) => {
    const { transport } = recordingTransport(() => Response.json({ error: 'down' }, { status }));
    await expect(client(transport).request('GET', '/x')).rejects.toBeInstanceOf(
      ApiUnavailableError,
    );
  });

  describe('reading ahead', () => {
    const batchAnswer = () =>
      Response.json({
        responses: [
          { status: 200, body: { name: 'Avery' } },
          { status: 404, body: { error: 'Not found.' } },
        ],
      });

    it("asks for every read in one batch, and answers the page's calls from it", async () => {
      const { requests, transport } = recordingTransport(batchAnswer);
      const api = client(transport, { token: 'tok' });

      await api.readAhead(['/api/v1/users/current', '/api/v1/requests/r-1']);
      const member = await api.request('GET', '/api/v1/users/current', {
        schema: z.object({ name: z.string() }),
      });
      const missing = await api
        .request('GET', '/api/v1/requests/r-1')
        .catch((error: unknown) => error);

      expect(requests).toHaveLength(1);
      expect(requests[0]?.url).toBe('http://api.test/api/v1/batch');
      expect(requests[0]?.headers.get('authorization')).toBe('Bearer tok');
      expect(await requests[0]?.json()).toEqual({
        requests: [
          { method: 'GET', path: '/api/v1/users/current' },
          { method: 'GET', path: '/api/v1/requests/r-1' },
        ],
      });
      expect(member.data).toEqual({ name: 'Avery' });
      expect(missing).toMatchObject({ status: 404, serverMessage: 'Not found.' });
    });

    it('goes to the API for a path it did not read, and for any call but a GET', async () => {
      const { requests, transport } = recordingTransport(batchAnswer);
      const api = client(transport, { token: 'tok' });
      await api.readAhead(['/api/v1/users/current', '/api/v1/requests/r-1']);

      await api.request('GET', '/api/v1/dashboard').catch(() => undefined);
      await api.request('PATCH', '/api/v1/users/current').catch(() => undefined);

      expect(
        requests.map((request) => `${request.method} ${new URL(request.url).pathname}`),
      ).toEqual(['POST /api/v1/batch', 'GET /api/v1/dashboard', 'PATCH /api/v1/users/current']);
    });

    it('reads anew once the credentials changed (a session just started)', async () => {
      const { requests, transport } = recordingTransport(batchAnswer);
      const credentials = { token: 'old' };
      const api = client(transport, {
        get token() {
          return credentials.token;
        },
      });
      await api.readAhead(['/api/v1/users/current', '/api/v1/requests/r-1']);

      credentials.token = 'new';
      await api.request('GET', '/api/v1/users/current').catch(() => undefined);

      expect(requests).toHaveLength(2);
      expect(requests[1]?.headers.get('authorization')).toBe('Bearer new');
    });

    it.each([
      ['the API has no batches', 404],
      ['the batch failed', 500],
    ])('leaves the calls to go one by one when %s', async (_case, status) => {
      const { requests, transport } = recordingTransport(() =>
        Response.json({ error: 'No batch here.' }, { status }),
      );
      const api = client(transport, { token: 'tok' });

      await api.readAhead(['/api/v1/users/current', '/api/v1/dashboard']);
      await api.request('GET', '/api/v1/users/current').catch(() => undefined);

      expect(requests.map((request) => new URL(request.url).pathname)).toEqual([
        '/api/v1/batch',
        '/api/v1/users/current',
      ]);
    });

    it('throws when every call would fail alike: the session ended, or the API is away', async () => {
      const unavailable = recordingTransport(() =>
        Response.json({ error: 'Service unavailable.' }, { status: 503 }),
      );
      const away = await client(unavailable.transport, { token: 'tok' })
        .readAhead(['/api/v1/users/current', '/api/v1/dashboard'])
        .catch((error: unknown) => error);
      expect(away).toBeInstanceOf(ApiUnavailableError);

      const { transport } = recordingTransport(() =>
        Response.json(
          { error: 'Your session has expired. Please sign in again.' },
          { status: 401 },
        ),
      );

      const failure = await client(transport, { token: 'tok' })
        .readAhead(['/api/v1/users/current', '/api/v1/dashboard'])
        .catch((error: unknown) => error);

      expect(failure).toMatchObject({ status: 401, isUnauthorized: true });
    });

    it('names the version the API read with, and asks "unless" the version it is given', async () => {
      const { requests, transport } = recordingTransport(() =>
        Response.json({ version: '41', responses: [] }),
      );
      const api = client(transport, { token: 'tok' });

      const outcome = await api.readAhead(['/api/v1/users/current', '/api/v1/dashboard'], {
        unlessVersion: '40',
      });

      expect(outcome).toEqual({ version: '41', unchanged: false });
      expect(await requests[0]?.json()).toMatchObject({ unless_version: '40' });
    });

    it('answers "unchanged" only for the very version asked about, and then reads nothing', async () => {
      const { requests, transport } = recordingTransport(() =>
        Response.json({ version: '40', unchanged: true }),
      );
      const api = client(transport, { token: 'tok' });
      const paths = ['/api/v1/users/current', '/api/v1/dashboard'];

      expect(await api.readAhead(paths, { unlessVersion: '40' })).toEqual({
        version: '40',
        unchanged: true,
      });
      // Another version's "unchanged" says nothing of this copy; nor does one asked for nothing.
      expect(await api.readAhead(paths, { unlessVersion: '39' })).toEqual({
        version: undefined,
        unchanged: false,
      });
      expect(await api.readAhead(paths)).toEqual({ version: undefined, unchanged: false });
      await api.request('GET', '/api/v1/dashboard').catch(() => undefined);
      expect(requests.map((request) => new URL(request.url).pathname).at(-1)).toBe(
        '/api/v1/dashboard',
      );
    });

    it('finds no version in the answer of an API that names none', async () => {
      const { transport } = recordingTransport(batchAnswer);

      const outcome = await client(transport, { token: 'tok' }).readAhead(
        ['/api/v1/users/current', '/api/v1/requests/r-1'],
        { unlessVersion: '40' },
      );

      expect(outcome).toEqual({ version: undefined, unchanged: false });
    });

    it('sends no batch for a single read: the call alone costs the same', async () => {
      const { requests, transport } = recordingTransport(batchAnswer);

      await client(transport, { token: 'tok' }).readAhead(['/api/v1/users/current']);

      expect(requests).toHaveLength(0);
    });
  });
});
