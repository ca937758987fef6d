import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './support/journeys';

/**
 * A member on a slow connection may press a form's button before its script has loaded. The
 * browser then posts the form itself, and the page the server answers with hydrates once the
 * script arrives: it must keep the answer the server rendered, and go on working as an island
 * (docs/DECISIONS.md, "A form sent before its script has loaded").
 */

/** Holds every island script until `release` is called, as a slow connection would. */
async function holdScripts(page: Page) {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_astro/**', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Every uncaught error of the page, such as React finding the server's HTML changed. */
function pageErrorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('an unknown unlock link pressed before the script has loaded stays refused once it runs', async ({
  page,
}) => {
  const errors = pageErrorsOf(page);
  const releaseScripts = await holdScripts(page);
  await page.goto('/unlock/not-a-real-token');
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  const refusal = page.getByRole('alert').first();
  await expect(refusal).toContainText('invalid or has expired');

  releaseScripts();
  await waitForHydration(page);
  await expect(refusal).toContainText('invalid or has expired');
  expect(errors).toEqual([]);

  // The hydrated form answers without leaving the page: a post of its own would change the address.
  const refusedAt = page.url();
  await page.getByLabel('Email address').fill('not-an-address');
  await page.getByRole('button', { name: 'Send a new link' }).click();
  await expect(page.getByLabel('Email address')).toHaveAccessibleDescription(
    /Enter an email address in the correct format/,
  );
  expect(page.url()).toBe(refusedAt);
});

test('a wrong password sent before the script has loaded keeps its message once it runs', async ({
  page,
}) => {
  const errors = pageErrorsOf(page);
  const releaseScripts = await holdScripts(page);
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill('nobody-signed-up@example.com');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const refusal = page.getByRole('alert').first();
  await expect(refusal).toContainText('Invalid email or password.');

  releaseScripts();
  await waitForHydration(page);
  await expect(refusal).toContainText('Invalid email or password.');
  await expect(page.getByLabel('Email address')).toHaveValue('nobody-signed-up@example.com');
  expect(errors).toEqual([]);
});
