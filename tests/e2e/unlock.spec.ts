import { expect, test } from '@playwright/test';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { newFormVisitor } from './support/forms';
import { followEmailLink, newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

// A server of its own: these journeys lock demo accounts.
let server: PortalServer;
let origin: string;

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

/** Fails to sign in as often as it takes to lock the account. */
async function lockOut(email: string) {
  const visitor = await newFormVisitor(origin);
  for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
    expect(await visitor.signIn({ email, password: 'a wrong guess' })).toBe(401);
  }
  await visitor.dispose();
}

const unlockEmail = (to: string) => ({ to, subject: /account was locked/, link: /\/unlock\// });

test.describe.configure({ mode: 'serial' });

test('ten wrong passwords lock the account; the emailed link unlocks it', async ({ page }) => {
  const account = { email: 'operations@example.com', password: 'portal-demo-2026' };
  await lockOut(account.email);

  // The lock is never revealed: the right password gets the same answer as a wrong one.
  await page.goto(`${origin}/sign-in`);
  await signIn(page, account);
  await expect(page.getByRole('alert')).toContainText('Invalid email or password.');

  await followEmailLink(page, origin, unlockEmail(account.email));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unlock your account');
  await expectNoAxeViolations(page);
  // Opening the link spends nothing: only the button does.
  await page.reload();
  await page.getByRole('button', { name: 'Unlock my account' }).click();

  await expect(page).toHaveURL(`${origin}/sign-in`);
  await expect(page.getByText('Your account has been unlocked.')).toBeVisible();
  await signIn(page, account);
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test('a used or unknown link says so and offers a new one by email', async ({ page }) => {
  const account = { email: 'concierge@example.com' };
  await lockOut(account.email);
  const email = await newestEmail(page, origin, unlockEmail(account.email));
  const link = (await email.getByRole('link', { name: /\/unlock\// }).getAttribute('href')) ?? '';

  await page.goto(`${origin}/unlock/not-a-real-token`);
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page.getByRole('alert').first()).toContainText('invalid or has expired');
  await expectNoAxeViolations(page);

  await page.getByLabel('Email address').fill(account.email);
  await page.getByRole('button', { name: 'Send a new link' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'emailed a link to unlock' }),
  ).toBeVisible();

  // The new link replaced the first one.
  await page.goto(link);
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page.getByRole('alert').first()).toContainText('invalid or has expired');

  await followEmailLink(page, origin, unlockEmail(account.email));
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page).toHaveURL(`${origin}/sign-in`);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the unlock button works as a plain form', async ({ page }) => {
    const account = { email: 'member@example.com', password: 'portal-demo-2026' };
    await lockOut(account.email);
    await followEmailLink(page, origin, unlockEmail(account.email));
    await page.getByRole('button', { name: 'Unlock my account' }).click();
    await expect(page).toHaveURL(`${origin}/sign-in`);
    await expect(page.getByText('Your account has been unlocked.')).toBeVisible();
    await signIn(page, account);
    await expect(page).toHaveURL(`${origin}/dashboard`);
  });

  test('a refused request for a new link keeps the address typed, as text', async ({ page }) => {
    const typed = 'not-an-address"><b>bold</b>';
    await page.goto(`${origin}/unlock/not-a-real-token`);
    await page.getByRole('button', { name: 'Unlock my account' }).click();
    await expect(page.getByRole('alert').first()).toContainText('invalid or has expired');

    await page.getByLabel('Email address').fill(typed);
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveValue(typed);
    await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
  });
});
