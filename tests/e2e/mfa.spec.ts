import { test as base, expect } from '@playwright/test';
import { enrollPhone, enterTextedCode } from './support/accounts';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer } from './support/portal-server';
import { firstSubmitOnFreshServer } from './support/patience';

/**
 * Every test on a server of its own: a member may ask for a code once a minute, and these
 * journeys each ask for one for the same demo members.
 */
const test = base.extend<{ origin: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
  origin: async ({}, use) => {
    const server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
    await use(server.baseURL);
    await server.stop();
  },
});

/** The first sign-in on a server that has just started. */
const firstSignIn = firstSubmitOnFreshServer;

const demoPassword = 'portal-demo-2026';
/** The demo member with a phone for two-step verification, ending in 23 (api/demo/seed.ts). */
const verified = { email: 'verified@example.com', password: demoPassword };
/** The demo member whose company requires two-step verification, without a phone yet. */
const secure = { email: 'secure@example.com', password: demoPassword };

test('a member with a phone signs in with the texted code', async ({ page, origin }) => {
  await page.goto(`${origin}/requests`);
  await signIn(page, verified);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSignIn);
  // Nothing is texted yet: the page says what the button will do, not what to enter.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  await expect(page.getByText('ask for it below, then enter it here')).toBeVisible();
  await expect(page.getByText('(•••) •••-••23')).toBeVisible();
  await expectNoAxeViolations(page);

  // Nothing else opens before the code is entered.
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);

  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();
  await expect(page.getByLabel('Code')).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByLabel('Code')).toHaveAttribute('inputmode', 'numeric');
  await enterTextedCode(page, '23');

  // On to the page the member asked for before signing in.
  await expect(page).toHaveURL(`${origin}/requests`);
});

test('a member who signs in again at once gets the new sign-in’s first code', async ({
  page,
  origin,
}) => {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, verified);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSignIn);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await enterTextedCode(page, '23');
  await expect(page).toHaveURL(`${origin}/dashboard`);

  // Within the minute: the code sent a moment ago is used, and holds nothing back.
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  await signIn(page, verified);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();
  await expect(page.getByText('Please wait a minute')).toHaveCount(0);
  await enterTextedCode(page, '23');
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test('a wrong code is refused with the catalogue message', async ({ page, origin }) => {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, verified);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page.getByLabel('Code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').first()).toContainText('Unable to verify MFA token');
  await expectNoAxeViolations(page);
});

test('a member whose company requires the step cannot skip it, and enrolls', async ({
  page,
  origin,
}) => {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, secure);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSignIn);
  await expect(page.getByRole('button', { name: 'Skip for now' })).toHaveCount(0);
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);

  await enrollPhone(page, '(555) 303-4477');
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the code is asked for and entered through plain forms', async ({ page, origin }) => {
    await page.goto(`${origin}/sign-in`);
    await signIn(page, verified);
    await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSignIn);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await enterTextedCode(page, '23');
    await expect(page).toHaveURL(`${origin}/dashboard`);
  });
});
