import { expect, test } from '@playwright/test';
import {
  expectNoAxeViolations,
  member,
  signIn,
  signOut,
  staff,
  waitForHydration,
} from './support/journeys';
import { recordCspViolations } from './support/csp-violations';

test.describe('signing in with JavaScript on', () => {
  test('a member signs in and is greeted on the dashboard', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in$/);
    await signIn(page);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
    await expect(page.getByText(member.fullName)).toBeVisible();
    await expect(page.getByText(member.initials, { exact: true })).toBeVisible();
  });

  test('a wrong password shows the server’s message without reloading the page', async ({
    page,
  }) => {
    await page.goto('/sign-in');
    await waitForHydration(page);
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await signIn(page, { email: staff.email, password: 'not-the-password' });

    const summary = page.getByRole('alert');
    await expect(summary).toContainText('Invalid email or password.');
    await expect(summary).toBeFocused();
    expect(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    await expect(page.getByLabel('Email address')).toHaveValue(staff.email);
  });

  test('empty fields are named in the summary and under each field', async ({ page }) => {
    await page.goto('/sign-in');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    const summary = page.getByRole('alert');
    await expect(summary.getByRole('link', { name: 'Enter your email address' })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Enter your password' })).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');

    await summary.getByRole('link', { name: 'Enter your password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  });

  test('the form offers the password manager its fields', async ({ page }) => {
    await page.goto('/sign-in');
    await expect(page.getByLabel('Email address')).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
      'autocomplete',
      'current-password',
    );
  });

  test('a signed-in member who opens the sign-in page goes to the dashboard', async ({ page }) => {
    await page.goto('/sign-in');
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/sign-in');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the sign-in page and the dashboard have no accessibility violations', async ({ page }) => {
    await page.goto('/sign-in');
    await expectNoAxeViolations(page);
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectNoAxeViolations(page);
  });
});

test.describe('signing in with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a member signs in through the plain form', async ({ page }) => {
    await page.goto('/sign-in');
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
  });

  test('a wrong password re-renders the form with the message and the email kept', async ({
    page,
  }) => {
    await page.goto('/sign-in');
    await signIn(page, { email: staff.email, password: 'not-the-password' });

    await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
    await expect(page.getByLabel('Email address')).toHaveValue(staff.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });

  test('a failed sign-in answers with the standard words for its status', async ({ page }) => {
    await page.goto('/sign-in');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await signIn(page, { email: staff.email, password: 'not-the-password' });

    const response = await answer;
    expect(response.status()).toBe(401);
    expect(response.statusText()).toBe('Unauthorized');
  });

  test('signing out works without JavaScript too', async ({ page }) => {
    await page.goto('/sign-in');
    await signIn(page);
    await signOut(page);
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByText('You have been signed out.')).toBeVisible();
  });
});

test('the sign-in journey breaks no rule of the Content Security Policy', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.goto('/sign-in');
  await waitForHydration(page);
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
  expect(violations).toEqual([]);
});

test.describe('first visits get copies of one sign-in page, each with its own token', () => {
  test.use({ javaScriptEnabled: false });

  test('two newcomers get the same page but for their tokens, and each signs in with theirs', async ({
    browser,
  }) => {
    const visitors = await Promise.all([browser.newContext(), browser.newContext()]);
    const pages = await Promise.all(visitors.map((context) => context.newPage()));
    // The first visit may be the one rendered; these come after it.
    await pages[0]?.request.get('/sign-in');
    const seen = [];
    for (const page of pages) {
      const answer = await page.goto('/sign-in');
      const token = await page.locator('input[name="_xsrf"]').getAttribute('value');
      const cookie = (await page.context().cookies()).find(({ name }) => name === 'XSRF-TOKEN');
      expect(token, 'the form carries a token').toBeTruthy();
      expect(cookie?.value, 'the cookie holds the token the form carries').toBe(token);
      const html = (await answer?.text()) ?? '';
      seen.push({ token, html: html.replaceAll(token ?? '', 'TOKEN') });
    }
    expect(seen[0]?.token).not.toBe(seen[1]?.token);
    expect(seen[0]?.html.replace(/ uid="[^"]*"/g, '')).toBe(
      seen[1]?.html.replace(/ uid="[^"]*"/g, ''),
    );

    for (const page of pages) {
      await signIn(page);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    await Promise.all(visitors.map((context) => context.close()));
  });
});
