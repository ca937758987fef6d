import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations, waitForHydration } from './journeys';

export { expect, expectNoAxeViolations };

/** Playwright's test, failing any test during which the page threw a script error. */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => {
        errors.push(error.stack ?? error.message);
      });
      await use(errors);
      expect(errors, 'script errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Opens the kit gallery and waits until every island has hydrated (Astro drops the `ssr`
 * attribute of an island once it has), so that what the tests press is live.
 */
export async function openKit(page: Page): Promise<void> {
  await page.goto('/kit');
  await waitForHydration(page);
}

/** The gallery section titled `title` (a region named by its heading). */
export function kitSection(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title, exact: true });
}

/** Collects what the page logs with console.error and console.warn. */
export function consoleMessages(page: Page): { errors: string[]; warnings: string[] } {
  const collected = { errors: [] as string[], warnings: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') collected.errors.push(message.text());
    if (message.type() === 'warning') collected.warnings.push(message.text());
  });
  return collected;
}
