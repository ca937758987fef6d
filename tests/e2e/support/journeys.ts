import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** The demo member the server seeds (api/demo/seed.ts); the password is DEMO_PASSWORD's default. */
export const member = {
  email: 'member@example.com',
  password: 'portal-demo-2026',
  fullName: 'Avery Jordan',
  initials: 'AJ',
};

/** Another seeded account, for failed attempts: they must not lock the member out. */
export const staff = { email: 'operations@example.com', password: 'portal-demo-2026' };

/** Fills the sign-in form as a person would and submits it. */
export async function signIn(
  page: Page,
  { email, password }: { email: string; password: string } = member,
): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Runs axe-core (all rules, best practices included) and expects no violations: on the whole
 * page, or only on the parts `include` selects (CSS selectors). Axe takes seconds on a busy
 * machine: a test that calls it is marked slow.
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

/** Every island on the page has hydrated (Astro drops `ssr` from an island once it has). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/**
 * The header's member menu, by its button: a `<summary>` (the disclosure a `<details>` makes),
 * which screen readers announce as a button but Playwright's roles do not list, so it is found
 * by its accessible text inside the banner.
 */
export function memberMenuButton(page: Page) {
  return page.getByRole('banner').locator('summary', { hasText: 'Account menu for' });
}

/** Opens the header's member menu (Account, Sign out), if it is not open already. */
export async function openMemberMenu(page: Page): Promise<void> {
  const menu = page.getByRole('banner').locator('details:has(> summary)');
  if ((await menu.getAttribute('open')) === null) await memberMenuButton(page).click();
  await expect(menu).toHaveAttribute('open', '');
}

/** Signs out as a member does: the member menu, then its Sign out button. */
export async function signOut(page: Page): Promise<void> {
  await openMemberMenu(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
}
