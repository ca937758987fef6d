import { expect, test, type Page, type Route } from '@playwright/test';
import { member, signIn, waitForHydration } from './support/journeys';
import { waitForIslands } from './support/requests';

/**
 * docs/PRODUCT.md §14: when an island starts to hydrate, it asks for every module it needs at
 * once (src/hydration/preload-island-modules.ts), rather than finding each level of imports only
 * once the level above has arrived. To see that, the browser gets no module at all until it has
 * asked for nothing more for a while: a module it could only find inside another would never be
 * asked for then. After that everything goes through, and nothing more may be asked for.
 */

/**
 * Holds the page's scripts back while `holding`, and remembers every script it asks for and
 * every one that failed to load.
 */
async function watchModules(page: Page) {
  const asked = new Set<string>();
  const held: Route[] = [];
  let holding = true;
  let askedWhenHeld = 0;
  await page.route('**/_astro/*.js', async (route) => {
    asked.add(new URL(route.request().url()).pathname);
    if (holding) held.push(route);
    else await route.continue();
  });
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/_astro/') && !response.ok()) {
      failed.push(`${new URL(response.url()).pathname} ${response.status()}`);
    }
  });
  const askedSoFar = () => [...asked].sort();
  return {
    askedSoFar,
    /** The scripts that did not load: a module listed that the server does not have. */
    failed: () => failed,
    /**
     * Waits until the page has asked for a script since they were held back, then until it asks
     * for nothing more for a second.
     */
    async untilQuiet(): Promise<string[]> {
      await expect
        .poll(() => asked.size, { message: 'the page asks for scripts' })
        .toBeGreaterThan(askedWhenHeld);
      let seen = -1;
      while (seen !== asked.size) {
        seen = asked.size;
        await page.waitForTimeout(1_000);
      }
      return askedSoFar();
    },
    async release(): Promise<void> {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
    hold(): void {
      holding = true;
      askedWhenHeld = asked.size;
    },
  };
}

/** Signs the demo member in, and waits until the Dashboard has settled. */
async function signInAsMember(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await waitForHydration(page);
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
}

const moduleOf = (name: string) => new RegExp(`^/_astro/${name}\\.[\\w-]+\\.js$`);

test('the sign-in form asks for all its modules at once, React and the form kit included', async ({
  page,
}) => {
  const modules = await watchModules(page);
  await page.goto('/sign-in');
  const askedAtOnce = await modules.untilQuiet();
  expect(askedAtOnce).toEqual(
    expect.arrayContaining([
      expect.stringMatching(moduleOf('SignInForm')),
      expect.stringMatching(moduleOf('form-kit')),
      expect.stringMatching(moduleOf('react')),
    ]),
  );

  await modules.release();
  await waitForHydration(page);
  expect(modules.askedSoFar()).toEqual(askedAtOnce);
  expect(modules.failed()).toEqual([]);

  // The island runs: an empty submit is checked in the page.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Enter your email address');
});

test('every island of the Dashboard asks for all its modules at once', async ({ page }) => {
  await signInAsMember(page);

  const modules = await watchModules(page);
  await page.goto('/dashboard');
  const askedAtOnce = await modules.untilQuiet();
  await modules.release();
  await waitForHydration(page);
  expect(modules.askedSoFar()).toEqual(askedAtOnce);
  expect(modules.failed()).toEqual([]);
});

test('an island below the fold asks for nothing until it comes into view, then for all its modules at once', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await signInAsMember(page);
  await page.goto('/requests');
  const openRequest = page.getByRole('link', { name: 'Movers for our move on April 12' });
  const requestPath = await openRequest.getAttribute('href');
  if (!requestPath) throw new Error('The Requests page links to no open request');

  const modules = await watchModules(page);
  await page.goto(requestPath);
  const askedAfterPaint = await modules.untilQuiet();
  expect(askedAfterPaint).not.toEqual(
    expect.arrayContaining([expect.stringMatching(moduleOf('NoteForm'))]),
  );
  await modules.release();
  await expect.poll(() => page.locator('astro-island[client="paint"][ssr]').count()).toBe(0);
  expect(modules.askedSoFar()).toEqual(askedAfterPaint);

  modules.hold();
  await page.getByRole('heading', { name: 'Add a note' }).scrollIntoViewIfNeeded();
  const askedInView = await modules.untilQuiet();
  expect(askedInView).toEqual(
    expect.arrayContaining([
      expect.stringMatching(moduleOf('NoteForm')),
      expect.stringMatching(moduleOf('FileUploader')),
    ]),
  );
  await modules.release();
  await waitForIslands(page, 'NoteForm');
  expect(modules.askedSoFar()).toEqual(askedInView);
  expect(modules.failed()).toEqual([]);
});
