import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

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
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** The gallery section titled `title` (a region named by its heading). */
export function kitSection(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title, exact: true });
}

/**
 * Runs axe-core (all rules, best practices included) and expects no violations: on the whole
 * page, or only on the parts `include` selects (CSS selectors), which is much faster on this
 * large page. Axe is slow; tests that call it are marked slow.
 */
export async function expectNoAxeViolations(
  page: Page,
  include: readonly string[] = [],
): Promise<void> {
  test.slow();
  let builder = new AxeBuilder({ page });
  for (const selector of include) builder = builder.include(selector);
  const results = await builder.analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes.map((node) => `  ${node.target.join(' ')}`).join('\n'),
  );
  expect(summary, 'axe-core violations').toEqual([]);
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
