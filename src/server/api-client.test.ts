import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient, ApiError, type ApiTransport } from './api-client';

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
  });

describe('the API client', () => {
  it('sends JSON with the session headers and the visitor address', async () => {
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
    expect(await sent?.json()).toEqual({ a: 1 });
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
      () => new Response('<html>Bad gateway', { status: 502 }),
    );
    await expect(client(transport).request('GET', '/x')).rejects.toMatchObject({
      status: 502,
      serverMessage: undefined,
    });
  });

  it('refuses an answer that does not have the agreed shape', async () => {
    const { transport } = recordingTransport(() => Response.json({ full_name: 42 }));
    await expect(
      client(transport).request('GET', '/x', { schema: z.object({ full_name: z.string() }) }),
    ).rejects.toMatchObject({ status: 502 });
  });
});
