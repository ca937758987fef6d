import { expect, test, type Page } from '@playwright/test';
import { newPerson, signUp } from './support/accounts';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The Account area's Activity (docs/PRODUCT.md §2, §11.2): /account/activity lists the account's
 * security events, newest first, 20 to a page. A server of this file's own, so that its events
 * are only this file's members'.
 */
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer();
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

const WRONG_PASSWORD = 'not the password at all';

/** A new member, signed up (the phone offer skipped), then signed out. */
async function newMemberSignedOut(page: Page, firstName: string) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  return person;
}

async function failSignIn(page: Page, email: string) {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, { email, password: WRONG_PASSWORD });
  await expect(page.getByText('Invalid email or password.').first()).toBeVisible();
}

async function signInAgain(page: Page, person: { email: string; password: string }) {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/(dashboard|welcome\/about-us)$/);
}

const events = (page: Page) =>
  page.getByRole('list', { name: 'Security events, newest first' }).getByRole('listitem');

test('a member sees their sign-ins, the failed attempt and the password change, newest first, and pages through older ones', async ({
  page,
}) => {
  // Twenty-two sign-ins, each held to the sign-in's minimum duration.
  test.slow();
  const person = await newMemberSignedOut(page, 'Harper');
  await failSignIn(page, person.email);
  await signInAgain(page, person);
  await page.goto(`${origin}/account/security`);
  await waitForHydration(page);
  const newPassword = 'an activity page passphrase';
  await page
    .getByRole('region', { name: 'Change your password' })
    .getByLabel('Current password')
    .fill(person.password);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText('Your password has been changed.'),
  ).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Your account' })
    .getByRole('link', { name: 'Activity' })
    .click();
  await expect(page).toHaveURL(`${origin}/account/activity`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Activity');
  await expect(
    page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'Activity' }),
  ).toHaveAttribute('aria-current', 'page');
  const sentences = page.locator('.event .sentence');
  await expect(sentences.nth(0)).toHaveText('Password changed');
  await expect(sentences.nth(1)).toHaveText('Signed in');
  await expect(sentences.nth(2)).toHaveText('Failed sign-in attempt');
  await expect(sentences.nth(3)).toHaveText('Signed out');
  const newest = events(page).first();
  await expect(newest.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(newest.locator('time')).toHaveText(/\d{4}, \d{1,2}:\d\d [AP]M UTC$/);
  await expect(newest).toContainText(/Chrome \d+ on \w+/);
  await expect(newest).toContainText('network 127.0.0.0/24');
  await expect(page.getByRole('navigation', { name: 'More activity' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // More than a page: three rounds of a sign-out, 4 failures (10 in a row would lock) and a
  // sign-in, 6 events each.
  const count = await events(page).count();
  for (let round = 0; round < 3; round += 1) {
    await signOut(page);
    for (let attempt = 0; attempt < 4; attempt += 1) await failSignIn(page, person.email);
    await signInAgain(page, { email: person.email, password: newPassword });
  }
  const total = count + 18;
  expect(total).toBeGreaterThan(20);

  await page.goto(`${origin}/account/activity`);
  await expect(events(page)).toHaveCount(20);
  await expect(page.locator('.event .sentence').first()).toHaveText('Signed in');
  const pages = page.getByRole('navigation', { name: 'More activity' });
  await expect(pages.getByRole('link', { name: 'Newer' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'Older' }).click();
  await expect(page).toHaveURL(/\/account\/activity\?before=\d+-\d+$/);
  await expect(events(page)).toHaveCount(total - 20);
  await expect(page.locator('.event .sentence').last()).toHaveText('Signed in');
  await expect(pages.getByRole('link', { name: 'Older' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'Newer' }).click();
  await expect(page).toHaveURL(/\/account\/activity\?after=\d+-\d+$/);
  await expect(events(page)).toHaveCount(20);
  await expect(page.locator('.event .sentence').first()).toHaveText('Signed in');

  // A cursor the API never gave is not passed on: the newest page.
  await page.goto(`${origin}/account/activity?before=yesterday`);
  await expect(events(page)).toHaveCount(20);
  await expect(page.locator('.event .sentence').first()).toHaveText('Signed in');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the list and its sentences are the same', async ({ page }) => {
    const person = await newMemberSignedOut(page, 'Rowan');
    await failSignIn(page, person.email);
    await signInAgain(page, person);
    await page.goto(`${origin}/account/activity`);
    const sentences = page.locator('.event .sentence');
    await expect(sentences.nth(0)).toHaveText('Signed in');
    await expect(sentences.nth(1)).toHaveText('Failed sign-in attempt');
    await expect(sentences.nth(2)).toHaveText('Signed out');
  });
});

test('Activity needs a signed-in member', async ({ page }) => {
  await page.goto(`${origin}/account/activity`);
  await expect(page).toHaveURL(/\/sign-in/);
});
