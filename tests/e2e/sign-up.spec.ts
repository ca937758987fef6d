import { expect, test } from '@playwright/test';
import { enrollPhone, enterTextedCode, newPerson, signUp } from './support/accounts';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { firstSubmitOnFreshServer } from './support/patience';

// A server of its own: sign-ups are limited per address, and these make many.
let server: PortalServer;

/** The first account created on a server that has just started. */
const firstSignUp = firstSubmitOnFreshServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

test('a member signs up through the company link, enrolls a phone and answers the welcome pages', async ({
  page,
}) => {
  const person = newPerson('Avery');
  await page.goto(`${origin}/sign-up/acme`);
  await waitForHydration(page);
  await signUp(page, person);

  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSignUp);
  await expectNoAxeViolations(page);
  await enrollPhone(page, '(555) 201-3344');

  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await expect(page.getByText('Step 1 of 3')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Next' }).click();

  await expect(page.getByText('Step 2 of 3')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('checkbox', { name: /^Travel\b/ }).check();
  await page.getByRole('checkbox', { name: /^Family and care\b/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 3 of 3')).toBeVisible();
  await page.getByRole('radio', { name: /^Text message\b/ }).check();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await page.getByLabel('Phone number').fill('5552019988');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(`${origin}/dashboard`);
  // Just signed up: welcomed, not welcomed back.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Avery');

  // The answers are kept, and shown again.
  await page.goto(`${origin}/welcome/about-you`);
  await expect(page.getByRole('checkbox', { name: /Travel/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Family and care/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Home and moving/ })).not.toBeChecked();
  await page.goto(`${origin}/welcome/contact-info`);
  await expect(page.getByRole('radio', { name: /Text message/ })).toBeChecked();
  await expect(page.getByLabel('Phone number')).toHaveValue('(555) 201-9988');

  // The next visit is a return.
  await page.goto(`${origin}/dashboard`);
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  await signIn(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await enterTextedCode(page, '44');
  await expect(page).toHaveURL(`${origin}/dashboard`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
});

test('a member who skips the phone goes on to the welcome pages', async ({ page }) => {
  await page.goto(`${origin}/sign-up`);
  await signUp(page, newPerson('Sasha'));
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
});

test('each problem with the form is named under its field', async ({ page }) => {
  await page.goto(`${origin}/sign-up`);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Create account' }).click();
  const summary = page.getByRole('alert').first();
  await expect(summary).toBeFocused();
  for (const message of [
    'Enter your first name',
    'Enter your last name',
    'Enter your email address',
    'Enter a password',
    'Accept the terms of service to create an account',
  ]) {
    await expect(summary.getByRole('link', { name: message })).toBeVisible();
  }
  await expectNoAxeViolations(page);
});

test('an address already registered and a common password are refused under their fields', async ({
  page,
}) => {
  await page.goto(`${origin}/sign-up`);
  await waitForHydration(page);
  await signUp(page, { ...newPerson(), email: 'MEMBER@example.com' });
  await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').first()).toContainText('already exists');

  // The terms are still accepted from the first try.
  await signUp(page, { ...newPerson(), password: 'password123' }, { acceptTerms: false });
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectNoAxeViolations(page);
});

test('an unknown company link says so at once, and offers sign-up without it', async ({ page }) => {
  const response = await page.goto(`${origin}/sign-up/no-such-company`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This company link is not known',
  );
  // Nothing to fill in for nothing: the form is not there.
  await expect(page.getByLabel('Email address')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Create an account without a company' }).click();
  await expect(page).toHaveURL(`${origin}/sign-up`);
  await expect(page.getByLabel('Email address')).toBeVisible();
});

test('a company link names the company the member joins', async ({ page }) => {
  await page.goto(`${origin}/sign-up/acme`);
  await expect(page.getByText('You are joining through the link of Acme Health')).toBeVisible();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('sign-up, skipping the phone, works through the plain forms', async ({ page }) => {
    const person = newPerson('Kai');
    await page.goto(`${origin}/sign-up`);
    await signUp(page, person);
    await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  });

  test('the welcome pages save their answers through plain forms', async ({ page }) => {
    await page.goto(`${origin}/sign-up`);
    await signUp(page, newPerson('Noor'));
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('link', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: /^Everyday errands\b/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(`${origin}/welcome/contact-info`);
    await page.getByRole('radio', { name: /^Email\b/ }).check();
    await page.getByRole('button', { name: 'Finish' }).click();
    await expect(page).toHaveURL(`${origin}/dashboard`);
    await page.goto(`${origin}/welcome/about-you`);
    await expect(page.getByRole('checkbox', { name: /Everyday errands/ })).toBeChecked();
  });

  test('a refused sign-up keeps what was typed, but never the password', async ({ page }) => {
    const person = newPerson('Lee');
    await page.goto(`${origin}/sign-up`);
    await signUp(page, person, { acceptTerms: false });
    await expect(page.getByRole('alert').first()).toContainText('Accept the terms of service');
    await expect(page.getByLabel('Email address')).toHaveValue(person.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });
});

test('a company link still shows the form once its look-ups from one address are used up', async () => {
  // A server of its own: this uses up the look-ups of 127.0.0.1, every test's address.
  const office = await startPortalServer();
  try {
    let last: Response | undefined;
    for (let visit = 0; visit <= 60; visit += 1) {
      last = await fetch(`${office.baseURL}/sign-up/acme`);
    }
    expect(last?.status).toBe(200);
    const page = (await last?.text()) ?? '';
    expect(page).toContain('name="company_slug" value="acme"');
    expect(page).toContain('You are joining through your company’s link');
  } finally {
    await office.stop();
  }
});
