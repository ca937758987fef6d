import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, member, signIn, waitForHydration } from './support/journeys';

/**
 * The terms of service the sign-up form asks to accept: a page of their own (`/terms`, the words
 * from src/content/legal/terms.md), linked beside the box on sign-up and from the signed-in
 * footer, for anyone, signed in or not.
 */

/** What every visitor of the terms sees: the heading, the day they last changed, the sections. */
async function expectTheTerms(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page).toHaveTitle('Terms of service · Member Concierge');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of service');
  const lastUpdated = page.getByText(/^Last updated \d\d\/\d\d\/\d\d$/);
  await expect(lastUpdated).toBeVisible();
  await expect(lastUpdated.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
  for (const section of ['Your account', 'Requests and files', 'Ending your account', 'Contact']) {
    await expect(page.getByRole('heading', { level: 2, name: section, exact: true })).toBeVisible();
  }
}

test('someone signing up reads the terms in a new tab, and finds the form as they left it', async ({
  page,
}) => {
  await page.goto('/sign-up');
  await waitForHydration(page);
  await page.getByLabel('First name').fill('Robin');

  const link = page.getByRole('link', { name: 'Read the terms of service (opens in new tab)' });
  const [terms] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expectTheTerms(terms);
  await expectNoAxeViolations(terms);
  await terms.close();

  // The link is no part of the box's label: the box keeps its name, and takes check().
  const box = page.getByRole('checkbox', { name: 'I accept the terms of service' });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(box).toBeChecked();
  await expect(page.getByLabel('First name')).toHaveValue('Robin');
  await expectNoAxeViolations(page);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-up form links to the terms too', async ({ page }) => {
    await page.goto('/sign-up/acme');
    const link = page.getByRole('link', { name: 'Read the terms of service (opens in new tab)' });
    await expect(link).toHaveAttribute('target', '_blank');
    await page.goto((await link.getAttribute('href')) ?? '');
    await expectTheTerms(page);
  });
});

test('a signed-in member finds the terms in the footer, and reads them without being sent away', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await waitForHydration(page);
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of service' }).click();
  await expectTheTerms(page);
  await expectNoAxeViolations(page);
  // Still signed in: the way home leads to the Dashboard.
  await page.getByRole('link', { name: 'Member Concierge' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
