import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { recordCspViolations } from './support/csp-violations';
import { devServerTest, viteClientConnected } from './support/dev-server';
import { demoEmployeeLine, signInAsDemoEmployee } from './support/demo-company-sign-in';
import { member, signIn } from './support/journeys';

// `npm run dev`, as the README offers it to a newcomer and to content editors. Every other browser
// test runs on the production build; this file starts the development server of its own, once,
// for its tests, which run in order in one worker, with the pages' addresses on it.
const test = devServerTest;
test.describe.configure({ mode: 'default' });

/** The development server compiles each page the first time it is asked for: seconds, under load. */
const firstCompile = { timeout: 60_000 };

/** The background Chromium gives a `<button>` no stylesheet has touched. */
const chromiumButtonGrey = 'rgb(239, 239, 239)';

/**
 * Every island on the page has hydrated (Astro drops `ssr` from an island once it has), within a
 * time: an island whose scripts are refused never does, and the test should say so, not hang.
 */
async function expectIslandsHydrated(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, firstCompile);
}

async function signInAsMember(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await expectIslandsHydrated(page);
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Welcome back, Avery',
    firstCompile,
  );
}

test('the sign-in page comes with its styles and scripts and breaks no content policy', async ({
  page,
  devServer,
}) => {
  test.slow();
  const violations = await recordCspViolations(page);
  const viteClient = page.waitForEvent('websocket', {
    predicate: (socket) => socket.url().startsWith(devServer.baseURL.replace('http:', 'ws:')),
    ...firstCompile,
  });

  await page.goto('/sign-in');
  // What the policy refused, if anything, is the first thing to read when the rest fails.
  expect.soft(violations).toEqual([]);

  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).not.toHaveCSS(
    'background-color',
    chromiumButtonGrey,
  );
  await expectIslandsHydrated(page);
  // Vite's client is connected: it is what reloads a page when a file is saved.
  await viteClient;
  expect(violations).toEqual([]);
});

test('the demo member signs in and sees the Dashboard, styled, breaking no content policy', async ({
  page,
}) => {
  test.slow();
  const violations = await recordCspViolations(page);

  await signInAsMember(page);

  await expect(page.getByText(member.fullName)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New request' })).not.toHaveCSS(
    'background-color',
    chromiumButtonGrey,
  );
  expect(violations).toEqual([]);
});

test('the demo company’s employee signs in through its own provider, started by npm run dev', async ({
  page,
  devServer,
}) => {
  test.slow();
  // The address npm run dev prints, which the provider returns to.
  const printedAddress = `http://localhost:${new URL(devServer.baseURL).port}`;
  await signInAsDemoEmployee(page, printedAddress, firstCompile);
  await expect(page.getByRole('heading', { level: 1, name: 'Protect your account' })).toBeVisible(
    firstCompile,
  );
});

test('an editor’s save reloads the welcome page; a mistake is told in the terminal, and the page keeps its words', async ({
  page,
  devServer,
}) => {
  test.slow();
  const file = path.join(devServer.root, 'src/content/welcome/about-us.md');
  const original = readFileSync(file, 'utf8');
  const heading = page.getByRole('heading', { level: 1 });
  await signInAsMember(page);
  const connected = viteClientConnected(page, devServer.baseURL);
  await page.goto('/welcome/about-us');
  await expect(heading).toHaveText(/^title: (.*)$/m.exec(original)?.[1] ?? '', firstCompile);
  // Saved before Vite's client had connected, the change would reach no page.
  await expect(connected).resolves.toBeUndefined();

  writeFileSync(file, original.replace(/^title: .*$/m, 'title: Make yourself at home'));
  await expect(heading).toHaveText('Make yourself at home', firstCompile);

  writeFileSync(file, original.replace(/^title: .*\n/m, ''));
  await expect
    .poll(() => devServer.output(), firstCompile)
    .toContain(
      '[ERROR] [glob-loader] Failed to reload about-us.md: **welcome → about-us** data does not match collection schema.',
    );
  expect(devServer.output()).toContain(
    '  **title**: every welcome page needs a title (at most 80 characters)',
  );
  await page.reload();
  await expect(heading).toHaveText('Make yourself at home');
  // Every dependency the pages so far load was bundled when the server started: one found only
  // as a page asked for it reloads every open page, mid-way through whatever its reader was doing.
  expect(devServer.output()).not.toContain('optimized dependencies changed');
});

test('npm run dev names its address as localhost, where passkeys work, as it starts', ({
  devServer,
}) => {
  const port = new URL(devServer.baseURL).port;
  expect(devServer.startOutput).toMatch(new RegExp(`Local +http://localhost:${port}/$`, 'mu'));
});

test('npm run dev prints the demo accounts as it starts, and once', ({ devServer }) => {
  expect(devServer.startOutput).toContain('Demo accounts (email, password):');
  expect(devServer.startOutput).toMatch(
    /^ {2}member@example\.com +portal-demo-2026 +Member of Acme Health$/mu,
  );
  expect(devServer.startOutput).toMatch(demoEmployeeLine);
  // The embedded API, opened since by the pages above, does not print them again.
  expect(devServer.output().match(/Demo accounts \(email, password\):/gu)).toHaveLength(1);
});
