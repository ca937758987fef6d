import { expect, test, type Page } from '@playwright/test';
import { member, signIn, signOut, waitForHydration } from './support/journeys';

/**
 * docs/PRODUCT.md §14: the first paint depends on the document alone, and on a signed-in page the
 * stylesheet the pages before sign-in fetched ahead. Islands and held scripts ask for their
 * modules only once the browser reports that the page has painted
 * (src/hydration/after-first-paint.ts), so on a slow device, where a frame reaches the screen
 * well after the task that drew it, no script competes with it.
 */

/** The page's first contentful paint, and every script it asked for, in the page's own clock. */
async function scriptsAgainstFirstPaint(page: Page) {
  await waitForHydration(page);
  return page.evaluate(() => {
    const [firstPaint] = performance.getEntriesByName('first-contentful-paint');
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => /^\/_astro\/.*\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ path: new URL(entry.name).pathname, askedAt: entry.startTime }));
    return { firstPaintAt: firstPaint?.startTime, scripts };
  });
}

function expectNothingAskedBefore(measured: Awaited<ReturnType<typeof scriptsAgainstFirstPaint>>) {
  const { firstPaintAt, scripts } = measured;
  expect(firstPaintAt, 'the page reports its first contentful paint').toBeGreaterThan(0);
  expect(scripts.length, 'the page loads its island modules').toBeGreaterThan(0);
  const early = scripts.filter(({ askedAt }) => askedAt < (firstPaintAt ?? 0));
  expect(early, `asked for before the first paint at ${firstPaintAt} ms`).toEqual([]);
}

test('SignIn asks for no script until the browser has reported its first paint', async ({
  page,
}) => {
  await page.goto('/sign-in');
  expectNothingAskedBefore(await scriptsAgainstFirstPaint(page));
});

test('the Dashboard and the sign-out toast ask for no script until the first paint', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await waitForHydration(page);
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard');
  expectNothingAskedBefore(await scriptsAgainstFirstPaint(page));

  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications.getByText('You have been signed out.')).toBeVisible();
  expectNothingAskedBefore(await scriptsAgainstFirstPaint(page));
});

test('the first page after sign-in takes its stylesheet from the cache the sign-in page filled', async ({
  page,
}) => {
  await page.goto('/sign-in');
  const fetchedAhead = await page
    .locator('link[rel="prefetch"][as="style"]')
    .evaluate((link: HTMLLinkElement) => link.href);
  await expect
    .poll(
      () =>
        page.evaluate(
          (address) =>
            performance
              .getEntriesByName(address)
              .some((entry) => (entry as PerformanceResourceTiming).responseEnd > 0),
          fetchedAhead,
        ),
      { message: `SignIn fetches ${fetchedAhead} ahead` },
    )
    .toBe(true);
  await waitForHydration(page);
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);

  const linked = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => {
      const [entry] = performance.getEntriesByName(link.href) as PerformanceResourceTiming[];
      return {
        address: link.href,
        transferSize: entry?.transferSize,
        bodySize: entry?.decodedBodySize,
      };
    }),
  );
  expect(linked.map(({ address }) => address)).toEqual([fetchedAhead]);
  expect(linked[0]?.transferSize, 'bytes it took from the network').toBe(0);
  expect(linked[0]?.bodySize, 'the stylesheet, read from the cache').toBeGreaterThan(10_000);
  // Unstyled, the header would have no background of its own; the portal's is its brand colour.
  await expect(page.getByRole('banner')).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
});
