import { expect, test } from '@playwright/test';
import { member, signIn, waitForHydration } from './support/journeys';

test('a guarded page remembers where the visitor was going, with its query', async ({ page }) => {
  await page.goto('/dashboard?view=recent');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard\?view=recent$/);
});

for (const target of [
  '/..//evil.example',
  '/.//evil.example',
  '/%2e//evil.example',
  '/x/..//evil.example',
]) {
  test(`a return target that resolves off the site (${target}) is not followed after sign-in`, async ({
    page,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    await page.context().addCookies([{ name: 'return_to', value: target, url: origin }]);
    await page.goto('/sign-in');
    await waitForHydration(page);
    await signIn(page);
    await expect(page).toHaveURL(`${origin}/dashboard`);
  });
}

test('the Account page sends a signed-out visitor to sign in, and back there after', async ({
  page,
}) => {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signIn(page);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account');
});

test('the root does not store a return target', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name.endsWith('return_to'))).toBeUndefined();
});

test('the root sends a signed-in member to the dashboard', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a session the API no longer accepts ends on the next page, which is remembered', async ({
  page,
  context,
}) => {
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The server revoked the token (e.g. a password reset elsewhere): the browser still holds it.
  const session = (await context.cookies()).find((cookie) => cookie.name.endsWith('session'));
  if (!session) throw new Error('signing in set no session cookie');
  const [expiry] = session.value.split('.');
  await context.addCookies([{ ...session, value: `${expiry ?? ''}.${'x'.repeat(43)}` }]);

  await page.goto('/dashboard?after=revoked');
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(
    (await context.cookies()).find((cookie) => cookie.name.endsWith('session')),
  ).toBeUndefined();

  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard\?after=revoked$/);
});

test('MFA enrollment is out of reach for a visitor who is not signed in', async ({ page }) => {
  await page.goto('/mfa-enrollment');
  await expect(page).toHaveURL(/\/sign-in$/);
});

test('an unknown path shows the not-found page with status 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
});

test('a route Astro serves but the route table does not know shows the not-found page', async ({
  page,
}) => {
  // Astro's own endpoints stand for any page file added without its row in src/routes.ts.
  for (const path of ['/_server-islands/anything', '/_image?href=/favicon.svg']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('Page not found');
  }
});
