import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { signIn, waitForHydration } from './support/journeys';
import { answersLikeTheContract, json, startStubApi, type StubApi } from './support/stub-api';

test.describe.configure({ mode: 'default' });

/**
 * What a member sees when the server cannot serve a page: a page in the welcome layout, in plain
 * words, with the request's id to quote; never a blank screen or a stack.
 */

/**
 * A session cookie the web tier takes as signed in (its expiry lies ahead); the API decides. The
 * token (43 characters, padded) lets a stub answer each test's calls its own way.
 */
async function holdSession(
  context: BrowserContext,
  portal: PortalServer,
  token = 't'.repeat(43),
): Promise<void> {
  const expiry = Date.now() + 60 * 60 * 1000;
  await context.addCookies([
    { name: 'session', value: `${expiry}.${token.padEnd(43, 't')}`, url: portal.baseURL },
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

test.describe('with an API that is slow or breaks off its answer', () => {
  const apiTimeoutMs = 1_000;
  /** Well past the time limit: a page that waited for it would take this long. */
  const lateByMs = 8_000;
  /**
   * How long after the time limit the page or message may come: rendering on a fresh server
   * under the whole suite took up to 1.9 s on a slower machine. Still well short of `lateByMs`.
   */
  const withinLimit = apiTimeoutMs + 3_000;
  /** A current user as the contract has it: a page that waited for it would show the name. */
  const currentUser = JSON.stringify({
    external_id: 'member-1',
    full_name: 'Avery Jordan',
    email: 'member@example.com',
    request_count: 0,
  });
  let api: StubApi;
  let portal: PortalServer;
  test.beforeAll(async () => {
    api = await startStubApi((request, response) => {
      if (request.url === '/readyz') {
        answersLikeTheContract(request, response);
        return;
      }
      const token = /^Bearer (\w+?)t*$/.exec(request.headers.authorization ?? '')?.[1];
      if (request.url === '/api/v1/company_sign_in/start') {
        // No company signs the address in: on to the password (docs/PRODUCT.md §15).
        json(response, 200, { company_sign_in: null });
        return;
      }
      if (request.url === '/api/v1/users/sign_in') {
        // Signing in: the answer comes, but only long after the limit.
        setTimeout(() => {
          json(response, 401, { error: 'Invalid email or password.' });
        }, lateByMs);
        return;
      }
      if (token === 'late') {
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(currentUser);
        }, lateByMs);
      } else if (token === 'stalls') {
        // The headers and half the answer, then nothing more, ever.
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(currentUser.length),
        });
        response.write(currentUser.slice(0, 20));
      } else if (token === 'drops') {
        // Half the answer, then the connection is gone.
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(currentUser.length),
        });
        response.write(currentUser.slice(0, 20), () => {
          setTimeout(() => request.socket.destroy(), 50);
        });
      } else {
        json(response, 401, { error: 'Your session expired. Please sign in again.' });
      }
    });
    portal = await startPortalServer({
      env: { API_ORIGIN: api.origin, API_TIMEOUT_MS: String(apiTimeoutMs) },
    });
  });
  test.afterAll(async () => {
    await portal.stop();
    await api.close();
  });

  const faults = [
    { token: 'late', what: 'answers only after API_TIMEOUT_MS' },
    { token: 'stalls', what: 'sends half its answer and then nothing' },
    { token: 'drops', what: 'drops the connection halfway through its answer' },
  ];
  for (const { token, what } of faults) {
    test(`a page says the service is unavailable, within API_TIMEOUT_MS, when the API ${what}`, async ({
      page,
      context,
    }) => {
      await holdSession(context, portal, token);
      const startedAt = Date.now();
      const response = await page.goto(`${portal.baseURL}/dashboard`);
      expect(Date.now() - startedAt).toBeLessThan(withinLimit);
      expect(response?.status()).toBe(503);
      expect(response?.headers()['retry-after']).toBe('30');
      await expect(
        page.getByRole('heading', { name: 'Sorry, the service is unavailable' }),
      ).toBeVisible();
      await expectReference(page, response?.headers()['x-request-id']);
      await expect(page.getByText('Avery')).toHaveCount(0);
    });
  }

  test('a form gives up after API_TIMEOUT_MS and shows its catalogue message', async ({ page }) => {
    await page.goto(`${portal.baseURL}/sign-in`);
    await waitForHydration(page);
    const startedAt = Date.now();
    await signIn(page, { email: 'member@example.com', password: 'portal-demo-2026' });
    await expect(
      page.getByText('Unable to sign in at this time. Please try again later.').first(),
    ).toBeVisible({ timeout: withinLimit });
    expect(Date.now() - startedAt).toBeLessThan(withinLimit);
    await expect(page).toHaveURL(/\/sign-in/);
  });
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
