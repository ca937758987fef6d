import { expect, test, type Page } from '@playwright/test';
import { newPerson, signUp } from './support/accounts';
import { emailCount, newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Changing the password while signed in (docs/PRODUCT.md §11.2): /account/security. A server of
 * this file's own: its sign-ups are nobody else's, and it reads the outbox.
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

const changedEmail = { subject: /password was changed/ };

/** A new member, signed up (the phone offer skipped), on the page that changes the password. */
async function newMemberOnSecurityPage(page: Page, firstName: string) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/account/security`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in and security');
  return person;
}

/** The password change's own section: the email change beside it asks for the password too. */
function passwordForm(page: Page) {
  return page.getByRole('region', { name: 'Change your password' });
}

async function changePassword(page: Page, current: string, next: string) {
  await passwordForm(page).getByLabel('Current password').fill(current);
  await passwordForm(page).getByLabel('New password').fill(next);
  await page.getByRole('button', { name: 'Change password' }).click();
}

/** Signs out through the member menu, and lands on SignIn. */
async function signOutToSignIn(page: Page) {
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
}

test('a member changes the password: a toast, an email, the new password signs in, the old one does not, and another browser is signed out', async ({
  page,
  browser,
}) => {
  const person = await newMemberOnSecurityPage(page, 'Morgan');
  await expect(page).toHaveTitle(/Sign-in and security/);
  await expect(page.getByRole('heading', { level: 2, name: 'Change your password' })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Your account' });
  await expect(sections.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account');
  await expect(sections.getByRole('link', { name: 'Sign-in and security' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(passwordForm(page).getByLabel('Current password')).toHaveAttribute(
    'autocomplete',
    'current-password',
  );
  await expect(passwordForm(page).getByLabel('New password')).toHaveAttribute(
    'autocomplete',
    'new-password',
  );
  await expect(page.getByText('At least 8 characters.')).toBeVisible();
  await expectNoAxeViolations(page);

  // The same member, signed in in another browser.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(`${origin}/sign-in`);
  await signIn(other, person);
  await expect(other).toHaveURL(/\/(dashboard|welcome\/about-us)$/);
  await other.goto(`${origin}/account/security`);

  await waitForHydration(page);
  const newPassword = 'a freshly chosen passphrase';
  await changePassword(page, person.password, newPassword);

  await expect(page).toHaveURL(`${origin}/account/security`);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications.getByText('Your password has been changed.')).toBeVisible();
  await expect(passwordForm(page).getByLabel('Current password')).toHaveValue('');
  await expect(passwordForm(page).getByLabel('New password')).toHaveValue('');

  // The other browser's next page is the sign-in page: a form it sends too (the API's 401).
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Sign-in and security');
  await waitForHydration(other);
  await changePassword(other, newPassword, 'a passphrase from elsewhere');
  await expect(other).toHaveURL(`${origin}/sign-in`);
  await other.goto(`${origin}/dashboard`);
  await expect(other).toHaveURL(`${origin}/sign-in`);
  await elsewhere.close();

  // The email is in the outbox (read in another tab, as from an inbox).
  const inbox = await page.context().newPage();
  const email = await newestEmail(inbox, origin, { to: person.email, ...changedEmail });
  await expect(email).toContainText('Every other device that was signed in has been signed out');
  await expect(email.getByRole('link', { name: /\/forgot-password$/ })).toBeVisible();
  await inbox.close();

  // This browser is still signed in; out and in again, the old password fails, the new one works.
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(`${origin}/dashboard`);
  await signOutToSignIn(page);
  await signIn(page, person);
  await expect(page.getByRole('alert').first()).toContainText('Invalid email or password.');
  await signIn(page, { email: person.email, password: newPassword });
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test('a wrong current password and a weak new password are named in the summary and under their fields', async ({
  page,
}) => {
  const person = await newMemberOnSecurityPage(page, 'Rowan');
  await waitForHydration(page);

  await page.getByRole('button', { name: 'Change password' }).click();
  const summary = page.getByRole('alert').first();
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Enter your current password' })).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Enter a new password' })).toBeVisible();
  await expectNoAxeViolations(page);

  await changePassword(page, 'not my password at all', 'another good passphrase');
  await expect(summary).toBeFocused();
  const wrong = 'Your current password is not right.';
  await expect(summary.getByRole('link', { name: wrong })).toBeVisible();
  await expect(passwordForm(page).getByLabel('Current password')).toHaveAccessibleDescription(
    new RegExp(wrong.replace('.', '\\.')),
  );
  // Neither password is shown again.
  await expect(passwordForm(page).getByLabel('Current password')).toHaveValue('');
  await expect(passwordForm(page).getByLabel('New password')).toHaveValue('');
  await expectNoAxeViolations(page);

  await changePassword(page, person.password, 'password123');
  const common = 'This password is too common. Please choose a less predictable one.';
  await expect(summary.getByRole('link', { name: common })).toBeVisible();
  await summary.getByRole('link', { name: common }).click();
  await expect(passwordForm(page).getByLabel('New password')).toBeFocused();

  await changePassword(page, person.password, person.password);
  await expect(
    summary.getByRole('link', { name: 'Choose a password different from your current one.' }),
  ).toBeVisible();

  // Nothing changed: no email, and the password still signs in.
  const inbox = await page.context().newPage();
  // The only email is sign-up's link to confirm the address: none says the password changed.
  expect(await emailCount(inbox, origin, person.email)).toBe(1);
  await inbox.close();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the password is changed through the plain form, and its refusals are shown', async ({
    page,
  }) => {
    const person = await newMemberOnSecurityPage(page, 'Ellis');

    await changePassword(page, 'not my password at all', 'another good passphrase');
    const summary = page.getByRole('alert').first();
    await expect(
      summary.getByRole('link', { name: 'Your current password is not right.' }),
    ).toBeVisible();
    await expect(passwordForm(page).getByLabel('Current password')).toHaveValue('');
    await expect(passwordForm(page).getByLabel('New password')).toHaveValue('');

    await changePassword(page, person.password, 'short');
    await expect(
      summary.getByRole('link', { name: 'Password must be at least 8 characters.' }),
    ).toBeVisible();

    const newPassword = 'a plainly posted passphrase';
    await changePassword(page, person.password, newPassword);
    await expect(page).toHaveURL(`${origin}/account/security`);
    await expect(page.getByText('Your password has been changed.')).toBeVisible();

    await signOutToSignIn(page);
    await signIn(page, { email: person.email, password: newPassword });
    await expect(page).toHaveURL(`${origin}/dashboard`);
  });
});
