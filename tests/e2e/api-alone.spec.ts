import { expect, test } from '@playwright/test';
import { startApiServer, type ApiServer } from './support/api-server';
import { recordCspViolations } from './support/csp-violations';
import { member, signIn } from './support/journeys';
import { firstSubmitOnFreshServer } from './support/patience';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { chooseFile, downloadedBytes, someFile, waitForIslands } from './support/requests';

/**
 * The API on its own (`npm run api`) and the web server in front of it with API_ORIGIN, as the
 * README documents them: the API signs file addresses on its PUBLIC_ORIGIN, the web server's
 * address (the default), and the web server passes /storage/* on to it, so the browser talks to
 * the site's origin alone. Its outbox viewer is off, as it is by default.
 */

// One API and one web server for both tests, in one worker: a fresh API seeds its demo data, which
// takes half a minute on two busy cores.
test.describe.configure({ mode: 'serial' });

let api: ApiServer | undefined;
let web: PortalServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const port = await freePort();
  api = await startApiServer(
    {
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      // The web server calling it (on loopback) is the one proxy in front of it.
      TRUSTED_PROXIES: 'loopback',
      LOG_LEVEL: 'warn',
    },
    60_000,
  );
  try {
    web = await startPortalServer({
      port,
      env: { API_ORIGIN: api.origin, OUTBOX_VIEWER: 'true' },
    });
  } catch (error) {
    await api.stop();
    throw error;
  }
});

test.afterAll(async () => {
  // Either may be missing when starting it failed.
  await web?.stop();
  await api?.stop();
});

/** The web server, which beforeAll started. */
function site(): PortalServer {
  if (!web) throw new Error('The web server did not start');
  return web;
}

test('a member makes a request with a file through the drawer on a web server calling the API alone, and gets the file back', async ({
  page,
}) => {
  // The pages connect to their own origin only: an upload sent anywhere else would be refused.
  const violations = await recordCspViolations(page);
  await page.goto(`${site().baseURL}/sign-in`);
  await signIn(page, member);
  await expect(page).toHaveURL(`${site().baseURL}/dashboard`, firstSubmitOnFreshServer);
  await waitForIslands(page, 'NewRequest');

  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  await drawer.getByRole('radio', { name: /^Travel\b/ }).check();
  await drawer.getByLabel('Title').fill('Book a ferry to Capri');
  const file = someFile('tickets.pdf', 300 * 1024);
  // The file goes to the site's own origin, which passes it on to the API.
  const uploaded = page.waitForResponse((response) =>
    response.url().startsWith(`${site().baseURL}/storage/uploads/`),
  );
  await chooseFile(page, drawer, file);
  expect((await uploaded).status()).toBe(204);
  await expect(drawer.getByRole('status').filter({ hasText: 'Uploaded' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Send request' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book a ferry to Capri');
  await expect(page.getByText('Your request has been sent.')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'tickets.pdf' }).first().click();
  expect(await downloadedBytes(await download)).toEqual(file.buffer);
  expect(violations).toEqual([]);
});

test('the outbox viewer of a web server whose API shows no outbox says what to set', async ({
  page,
}) => {
  const answer = await page.goto(`${site().baseURL}/dev/outbox`);
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outbox');
  await expect(
    page.getByText(
      'This server’s API does not show its outbox. Start the API with OUTBOX_VIEWER=true to read its outbox here.',
    ),
  ).toBeVisible();
  expect(site().output()).not.toContain('request failed');
});
