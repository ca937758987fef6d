import { expect, test, type Page } from '@playwright/test';

/**
 * docs/PRODUCT.md §2: a lazily loaded screen that fails to load reloads the page, to the same
 * address, once (src/lib/reload-once.ts). The sign-in form's island stands in for any script of
 * a deploy that is gone.
 */

const islandScript = /\/_astro\/SignInForm\.[\w-]+\.js(\?.*)?$/;

/** Counts the times the page's document is requested from the server. */
function countDocumentLoads(page: Page, path: string): () => number {
  let loads = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && new URL(request.url()).pathname === path) {
      loads += 1;
    }
  });
  return () => loads;
}

test('a script that fails to load once reloads the page once, and then it works', async ({
  page,
}) => {
  let failuresLeft = 2; // the island's import and Astro's own retry a second later
  await page.route(islandScript, async (route) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      await route.fulfill({ status: 404, body: 'gone' });
      return;
    }
    await route.fallback();
  });
  const loads = countDocumentLoads(page, '/sign-in');

  await page.goto('/sign-in');
  await expect.poll(loads, { timeout: 10_000 }).toBe(2);
  await expect(page).toHaveURL(/\/sign-in$/);

  // The island runs now: a submit with empty fields is checked in the page, without a reload.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Enter your email address');
  expect(loads()).toBe(2);
});

test('a script that never loads reloads the page exactly once, never in a loop', async ({
  page,
}) => {
  await page.route(islandScript, (route) => route.fulfill({ status: 404, body: 'gone' }));
  const loads = countDocumentLoads(page, '/sign-in');

  await page.goto('/sign-in');
  await expect.poll(loads, { timeout: 10_000 }).toBe(2);
  // Astro retries the import a second later; give every retry and reload its chance to happen.
  await page.waitForTimeout(4_000);
  expect(loads()).toBe(2);
  // The page is still there, in its server-rendered form, which works without the script.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
