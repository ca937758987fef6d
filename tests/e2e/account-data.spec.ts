import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { newPerson, signUp } from './support/accounts';
import { newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Your data (docs/PRODUCT.md §11.2): /account/data, where a member downloads everything kept
 * about them and deletes the account. A server of this file's own: it deletes accounts and reads
 * the outbox.
 */
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

const confirmationLabel = 'To confirm, type “delete my account”';

/** A new member, signed up (the phone offer skipped), on the Your data page. */
async function newMemberOnDataPage(page: Page, firstName: string) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/account/data`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your data');
  return person;
}

async function deleteAccount(page: Page, password: string, confirmation: string) {
  await page.getByLabel('Current password').fill(password);
  await page.getByLabel(confirmationLabel).fill(confirmation);
  await page.getByRole('button', { name: 'Delete my account' }).click();
}

test('a member downloads one JSON file of their data from the Your data section', async ({
  page,
}) => {
  const person = await newMemberOnDataPage(page, 'Avery');
  await expect(page).toHaveTitle(/Your data/);
  const sections = page.getByRole('navigation', { name: 'Your account' });
  await expect(sections.getByRole('link', { name: 'Your data' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expectNoAxeViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download your data' }).click();
  const download = await downloading;

  expect(download.suggestedFilename()).toMatch(/^member-concierge-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as {
    profile: { email: string; name: string; last_name: string };
    requests: unknown[];
  };
  expect(data.profile).toMatchObject({
    email: person.email,
    name: person.firstName,
    last_name: person.lastName,
  });
  expect(data.requests).toEqual([]);
});

test('past the hourly limit of downloads, the member stays on Your data and reads why, with no file saved', async ({
  page,
}) => {
  await newMemberOnDataPage(page, 'Rowan');
  const link = page.getByRole('link', { name: 'Download your data' });
  for (let download = 1; download <= 10; download += 1) {
    const downloading = page.waitForEvent('download');
    await link.click();
    await downloading;
  }
  let saved = false;
  page.on('download', () => {
    saved = true;
  });

  await link.click();

  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText('Too many attempts. Please wait a few minutes and try again.'),
  ).toBeVisible();
  await expect(page).toHaveURL(`${origin}/account/data`);
  expect(saved).toBe(false);
});

test('a member deletes the account: refusals first, then SignIn with a toast, an email, and the password no longer signs in', async ({
  page,
}) => {
  const person = await newMemberOnDataPage(page, 'Blair');
  await waitForHydration(page);

  await deleteAccount(page, person.password, 'delete it');
  const summary = page.getByRole('alert').first();
  await expect(summary).toBeFocused();
  await expect(
    summary.getByRole('link', { name: 'Type delete my account to confirm' }),
  ).toBeVisible();
  await expect(page.getByLabel(confirmationLabel)).toHaveAccessibleDescription(
    /Type delete my account to confirm/,
  );
  await expectNoAxeViolations(page);

  await deleteAccount(page, 'not my password at all', 'delete my account');
  await expect(
    summary.getByRole('link', { name: 'Your current password is not right.' }),
  ).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveValue('');
  // Only the password is asked again: the typed words stay.
  await expect(page.getByLabel(confirmationLabel)).toHaveValue('delete my account');

  await deleteAccount(page, person.password, '  Delete my account ');

  await expect(page).toHaveURL(`${origin}/sign-in`);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(
    notifications.getByText('Your account has been deleted. We have emailed you to confirm it.'),
  ).toBeVisible();
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(`${origin}/sign-in`);

  const inbox = await page.context().newPage();
  const email = await newestEmail(inbox, origin, {
    to: person.email,
    subject: /account was deleted/,
  });
  await expect(email).toContainText('with your requests, notes and files');
  await inbox.close();

  await signIn(page, person);
  await expect(page.getByRole('alert').first()).toContainText('Invalid email or password.');
});

test('a signed-out visitor gets no file, only the sign-in page', async ({ page }) => {
  await page.goto(`${origin}/account/data/export`);
  await expect(page).toHaveURL(`${origin}/sign-in`);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the account is deleted through the plain form, after its refusal is shown', async ({
    page,
  }) => {
    const person = await newMemberOnDataPage(page, 'Cameron');

    await deleteAccount(page, person.password, '');
    await expect(
      page
        .getByRole('alert')
        .first()
        .getByRole('link', { name: 'Type delete my account to confirm' }),
    ).toBeVisible();

    await deleteAccount(page, person.password, 'delete my account');
    await expect(page).toHaveURL(`${origin}/sign-in`);
    await expect(
      page.getByText('Your account has been deleted. We have emailed you to confirm it.'),
    ).toBeVisible();
  });
});
