import { expect, test, type Page } from '@playwright/test';
import { profileSavedMessage } from '../../src/lib/messages';
import { newPerson, signUp } from './support/accounts';
import {
  expectNoAxeViolations,
  memberMenuButton,
  openMemberMenu,
  waitForHydration,
} from './support/journeys';
import { firstSubmitOnFreshServer } from './support/patience';
import { startPortalServer, type PortalServer } from './support/portal-server';

// A server of its own: each journey signs a new member up, and changes their name.
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

/** A new member, signed up (the phone offer skipped), on the Dashboard. */
async function newMember(page: Page, firstName: string) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/dashboard`);
  return person;
}

// axe runs as a script in the page, so it checks the pages with JavaScript on; the markup is the same.
const summaryOf = (page: Page) => page.getByRole('alert').filter({ hasText: 'There is a problem' });

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a member changes their name, help topics and contact from the member menu', async ({
      page,
    }) => {
      const person = await newMember(page, javaScriptEnabled ? 'Robin' : 'Sasha');
      const banner = page.getByRole('banner');
      await expect(banner.getByText(`${person.firstName} ${person.lastName}`)).toBeVisible();
      // The Dashboard links to the account too.
      await expect(page.getByRole('link', { name: 'Your account' })).toHaveAttribute(
        'href',
        '/account',
      );

      await openMemberMenu(page);
      await banner.getByRole('link', { name: 'Account', exact: true }).click();
      await expect(page).toHaveURL(`${origin}/account`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account');
      await expect(page).toHaveTitle(/Your account/);
      const sections = page.getByRole('navigation', { name: 'Your account' });
      await expect(sections.getByRole('link', { name: 'Profile' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(sections.getByRole('link', { name: 'Sign-in and security' })).toHaveAttribute(
        'href',
        '/account/security',
      );
      if (javaScriptEnabled) await waitForHydration(page);
      await expect(page.getByLabel('First name')).toHaveValue(person.firstName);
      await expect(page.getByLabel('Last name')).toHaveValue(person.lastName);
      await expect(page.getByText(person.email, { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      await page.getByLabel('First name').fill('Rowan');
      await page.getByLabel('Last name').fill('de la Cruz');
      await page.getByRole('checkbox', { name: /^Travel\b/ }).check();
      await page.getByRole('checkbox', { name: /^Everyday errands\b/ }).check();
      await page.getByRole('radio', { name: /^Text message\b/ }).check();
      await page.getByLabel('Phone number').fill('5552019988');
      await page.getByRole('button', { name: 'Save profile' }).click();

      const notifications = page.getByRole('region', { name: 'Notifications' });
      await expect(notifications.getByText(profileSavedMessage)).toBeVisible();
      await expect(page).toHaveURL(`${origin}/account`);
      await expect(banner.getByText('Rowan de la Cruz')).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveValue('Rowan');
      await expect(page.getByLabel('Last name')).toHaveValue('de la Cruz');
      await expect(page.getByRole('checkbox', { name: /^Travel\b/ })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: /^Everyday errands\b/ })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: /^Home and moving\b/ })).not.toBeChecked();
      await expect(page.getByRole('radio', { name: /^Text message\b/ })).toBeChecked();
      await expect(page.getByLabel('Phone number')).toHaveValue('(555) 201-9988');
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      // The Account link says where the member is.
      await openMemberMenu(page);
      await expect(banner.getByRole('link', { name: 'Account', exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      // Elsewhere, the greeting has the new name too.
      await page.goto(`${origin}/dashboard`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Rowan');
    });

    test('each problem with the profile is named in the summary and under its field', async ({
      page,
    }) => {
      await newMember(page, javaScriptEnabled ? 'Morgan' : 'Kai');
      await page.goto(`${origin}/account`);
      if (javaScriptEnabled) await waitForHydration(page);

      await page.getByLabel('First name').fill('   ');
      await page.getByRole('radio', { name: /^Email\b/ }).check();
      await page.getByLabel('Phone number').fill('555 12');
      await page.getByRole('button', { name: 'Save profile' }).click();

      const summary = summaryOf(page);
      await expect(summary).toBeVisible();
      if (javaScriptEnabled) await expect(summary).toBeFocused();
      const phoneMessage = 'Enter a US phone number with its area code, like (555) 123-4567';
      for (const message of ['Enter your first name', phoneMessage]) {
        await expect(summary.getByRole('link', { name: message })).toBeVisible();
      }
      await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Enter your first name').nth(1)).toBeVisible();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      // The link goes to the field.
      await summary.getByRole('link', { name: 'Enter your first name' }).click();
      if (javaScriptEnabled) await expect(page.getByLabel('First name')).toBeFocused();

      // A text needs a number (the page afresh: the member has none).
      await page.goto(`${origin}/account`);
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel('First name').fill('Morgana');
      await page.getByRole('radio', { name: /^Text message\b/ }).check();
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect(
        summaryOf(page).getByRole('link', {
          name: 'Enter a phone number to be called or texted on',
        }),
      ).toBeVisible();
      await expect(summaryOf(page).getByRole('link')).toHaveCount(1);
      await expect(page.getByLabel('First name')).toHaveValue('Morgana');
      await expect(page.getByRole('radio', { name: /^Text message\b/ })).toBeChecked();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      // Nothing was saved: the header keeps the name.
      await expect(memberMenuButton(page)).not.toContainText('Morgana');
    });
  });
}
