import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { answersLikeTheContract, json, startStubApi, type StubApi } from './support/stub-api';

/**
 * What a member sees when the server cannot serve a page: a page in the welcome layout, in plain
 * words, with the request's id to quote; never a blank screen or a stack.
 */

/** A session cookie the web tier takes as signed in (its expiry lies ahead); the API decides. */
async function holdSession(context: BrowserContext, portal: PortalServer): Promise<void> {
  const expiry = Date.now() + 60 * 60 * 1000;
  await context.addCookies([
    { name: 'session', value: `${expiry}.${'t'.repeat(43)}`, url: portal.baseURL },
  ]);
}

async function expectReference(page: Page, requestId: string | undefined): Promise<void> {
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page.getByText(`quote this reference: ${requestId ?? ''}`)).toBeVisible();
}

test.describe('with an API that fails', () => {
  let api: StubApi;
  let portal: PortalServer;
  test.beforeAll(async () => {
    api = await startStubApi((request, response) => {
      if (request.url === '/readyz') answersLikeTheContract(request, response);
      else json(response, 500, { error: 'relation "users" does not exist' });
    });
    portal = await startPortalServer({ env: { API_ORIGIN: api.origin } });
  });
  test.afterAll(async () => {
    await portal.stop();
    await api.close();
  });

  test('a page that fails shows the error page with the reference the answer and the logs carry', async ({
    page,
    context,
  }) => {
    await holdSession(context, portal);
    const response = await page.goto(`${portal.baseURL}/dashboard`);
    expect(response?.status()).toBe(500);
    await expect(page.getByRole('heading', { name: 'Sorry, something went wrong' })).toBeVisible();
    await expect(page.getByText('relation')).toHaveCount(0);
    const requestId = response?.headers()['x-request-id'];
    await expectReference(page, requestId);

    // The API was asked with the same id, and every line the server logged about it carries it.
    expect(api.received.map((call) => call.requestId)).toContain(requestId);
    await expect
      .poll(() => logLinesOf(portal, requestId))
      .toContainEqual(
        expect.objectContaining({ level: 'error', msg: 'request failed', path: '/dashboard' }),
      );
    expect(logLinesOf(portal, requestId)).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'request', status: 500, method: 'GET' }),
    );
  });
});

test.describe('with an API that does not answer in time', () => {
  let api: StubApi;
  let portal: PortalServer;
  test.beforeAll(async () => {
    api = await startStubApi((request, response) => {
      if (request.url === '/readyz') answersLikeTheContract(request, response);
      // Everything else: no answer, ever.
    });
    portal = await startPortalServer({ env: { API_ORIGIN: api.origin, API_TIMEOUT_MS: '1000' } });
  });
  test.afterAll(async () => {
    await portal.stop();
    await api.close();
  });

  test('a page gives up after API_TIMEOUT_MS and says the service is unavailable', async ({
    page,
    context,
  }) => {
    await holdSession(context, portal);
    const startedAt = Date.now();
    const response = await page.goto(`${portal.baseURL}/dashboard`);
    expect(Date.now() - startedAt).toBeLessThan(4_000);
    expect(response?.status()).toBe(503);
    expect(response?.headers()['retry-after']).toBe('30');
    await expect(
      page.getByRole('heading', { name: 'Sorry, the service is unavailable' }),
    ).toBeVisible();
    await expect(
      page.getByText('We cannot reach your account right now. Please try again in a few minutes.'),
    ).toBeVisible();
    await expectReference(page, response?.headers()['x-request-id']);
  });
});

test('a page says the service is unavailable when nothing listens at API_ORIGIN', async ({
  page,
  context,
}) => {
  const portal = await startPortalServer({
    env: { API_ORIGIN: `http://127.0.0.1:${await freePort()}` },
  });
  try {
    await holdSession(context, portal);
    const response = await page.goto(`${portal.baseURL}/requests`);
    expect(response?.status()).toBe(503);
    await expect(
      page.getByRole('heading', { name: 'Sorry, the service is unavailable' }),
    ).toBeVisible();
    await expectReference(page, response?.headers()['x-request-id']);
  } finally {
    await portal.stop();
  }
});

/** The server's JSON log lines about one request. */
function logLinesOf(
  portal: PortalServer,
  requestId: string | undefined,
): Record<string, unknown>[] {
  return portal
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.requestId === requestId);
}
