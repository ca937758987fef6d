import { expect, test, type Browser, type Page } from '@playwright/test';
import { newPerson } from './support/accounts';
import { newMemberOnSecurityPage } from './support/authenticator-app';
import { followEmailLink } from './support/inbox';
import { signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import {
  createTestDatabase,
  queryDatabase,
  requireTestPostgres,
  type TestDatabase,
} from './support/postgres';

/**
 * Credential flows against each other, as an attacker and the owner meet them in a browser
 * (docs/PRODUCT.md §11.2; docs/SECURITY.md, "Credential events"): a link mailed before the
 * owner's password changed no longer works, and a session that has not proved the password
 * lately is asked it before adding a way to sign in. On PostgreSQL, so that a session can be made
 * older than the minutes its proof lasts.
 */

let database: TestDatabase;
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  requireTestPostgres();
  database = await createTestDatabase(process.env.TEST_DATABASE_URL ?? '', 'credential_events');
  server = await startPortalServer({
    env: { OUTBOX_VIEWER: 'true', DATABASE_URL: database.url },
  });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
  await database.drop();
});

const noLongerWorks =
  'your password, email address or two-step verification changed after it was sent';

async function askForResetLink(page: Page, email: string) {
  await page.goto(`${origin}/forgot-password`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/we have emailed a link/)).toBeVisible();
}

/** The session of `email` proved the password eleven minutes ago, as a stolen one may have. */
async function ageTheProof(email: string) {
  await queryDatabase(
    database.url,
    `UPDATE sessions SET proven_at = now() - interval '11 minutes'
      WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [email],
  );
}

function resetEmailTo(to: string) {
  return { to, subject: /Reset your .* password/, link: /reset-password/ };
}

async function resetPassword(page: Page, password: string) {
  await waitForHydration(page);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
}

async function newContext(browser: Browser, javaScriptEnabled = true) {
  return browser.newContext({ baseURL: origin, javaScriptEnabled });
}

test('a reset link asked for before a password change is refused after it, in words', async ({
  page,
}) => {
  const person = await newMemberOnSecurityPage(page, origin, 'Avery', true);
  const mailbox = await page.context().newPage();
  await askForResetLink(mailbox, person.email);

  const passwordSection = page.getByRole('region', { name: 'Change your password' });
  await passwordSection.getByLabel('Current password').fill(person.password);
  await passwordSection.getByLabel('New password').fill('a newer long passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();

  await followEmailLink(mailbox, origin, resetEmailTo(person.email));
  await resetPassword(mailbox, 'yet another passphrase');
  await expect(mailbox.getByText(noLongerWorks).first()).toBeVisible();
});

test('an address change asked by whoever signed up first dies with the owner’s reset', async ({
  browser,
}) => {
  const attacker = await newContext(browser);
  const attackerPage = await attacker.newPage();
  const victim = await newMemberOnSecurityPage(attackerPage, origin, 'Casey', true);
  const attackerEmail = newPerson('Mallory').email;
  const emailSection = attackerPage.getByRole('region', { name: 'Change your email address' });
  await emailSection.getByLabel('New email address').fill(attackerEmail);
  await emailSection.getByLabel('Current password').fill(victim.password);
  await emailSection.getByRole('button', { name: 'Change email address' }).click();
  await expect(attackerPage.getByText(attackerEmail).first()).toBeVisible();

  // The owner of the address resets the password, which takes the account back.
  const owner = await newContext(browser);
  const ownerPage = await owner.newPage();
  await askForResetLink(ownerPage, victim.email);
  await followEmailLink(ownerPage, origin, resetEmailTo(victim.email));
  await resetPassword(ownerPage, 'the owner’s own passphrase');
  await expect(ownerPage).toHaveURL(/sign-in/);

  // The attacker's link, read from their own mailbox, no longer moves the address.
  await followEmailLink(attackerPage, origin, {
    to: attackerEmail,
    subject: /./,
    link: /\/confirm-email\//,
  });
  await waitForHydration(attackerPage);
  await attackerPage.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(attackerPage.getByText(noLongerWorks).first()).toBeVisible();
  const [row] = await queryDatabase<{ email: string }>(
    database.url,
    'SELECT email FROM users WHERE email = $1',
    [victim.email],
  );
  expect(row?.email).toBe(victim.email);
  await attacker.close();
  await owner.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`a session that has not proved the password lately is asked it before adding a way to sign in (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
  }) => {
    const context = await newContext(browser, javaScriptEnabled);
    const page = await context.newPage();
    const person = await newMemberOnSecurityPage(
      page,
      origin,
      javaScriptEnabled ? 'Drew' : 'Emery',
      javaScriptEnabled,
    );
    // Just signed up: the ways to add a factor are there, and no password is asked again.
    await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toHaveCount(0);

    await ageTheProof(person.email);
    await page.reload();
    const confirm = page.getByRole('region', { name: 'Confirm it is you' });
    await expect(confirm).toBeVisible();
    await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
    await expect(page.getByLabel('Mobile phone number')).toHaveCount(0);
    await expect(page.getByText('To add a passkey, first confirm it is you')).toBeVisible();

    if (javaScriptEnabled) await waitForHydration(page);
    await confirm.getByLabel('Current password').fill('not my password');
    await confirm.getByRole('button', { name: 'Confirm password' }).click();
    await expect(page.getByText('Your current password is not right.').first()).toBeVisible();

    await page
      .getByRole('region', { name: 'Confirm it is you' })
      .getByLabel('Current password')
      .fill(person.password);
    await page
      .getByRole('region', { name: 'Confirm it is you' })
      .getByRole('button', { name: 'Confirm password' })
      .click();
    await expect(page.getByText('Password confirmed').first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Confirm it is you' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    await context.close();
  });
}

test('the demo member signed in a moment ago adds a factor without the password again', async ({
  page,
}) => {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, { email: 'member@example.com', password: 'portal-demo-2026' });
  await expect(page).toHaveURL(`${origin}/dashboard`);
  await page.goto(`${origin}/account/security`);
  await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add a passkey' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Confirm it is you' })).toHaveCount(0);
});
