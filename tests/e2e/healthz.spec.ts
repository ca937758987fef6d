import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';

/** /healthz gives the API 2 s (src/pages/healthz.ts); the answer must come soon after. */
const probeTimeoutMs = 2_000;
const answerWithinMs = probeTimeoutMs + 2_000;

/** A stand-in for an API on loopback, answering the probe as every API of the contract does. */
async function startStubApi(
  answer: 'unauthorized' | 'never' = 'unauthorized',
): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (answer === 'never') return;
    if (request.method === 'GET' && request.url === '/api/v1/users/current') {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'Your session expired. Please sign in again.' }));
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        // The portal keeps connections alive; the API is gone only once they are closed too.
        server.closeAllConnections();
      }),
  };
}

async function expectHealth(
  request: APIRequestContext,
  portal: PortalServer,
  expected: 'ok' | 'unavailable',
): Promise<void> {
  const startedAt = Date.now();
  const response = await request.get(`${portal.baseURL}/healthz`, { timeout: answerWithinMs });
  expect(Date.now() - startedAt).toBeLessThan(answerWithinMs);
  expect(response.status()).toBe(expected === 'ok' ? 200 : 503);
  expect(await response.text()).toBe(`${expected}\n`);
  expect(response.headers()['cache-control']).toBe('no-store');
}

test('the health check answers ok when the embedded API answers', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(await response.text()).toBe('ok\n');
  expect(response.headers()['cache-control']).toBe('no-store');
});

test('the health check answers unavailable when nothing listens at API_ORIGIN', async ({
  request,
}) => {
  const apiOrigin = `http://127.0.0.1:${await freePort()}`;
  const portal = await startPortalServer({ env: { API_ORIGIN: apiOrigin } });
  try {
    await expectHealth(request, portal, 'unavailable');
    await expect
      .poll(() => portal.output())
      .toMatch(new RegExp(`Readiness check failed: the API at ${apiOrigin} did not answer .*\\n`));
  } finally {
    await portal.stop();
  }
});

test('the health check answers unavailable when the API at API_ORIGIN does not answer in time', async ({
  request,
}) => {
  const api = await startStubApi('never');
  const portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  try {
    await expectHealth(request, portal, 'unavailable');
    await expect.poll(() => portal.output()).toContain('(no answer within 2 s)');
  } finally {
    await portal.stop();
    await api.close();
  }
});

test('the health check follows the API at API_ORIGIN: ok while it answers, unavailable once it stops', async ({
  request,
}) => {
  const api = await startStubApi();
  const portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  try {
    await expectHealth(request, portal, 'ok');
    await api.close();
    await expectHealth(request, portal, 'unavailable');
  } finally {
    await portal.stop();
    await api.close();
  }
});
