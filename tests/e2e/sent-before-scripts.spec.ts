import { expect, test, type Page } from '@playwright/test';
import { signIn, waitForHydration } from './support/journeys';

/**
 * A member on a slow connection may press a form's button before its script has loaded. The
 * browser then posts the form itself, and the page the server answers with hydrates once the
 * script arrives: it must keep the answer the server rendered, and go on working as an island
 * (docs/decisions/034-form-sent-before-script.md).
 */

/**
 * Opens `path` with its island scripts held back, as a slow connection would, sends the form with
 * `send` so the browser posts it itself, checks that the server's `refusal` shows, then lets the
 * scripts run and waits for the page to hydrate. Returns the refusal, and every uncaught error of
 * the page (such as React finding the server's HTML changed).
 */
async function sendBeforeScripts(
  page: Page,
  { path, send, refusal }: { path: string; send: () => Promise<void>; refusal: string },
) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let releaseScripts = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route('**/_astro/**', async (route) => {
    await released;
    await route.continue();
  });

  await page.goto(path);
  await send();
  const shown = page.getByRole('alert').first();
  await expect(shown).toContainText(refusal);

  releaseScripts();
  await waitForHydration(page);
  return { shown, errors };
}

test('an unknown unlock link pressed before the script has loaded stays refused once it runs', async ({
  page,
}) => {
  const { shown, errors } = await sendBeforeScripts(page, {
    path: '/unlock/not-a-real-token',
    send: () => page.getByRole('button', { name: 'Unlock my account' }).click(),
    refusal: 'invalid or has expired',
  });
  await expect(shown).toContainText('invalid or has expired');
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
  const { shown, errors } = await sendBeforeScripts(page, {
    path: '/sign-in',
    send: () =>
      signIn(page, { email: 'nobody-signed-up@example.com', password: 'not the password' }),
    refusal: 'Invalid email or password.',
  });
  await expect(shown).toContainText('Invalid email or password.');
  await expect(page.getByLabel('Email address')).toHaveValue('nobody-signed-up@example.com');
  expect(errors).toEqual([]);
});
