import { expect, test, type Page } from '@playwright/test';
import { enterTextedCode } from './support/accounts';
import { signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { startReportSink, type ReportedItem, type ReportSink } from './support/report-sink';
import { json, startStubApi, type StubApi } from './support/stub-api';
import { firstSubmitOnFreshServer } from './support/patience';

test.describe.configure({ mode: 'default' });

/**
 * Error reporting (SENTRY_*), against a local sink that stands in for the reporting service. The
 * shared server of playwright.config.ts has no DSN.
 */

const monitoringScripts = /\/_astro\/(browser-monitoring|session-replay|MonitoringScript)[^/]*\.js/;
const unreadableAnswer = 'Unreadable action answer';

/** A sign-in on the DSN server of this file may be the first on that fresh server. */
const firstSignIn = firstSubmitOnFreshServer;

/** Makes the island's action call answer with something it cannot read: the island throws. */
async function breakAction(page: Page, action: string): Promise<void> {
  await page.route(`**/_actions/${action}/`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '"not an answer"' }),
  );
}

/** Waits until this page has loaded session replay and it records (it keeps its session). */
async function replayStarted(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      performance
        .getEntriesByType('resource')
        .some((entry) => entry.name.includes('/_astro/session-replay.')) &&
      sessionStorage.getItem('sentryReplaySession') !== null,
    undefined,
    { timeout: 15_000 },
  );
}

function errorEvents(sink: ReportSink, message: string): ReportedItem[] {
  return sink
    .items('event')
    .filter((item) => JSON.stringify(item.json?.exception ?? '').includes(message));
}

test('without a DSN the browser asks for no part of the reporting client and sends nothing', async ({
  page,
  baseURL,
}) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
  await page.waitForTimeout(1_500);

  expect(requested.filter((url) => monitoringScripts.test(url))).toEqual([]);
  expect(requested.filter((url) => new URL(url).origin !== baseURL)).toEqual([]);
  await expect(page.locator('meta[name="portal-monitoring"]')).toHaveCount(0);
});

test.describe('with a DSN', () => {
  let sink: ReportSink;
  let portal: PortalServer;
  test.beforeAll(async () => {
    sink = await startReportSink();
    portal = await startPortalServer({
      env: {
        SENTRY_DSN: sink.dsn,
        SENTRY_ENVIRONMENT: 'e2e',
        SENTRY_RELEASE: 'e2e-release',
        OUTBOX_VIEWER: 'true',
      },
    });
  });
  test.afterAll(async () => {
    await portal.stop();
    await sink.close();
  });

  test('the client loads once the page is interactive, session replay after it', async ({
    page,
  }) => {
    await page.goto(`${portal.baseURL}/sign-in`);
    await replayStarted(page);
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const started = (name: string) =>
        performance
          .getEntriesByType('resource')
          .find((entry) => entry.name.includes(`/_astro/${name}.`))?.startTime;
      return {
        loaded: navigation?.loadEventEnd ?? Number.NaN,
        client: started('browser-monitoring'),
        replay: started('session-replay'),
      };
    });
    expect(timing.client).toBeGreaterThanOrEqual(timing.loaded);
    expect(timing.replay).toBeGreaterThan(timing.client ?? Number.POSITIVE_INFINITY);
  });

  test('an error in an island before sign-in arrives with its replay, and without the password typed', async ({
    page,
  }) => {
    const password = 'typed-secret-Pa55word';
    await page.goto(`${portal.baseURL}/sign-in`);
    // Before hydration the button posts the plain form, which the broken action never sees.
    await waitForHydration(page);
    await replayStarted(page);
    await breakAction(page, 'auth.signIn');
    await page.getByLabel('Email address').fill('member@example.com');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect
      .poll(() => errorEvents(sink, unreadableAnswer).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    // Replay sends what it buffered a few seconds after the error.
    await expect
      .poll(() => sink.items('replay_recording').length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    const [event] = errorEvents(sink, unreadableAnswer);
    expect(event?.json).toMatchObject({ environment: 'e2e', release: 'e2e-release' });
    expect(event?.json?.user).toBeUndefined();
    // The recording holds the page's words (so the password's absence means something)...
    expect(
      sink
        .items('replay_recording')
        .map((item) => item.payload)
        .join(''),
    ).toContain('Email address');
    // ...and what was typed nowhere.
    for (const envelope of sink.envelopes) expect(envelope).not.toContain(password);
  });

  test('an error in the MFA step arrives without the password or the code typed before it', async ({
    page,
  }) => {
    await page.goto(`${portal.baseURL}/sign-in`);
    await signIn(page, { email: 'verified@example.com', password: 'portal-demo-2026' });
    await expect(page).toHaveURL(/\/mfa-enrollment$/, firstSignIn);
    await waitForHydration(page);
    await replayStarted(page);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await breakAction(page, 'mfa.verify');
    let code = '';
    page.on('request', (request) => {
      const posted = request.postData() ?? '';
      const match = /name="code"\r\n\r\n(\d{6})/.exec(posted);
      if (match?.[1]) code = match[1];
    });
    const before = errorEvents(sink, unreadableAnswer).length;
    const recordings = sink.items('replay_recording').length;
    await enterTextedCode(page, '23');

    await expect
      .poll(() => errorEvents(sink, unreadableAnswer).length, { timeout: 10_000 })
      .toBeGreaterThan(before);
    await expect
      .poll(() => sink.items('replay_recording').length, { timeout: 15_000 })
      .toBeGreaterThan(recordings);
    expect(code).toMatch(/^\d{6}$/);
    for (const envelope of sink.envelopes) {
      expect(envelope).not.toContain(code);
      expect(envelope).not.toContain('portal-demo-2026');
    }
  });

  for (const account of [
    { email: 'concierge@example.com', internal: true },
    { email: 'member@example.com', internal: false },
  ]) {
    test(`an error in an island of a signed-in page names ${account.email} by id only, internal ${account.internal}`, async ({
      page,
    }) => {
      await page.goto(`${portal.baseURL}/sign-in`);
      await signIn(page, { email: account.email, password: 'portal-demo-2026' });
      await expect(page).toHaveURL(/\/dashboard$/, firstSignIn);
      const settings = JSON.parse(
        (await page.locator('meta[name="portal-monitoring"]').getAttribute('content')) ?? '{}',
      ) as { member?: { id: string; internal: boolean } };
      expect(settings.member?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(settings.member?.internal).toBe(account.internal);

      await waitForHydration(page);
      await replayStarted(page);
      await breakAction(page, 'requests.create');
      const before = new Set(errorEvents(sink, unreadableAnswer));
      await page.getByRole('button', { name: 'New request' }).click();
      const drawer = page.getByRole('dialog', { name: 'New request' });
      await drawer.getByRole('button', { name: 'Send request' }).click();

      await expect
        .poll(() => errorEvents(sink, unreadableAnswer).filter((item) => !before.has(item)), {
          timeout: 10_000,
        })
        .toHaveLength(1);
      const [event] = errorEvents(sink, unreadableAnswer).filter((item) => !before.has(item));
      expect(event?.json?.user).toEqual({ id: settings.member?.id });
      expect(event?.json?.tags).toMatchObject({ internal: String(account.internal) });
      for (const envelope of sink.envelopes) expect(envelope).not.toContain(account.email);

      // Signing out forgets the member: the next page reports nobody.
      await page.keyboard.press('Escape');
      await signOut(page);
      await expect(page).toHaveURL(/\/sign-in$/);
      const after = JSON.parse(
        (await page.locator('meta[name="portal-monitoring"]').getAttribute('content')) ?? '{}',
      ) as { member?: unknown };
      expect(after.member).toBeUndefined();
    });
  }
});

test.describe('on the server, with a DSN', () => {
  const members = {
    ['i'.repeat(43)]: { id: '6f1d1c5e-7c1a-4b8e-9f41-1a2b3c4d5e6f', company: 'Portal Operations' },
    ['m'.repeat(43)]: { id: '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d', company: 'Acme Health' },
  };
  let sink: ReportSink;
  let api: StubApi;
  let portal: PortalServer;
  test.beforeAll(async () => {
    sink = await startReportSink();
    api = await startStubApi((request, response) => {
      const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const found = members[token];
      if (request.url === '/readyz') {
        response.writeHead(200).end('ok\n');
      } else if (request.url === '/api/v1/users/current' && found) {
        json(response, 200, {
          external_id: found.id,
          full_name: 'Sam Example',
          email: 'sam@example.com',
          company: { name: found.company },
          request_count: 0,
        });
      } else {
        json(response, 500, { error: 'the dashboard broke' });
      }
    });
    portal = await startPortalServer({
      env: { SENTRY_DSN: sink.dsn, SENTRY_ENVIRONMENT: 'e2e', API_ORIGIN: api.origin },
    });
  });
  test.afterAll(async () => {
    await portal.stop();
    await api.close();
    await sink.close();
  });

  for (const [linkPath, method] of [
    ['/reset-password/', 'GET'],
    ['/confirm-email/', 'GET'],
    ['/confirm-email/', 'POST'],
  ] as const) {
    test(`the traces of a ${method} of ${linkPath}<token> leave without the token`, async ({
      request,
    }) => {
      const token = `traced${linkPath.replaceAll('/', '-')}token-of-a-${method.toLowerCase()}`;
      await request.fetch(`${portal.baseURL}${linkPath}${token}?from=email`, { method });

      await expect
        .poll(() => sink.envelopes.filter((envelope) => envelope.includes(linkPath)), {
          timeout: 15_000,
        })
        .not.toHaveLength(0);
      for (const envelope of sink.envelopes) expect(envelope).not.toContain(token);
    });
  }

  for (const [token, { id, company }] of Object.entries(members)) {
    const internal = company === 'Portal Operations';
    test(`an error on the server names a member of ${company} by id only, internal ${internal}`, async ({
      request,
    }) => {
      const expiry = Date.now() + 60 * 60 * 1000;
      const response = await request.get(`${portal.baseURL}/dashboard`, {
        headers: { cookie: `session=${expiry}.${token}` },
      });
      expect(response.status()).toBe(500);

      await expect
        .poll(() =>
          sink
            .items('event')
            .filter((item) => (item.json?.user as { id?: string } | undefined)?.id === id),
        )
        .toHaveLength(1);
      const event = sink
        .items('event')
        .find((item) => (item.json?.user as { id?: string } | undefined)?.id === id);
      expect(event?.json?.user).toEqual({ id });
      expect(event?.json?.tags).toMatchObject({ internal: String(internal) });
      expect(JSON.stringify(event?.json?.exception)).toContain('the dashboard broke');
      for (const envelope of sink.envelopes) {
        expect(envelope).not.toContain('sam@example.com');
        expect(envelope).not.toContain('Sam Example');
        expect(envelope).not.toContain(token);
      }
    });
  }
});
