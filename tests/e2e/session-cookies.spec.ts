import { expect, test, type BrowserContext } from '@playwright/test';
import { newFormVisitor } from './support/forms';
import { member, signIn, signOut } from './support/journeys';

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((candidate) => candidate.name === name)?.value;
}

test('an XSRF token issued to an anonymous visitor cannot sign a member out', async ({
  page,
  context,
  baseURL,
}) => {
  const origin = baseURL ?? '';
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The attacker's own token, from a visit without a session, planted in the member's browser.
  const attacker = await newFormVisitor(origin);
  const anonymousToken = await attacker.xsrfToken();
  await attacker.dispose();
  await context.addCookies([{ name: 'XSRF-TOKEN', value: anonymousToken, url: origin }]);

  const status = await page.evaluate(async (token) => {
    const response = await fetch('/dashboard?_action=auth.signOut', {
      method: 'POST',
      body: new URLSearchParams({ _xsrf: token }),
      redirect: 'manual',
    });
    return response.status;
  }, anonymousToken);

  expect(status).toBe(403);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
});

test('signing in and signing out each give the browser a new XSRF token', async ({
  page,
  context,
}) => {
  await page.goto('/sign-in');
  const anonymous = await cookie(context, 'XSRF-TOKEN');

  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const signedIn = await cookie(context, 'XSRF-TOKEN');

  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  const signedOut = await cookie(context, 'XSRF-TOKEN');

  expect(anonymous).toBeTruthy();
  expect(signedIn).toBeTruthy();
  expect(signedOut).toBeTruthy();
  expect(new Set([anonymous, signedIn, signedOut]).size).toBe(3);
});

test('the XSRF token from before sign-in is refused after it', async ({ page, context }) => {
  await page.goto('/sign-in');
  const beforeSignIn = await cookie(context, 'XSRF-TOKEN');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  const status = await page.evaluate(async (token = '') => {
    document.cookie = `XSRF-TOKEN=${token}; path=/`;
    const response = await fetch('/dashboard?_action=auth.signOut', {
      method: 'POST',
      body: new URLSearchParams({ _xsrf: token }),
      redirect: 'manual',
    });
    return response.status;
  }, beforeSignIn);

  expect(status).toBe(403);
});

test('signing in removes an mfa token left from before, or planted', async ({
  page,
  context,
  baseURL,
}) => {
  const origin = baseURL ?? '';
  await context.addCookies([
    { name: 'mfa_token', value: 'planted-mfa-token', url: origin, httpOnly: true },
    { name: 'mfa_step', value: 'verification-required', url: origin, httpOnly: true },
  ]);
  await page.goto('/sign-in');
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);

  expect(await cookie(context, 'mfa_token')).toBeUndefined();
  expect(await cookie(context, 'session')).toBeTruthy();
});
