import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { answersLikeTheContract, startStubApi } from './support/stub-api';
import { startTcpProxy } from './support/tcp-proxy';
import { queryDatabase, requireTestPostgres } from './support/postgres';

/** /readyz gives the API 2 s (src/pages/readyz.ts); the answer must come soon after. */
const probeTimeoutMs = 2_000;
const answerWithinMs = probeTimeoutMs + 2_000;

async function expectReadiness(
  request: APIRequestContext,
  portal: PortalServer,
  expected: 'ok' | 'unavailable',
): Promise<void> {
  const startedAt = Date.now();
  const response = await request.get(`${portal.baseURL}/readyz`, { timeout: answerWithinMs });
  expect(Date.now() - startedAt).toBeLessThan(answerWithinMs);
  expect(response.status()).toBe(expected === 'ok' ? 200 : 503);
  expect(await response.text()).toBe(`${expected}\n`);
  expect(response.headers()['cache-control']).toBe('no-store');
}

test('the liveness and readiness checks answer ok on a server with its embedded API', async ({
  request,
}) => {
  for (const path of ['/healthz', '/readyz']) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe('ok\n');
    expect(response.headers()['cache-control']).toBe('no-store');
  }
});

test.describe('with nothing listening at API_ORIGIN', () => {
  test('the process is up, but not ready, and the log says why', async ({ request }) => {
    const apiOrigin = `http://127.0.0.1:${await freePort()}`;
    const portal = await startPortalServer({ env: { API_ORIGIN: apiOrigin } });
    try {
      const live = await request.get(`${portal.baseURL}/healthz`);
      expect(live.status()).toBe(200);
      await expectReadiness(request, portal, 'unavailable');
      await expect
        .poll(() => portal.output())
        .toMatch(new RegExp(`readiness check failed: the API at ${apiOrigin} did not answer`));
    } finally {
      await portal.stop();
    }
  });
});

test('readiness is unavailable when the API at API_ORIGIN does not answer in time', async ({
  request,
}) => {
  const api = await startStubApi(() => undefined);
  const portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  try {
    await expectReadiness(request, portal, 'unavailable');
    await expect.poll(() => portal.output()).toContain('(no answer within 2 s)');
  } finally {
    await portal.stop();
    await api.close();
  }
});

test('readiness follows the API at API_ORIGIN: ok while it is ready, unavailable once it stops', async ({
  request,
}) => {
  let apiReady = true;
  const api = await startStubApi((incoming, response) => {
    if (incoming.url === '/readyz' && !apiReady) {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('unavailable\n');
      return;
    }
    answersLikeTheContract(incoming, response);
  });
  const portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  try {
    await expectReadiness(request, portal, 'ok');
    apiReady = false;
    await expectReadiness(request, portal, 'unavailable');
    await api.close();
    await expectReadiness(request, portal, 'unavailable');
  } finally {
    await portal.stop();
    await api.close();
  }
});

test.describe('on PostgreSQL', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  test.beforeAll(requireTestPostgres);

  test('readiness is unavailable while the database is unreachable, and ok again once it returns', async ({
    request,
  }) => {
    test.setTimeout(60_000);
    const server = new URL(serverUrl ?? '');
    const name = `e2e_readyz_${randomBytes(6).toString('hex')}`;
    await queryDatabase(server.toString(), `CREATE DATABASE "${name}"`);
    const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const databaseUrl = new URL(server);
    databaseUrl.host = `127.0.0.1:${proxy.port}`;
    databaseUrl.pathname = `/${name}`;
    const portal = await startPortalServer({
      env: { DATABASE_URL: databaseUrl.toString() },
      timeoutMs: 45_000,
    });
    try {
      await expectReadiness(request, portal, 'ok');

      await proxy.cut();
      await expectReadiness(request, portal, 'unavailable');
      await expectReadiness(request, portal, 'unavailable');
      const live = await request.get(`${portal.baseURL}/healthz`);
      expect(live.status()).toBe(200);

      await proxy.restore();
      await expect
        .poll(async () => (await request.get(`${portal.baseURL}/readyz`)).status(), {
          timeout: 10_000,
        })
        .toBe(200);
    } finally {
      await portal.stop();
      await proxy.close();
      await queryDatabase(server.toString(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

test('a request in flight when SIGTERM arrives is answered, then the server exits', async ({
  request,
}) => {
  let releaseReadiness: (() => void) | undefined;
  let readinessAsked: (() => void) | undefined;
  const asked = new Promise<void>((resolve) => {
    readinessAsked = resolve;
  });
  let holdReadiness = false;
  const api = await startStubApi((incoming, response) => {
    if (incoming.url === '/readyz' && holdReadiness) {
      readinessAsked?.();
      releaseReadiness = () => {
        answersLikeTheContract(incoming, response);
      };
      return;
    }
    answersLikeTheContract(incoming, response);
  });
  const portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  try {
    holdReadiness = true;
    const inFlight = request.get(`${portal.baseURL}/readyz`, { timeout: 10_000 });
    await asked;

    const stopped = portal.stop();
    // The server no longer takes new connections, but still owes the answer it is working on.
    await expect
      .poll(() => portal.output())
      .toContain('stopping: answering the requests in flight');
    await expect(fetch(`${portal.baseURL}/healthz`)).rejects.toThrow();
    releaseReadiness?.();

    const response = await inFlight;
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe('ok\n');
    await stopped;
    expect(await portal.exited).toBe(0);
    expect(portal.output()).toContain('"msg":"stopped"');
  } finally {
    await portal.stop();
    await api.close();
  }
});
