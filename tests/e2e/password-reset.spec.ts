import { expect, test, type Page } from '@playwright/test';
import { emailCount, followEmailLink } from './support/inbox';
import { expectNoAxeViolations, signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

// A server of its own: these journeys change a demo account's password.
let server: PortalServer;
let origin: string;

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

const account = { email: 'concierge@example.com', password: 'portal-demo-2026' };
const resetEmail = { to: account.email, subject: /Reset your .* password/, link: /reset-password/ };

async function askForResetLink(page: Page, email: string) {
  await page.goto(`${origin}/sign-in`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'emailed a link' })).toBeVisible();
}

async function chooseNewPassword(page: Page, password: string, confirmation = password) {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(confirmation);
  await page.getByRole('button', { name: 'Change password' }).click();
}

test.describe.configure({ mode: 'serial' });

test('a member resets a forgotten password from the emailed link, and the old session ends', async ({
  page,
  browser,
}) => {
  const elsewhere = await browser.newPage();
  await elsewhere.goto(`${origin}/sign-in`);
  await signIn(elsewhere, account);
  await expect(elsewhere).toHaveURL(`${origin}/dashboard`);

  await askForResetLink(page, account.email);
  await followEmailLink(page, origin, resetEmail);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  await waitForHydration(page);
  await chooseNewPassword(page, 'a brand new passphrase');

  await expect(page).toHaveURL(`${origin}/sign-in`);
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await signIn(page, { email: account.email, password: 'a brand new passphrase' });
  await expect(page).toHaveURL(`${origin}/dashboard`);

  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(`${origin}/sign-in`);
  await elsewhere.close();
  account.password = 'a brand new passphrase';
});

test('the link works once: a second use says it is no longer valid', async ({ page }) => {
  await askForResetLink(page, account.email);
  await followEmailLink(page, origin, resetEmail);
  const link = page.url();
  await chooseNewPassword(page, 'another new passphrase');
  await expect(page).toHaveURL(`${origin}/sign-in`);
  account.password = 'another new passphrase';

  await page.goto(link);
  await chooseNewPassword(page, 'yet another passphrase');
  const summary = page.getByRole('alert').first();
  await expect(summary).toContainText('invalid or has expired');
  await expect(summary).toBeFocused();
});

test('an address without an account reads the same answer, and no email is written', async ({
  page,
}) => {
  await askForResetLink(page, 'nobody-here@example.com');
  expect(await emailCount(page, origin, 'nobody-here@example.com')).toBe(0);
});

test('a password the policy refuses is named under the field, and so is a mismatch', async ({
  page,
}) => {
  await askForResetLink(page, account.email);
  await followEmailLink(page, origin, resetEmail);
  await waitForHydration(page);

  await chooseNewPassword(page, 'one passphrase here', 'another passphrase');
  await expect(page.getByLabel('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').first()).toContainText('The passwords do not match');

  await chooseNewPassword(page, 'password123');
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectNoAxeViolations(page);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a member asks for a link and sets a new password through the plain forms', async ({
    page,
  }) => {
    await askForResetLink(page, account.email);
    await followEmailLink(page, origin, resetEmail);
    await chooseNewPassword(page, 'a passphrase without scripts');
    await expect(page).toHaveURL(`${origin}/sign-in`);
    await expect(page.getByText('Your password has been changed.')).toBeVisible();
    await signIn(page, { email: account.email, password: 'a passphrase without scripts' });
    await expect(page).toHaveURL(`${origin}/dashboard`);
  });
});

test('the forgot-password and reset pages have no accessibility violations', async ({ page }) => {
  await page.goto(`${origin}/forgot-password`);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto(`${origin}/reset-password/not-a-real-token`);
  await expectNoAxeViolations(page);
});
