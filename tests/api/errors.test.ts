import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiApp } from '../../api/app.ts';
import { randomFactorSecrets } from '../../api/services/factors/factor-secrets.ts';
import type { Database } from '../../api/db/client.ts';
import { TrustedProxies } from '../../platform/trusted-proxies.ts';
import { logger } from '../../platform/logger.ts';
import {
  jsonRequest,
  startTestApi,
  testCompanySignIn,
  TEST_PASSWORD,
  TEST_PUBLIC_ORIGIN,
  type TestApi,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const SIGN_IN = '/api/v1/users/sign_in';

async function postSignIn(body: string, contentType = 'application/json'): Promise<Response> {
  return api.app.request(SIGN_IN, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
}

describe('request errors', () => {
  it('answers 400 "Malformed JSON body." to a body that is not JSON', async () => {
    const response = await postSignIn('{"user": {"email": ');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Malformed JSON body.' });
  });

  it('answers 400 "Malformed JSON body." to an empty body', async () => {
    const response = await postSignIn('');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Malformed JSON body.' });
  });

  it.each([
    [{ user: { password: TEST_PASSWORD } }, 'user.email is required.', 'user.email'],
    [{ user: { email: 'member@example.com' } }, 'user.password is required.', 'user.password'],
    [
      { user: { email: 'member@example.com', password: 42 } },
      'user.password must be a string.',
      'user.password',
    ],
    [
      { user: { email: 'member', password: TEST_PASSWORD } },
      'user.email must be an email address.',
      'user.email',
    ],
    [
      { user: { email: 'member@example.com', password: '' } },
      'user.password must not be empty.',
      'user.password',
    ],
    [{ user: 'member@example.com' }, 'user must be an object.', 'user'],
    [{}, 'user is required.', 'user'],
  ])(
    'answers 400 naming the field for %j, in the sentence and in field',
    async (body, message, field) => {
      const response = await postSignIn(JSON.stringify(body));

      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: message, field });
    },
  );

  it('answers 400 without a field to a body that is not an object', async () => {
    const response = await postSignIn(JSON.stringify(['member@example.com']));

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Request body must be a JSON object.' });
  });

  it('answers 415 to a body that is not declared as JSON', async () => {
    const response = await postSignIn(
      JSON.stringify({ user: { email: 'member@example.com', password: TEST_PASSWORD } }),
      'text/plain',
    );

    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: 'Request body must be JSON (Content-Type: application/json).',
    });
  });

  it('answers 413 to a body over 64 KiB', async () => {
    const response = await api.app.request(
      SIGN_IN,
      jsonRequest({ user: { email: 'member@example.com', password: 'x'.repeat(70 * 1024) } }),
    );

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Request body too large.' });
  });

  it('answers 413 from the declared Content-Length without reading the body', async () => {
    const response = await api.app.request(SIGN_IN, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(65 * 1024) },
      body: '{}',
    });

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Request body too large.' });
  });

  it('answers 404 "Not found." to an unknown route', async () => {
    const response = await api.app.request('/api/v1/nothing-here');

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found.' });
  });

  it('answers 404 to a known path with the wrong method', async () => {
    const response = await api.app.request(SIGN_IN);

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found.' });
  });

  it('forbids caching of every answer', async () => {
    const response = await api.getCurrentUser();

    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });
});

describe('internal errors', () => {
  const leakyMessage =
    'relation "users" does not exist: SELECT "password_hash" FROM "users" (/srv/portal/api/db/client.ts:42)';

  /** A database whose every use fails the way a broken query would. */
  const brokenDatabase = new Proxy(Object.create(null) as object, {
    get: () => () => {
      throw new Error(leakyMessage);
    },
  }) as Database;

  it('answers the generic 500 without a stack, a path or SQL, and logs the error', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const app = createApiApp({
        db: brokenDatabase,
        clock: api.clock,
        trustedProxies: TrustedProxies.none,
        publicOrigin: TEST_PUBLIC_ORIGIN,
        outboxViewer: false,
        storage: api.storage,
        factorSecrets: randomFactorSecrets(),
        companySignIn: testCompanySignIn(),
      });

      const response = await app.request(
        SIGN_IN,
        jsonRequest({ user: { email: 'member@example.com', password: TEST_PASSWORD } }),
      );

      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: 'Something went wrong. Please try again later.' });
      expect(text).not.toMatch(/relation|SELECT|\/srv|client\.ts|at /);
      expect(loggedError).toHaveBeenCalledWith(
        expect.objectContaining({
          method: 'POST',
          path: '/api/v1/users/sign_in',
          err: expect.objectContaining({ message: leakyMessage }) as unknown,
        }),
        'API call failed',
      );
    } finally {
      loggedError.mockRestore();
    }
  });

  it('logs a failed call by its route, never by the values in its address', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const app = createApiApp({
        db: brokenDatabase,
        clock: api.clock,
        trustedProxies: TrustedProxies.none,
        publicOrigin: TEST_PUBLIC_ORIGIN,
        outboxViewer: false,
        storage: api.storage,
        factorSecrets: randomFactorSecrets(),
        companySignIn: testCompanySignIn(),
      });
      const requestId = '0b7a8f3e-0000-4000-8000-000000000001';

      const response = await app.request(`/api/v1/requests/${requestId}?tab=secret`, {
        headers: { authorization: `Bearer ${'C'.repeat(43)}` },
      });

      expect(response.status).toBe(500);
      expect(loggedError).toHaveBeenCalledWith(
        expect.objectContaining({ method: 'GET', path: '/api/v1/requests/:id' }),
        'API call failed',
      );
      expect(JSON.stringify(loggedError.mock.calls)).not.toContain(requestId);
    } finally {
      loggedError.mockRestore();
    }
  });

  it('answers 503 with a time to come back when the database cannot be reached', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const awayDatabase = new Proxy(Object.create(null) as object, {
      get: () => () => {
        throw unreachable;
      },
    }) as Database;
    try {
      const app = createApiApp({
        db: awayDatabase,
        clock: api.clock,
        trustedProxies: TrustedProxies.none,
        publicOrigin: TEST_PUBLIC_ORIGIN,
        outboxViewer: false,
        storage: api.storage,
        factorSecrets: randomFactorSecrets(),
        companySignIn: testCompanySignIn(),
      });

      const response = await app.request(
        SIGN_IN,
        jsonRequest({ user: { email: 'member@example.com', password: TEST_PASSWORD } }),
      );

      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('30');
      expect(await response.json()).toEqual({
        error: 'The service is unavailable. Please try again in a few minutes.',
      });
      expect(loggedError).toHaveBeenCalledWith(
        expect.objectContaining({ err: unreachable, path: '/api/v1/users/sign_in' }),
        'API call failed: the database is unavailable',
      );
    } finally {
      loggedError.mockRestore();
    }
  });

  it('answers the generic 500 when an authenticated route fails', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const app = createApiApp({
        db: brokenDatabase,
        clock: api.clock,
        trustedProxies: TrustedProxies.none,
        publicOrigin: TEST_PUBLIC_ORIGIN,
        outboxViewer: false,
        storage: api.storage,
        factorSecrets: randomFactorSecrets(),
        companySignIn: testCompanySignIn(),
      });

      const response = await app.request('/api/v1/users/current', {
        headers: { Authorization: `Bearer ${'C'.repeat(43)}` },
      });

      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: 'Something went wrong. Please try again later.',
      });
    } finally {
      loggedError.mockRestore();
    }
  });
});
