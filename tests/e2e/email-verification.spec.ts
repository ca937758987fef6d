import { expect, test, type Page } from '@playwright/test';
import { newPerson, signUp } from './support/accounts';
import { followEmailLink } from './support/inbox';
import { startPortalServer, type PortalServer } from './support/portal-server';

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

const banner = (page: Page) => page.getByRole('complementary', { name: 'Email address' });

/** Signs up a new person, skips the phone, and lands on the Dashboard. */
async function signedUpMember(page: Page) {
  const person = newPerson('Morgan');
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/dashboard`);
  return person;
}

async function confirmsAddress(page: Page, to: string, subject: RegExp) {
  await followEmailLink(page, origin, { to, subject, link: /\/confirm-email\// });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email address');
  // Opening the link spends nothing: only the button does.
  await page.reload();
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a new member sees the banner, sends the link again, and confirms', async ({ page }) => {
      const person = await signedUpMember(page);
      await expect(banner(page)).toContainText(
        `Please confirm your email address. We sent a link to ${person.email}.`,
      );
      await banner(page).getByRole('button', { name: 'Send the link again' }).click();
      await expect(page.getByText(`We sent a new link to ${person.email}.`)).toBeVisible();

      await confirmsAddress(page, person.email, /Confirm your Member Concierge email address/);
      await expect(page.getByText('Thank you, your email address is confirmed.')).toBeVisible();
      await expect(banner(page)).toHaveCount(0);
    });

    test('a member changes the address through the link mailed to the new one', async ({
      page,
    }) => {
      const person = await signedUpMember(page);
      const newEmail = newPerson('Jamie').email;
      await page.goto(`${origin}/account/security`);
      await page.getByLabel('New email address').fill(newEmail);
      await page
        .getByRole('region', { name: 'Change your email address' })
        .getByLabel('Current password')
        .fill(person.password);
      await page.getByRole('button', { name: 'Change email address' }).click();
      await expect(
        page.getByText(`We sent a link to ${newEmail}. Your address changes when you follow it.`),
      ).toBeVisible();

      await confirmsAddress(page, newEmail, /Confirm your new Member Concierge email address/);
      await expect(page.getByText(`Your email address is now ${newEmail}.`)).toBeVisible();
      await expect(banner(page)).toHaveCount(0);
    });
  });
}

test('a used link says so', async ({ page }) => {
  const person = await signedUpMember(page);
  await followEmailLink(page, origin, {
    to: person.email,
    subject: /Confirm your Member Concierge email address/,
    link: /\/confirm-email\//,
  });
  const link = page.url();
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);

  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This confirmation link is invalid or has expired. Sign in to ask for a new one.',
  );
});
