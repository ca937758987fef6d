import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { contentFileProblems } from '../../src/content/content-files';
import { offerFields, welcomeFields } from '../../src/content/fields';
import { devServerTest, viteClientConnected, type DevServer } from './support/dev-server';
import { signIn } from './support/journeys';

// The content editors' editor (/keystatic) under `npm run dev`, as the README's section for
// editors offers it: local mode, saving to `src/content/` of the copy the development server
// runs on. Its tests run in order in one worker, on one server of their own, which lets the last
// test hold its reads of the content store (a test plugin that does nothing until asked).
const test = devServerTest.extend({
  context: async ({ context, devServer }, use) => {
    // The editor's interface asks a font of a web font service; nothing here may leave the
    // machine, and the editor works without it.
    await context.route(
      (url) => url.origin !== devServer.baseURL,
      (route) => route.abort('blockedbyclient'),
    );
    await use(context);
    // A page of `npm run dev` may still be asking for its modules as a test ends; a request the
    // route holds as the context closes keeps it from closing.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
  },
});
test.describe.configure({ mode: 'default' });
test.use({ devServerOptions: { holdableContentStoreReads: true } });

/** The development server compiles the editor the first time it is asked for: seconds. */
const firstCompile = { timeout: 90_000 };

const aboutUsFile = (devServer: DevServer) =>
  path.join(devServer.root, 'src/content/welcome/about-us.md');

/** `prettier --check <file>` in the project at `root`, as `npm test` runs it: its status and output. */
function prettierCheck(root: string, file: string): { status: number | null; output: string } {
  // Node warns on stderr when both colour settings are given, as `npm test` gives them.
  const env = { ...process.env };
  delete env['FORCE_COLOR'];
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', file],
    { cwd: root, encoding: 'utf8', env },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

async function openAboutUsInEditor(page: Page): Promise<void> {
  await page.goto('/keystatic');
  await page.getByRole('link', { name: 'About us (step 1)' }).first().click(firstCompile);
  await expect(page.getByRole('heading', { name: 'About us (step 1)' })).toBeVisible(firstCompile);
}

test('an editor changes the lead of the first welcome page and saves: the member’s open page reloads with the new words', async ({
  page,
  context,
  devServer,
}) => {
  test.slow();
  // Longer than a line of the editor's YAML, which folds it.
  const lead =
    'Real people who take the everyday errands off your hands, from the first call to the last detail.';
  // A member reads the page, in a window of their own.
  const member = await context.newPage();
  await member.goto('/sign-in');
  await signIn(member);
  await expect(member.getByRole('heading', { level: 1 })).toHaveText(
    'Welcome back, Avery',
    firstCompile,
  );
  const connected = viteClientConnected(member, devServer.baseURL);
  await member.goto('/welcome/about-us');
  await expect(member.getByRole('heading', { level: 1 })).toHaveText(
    'Welcome to Member Concierge',
    firstCompile,
  );
  await expect(member.getByText(lead)).toBeHidden();
  // Saved before Vite's client had connected, the change would reach no page.
  await expect(connected).resolves.toBeUndefined();

  await openAboutUsInEditor(page);
  await page.getByRole('textbox', { name: 'Lead' }).fill(lead);
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(member.getByText(lead)).toBeVisible(firstCompile);
  await expect(member.getByRole('heading', { level: 1 })).toHaveText('Welcome to Member Concierge');
  const saved = readFileSync(aboutUsFile(devServer), 'utf8');
  expect(saved).toMatch(/^lead: >-\n {2}Real people who take/m);
  // The rest of the file is as it was: its title, its step and its body.
  expect(saved).toMatch(/^---\ntitle: Welcome to Member Concierge\nstep: 1\nlead: /);
  expect(saved).toContain('Tell us what you need, in your own words');
  // Committed as it was saved, it passes the checks of `npm test`: Prettier's, and the content's.
  expect(prettierCheck(devServer.root, 'src/content/welcome/about-us.md')).toEqual({
    status: 0,
    output: 'Checking formatting...\nAll matched files use Prettier code style!\n',
  });
  expect(contentFileProblems('src/content/welcome/about-us.md', saved)).toEqual([]);
});

test('a title over 80 characters is refused in the editor with the rule’s own words, and not saved', async ({
  page,
  devServer,
}) => {
  test.slow();
  const before = readFileSync(aboutUsFile(devServer), 'utf8');
  await openAboutUsInEditor(page);

  const title = page.getByRole('textbox', { name: 'Title' });
  await title.fill('A'.repeat(81));
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText(welcomeFields.title.sentence)).toBeVisible();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  expect(readFileSync(aboutUsFile(devServer), 'utf8')).toBe(before);

  // Eighty characters are within the rule.
  await title.fill('A'.repeat(80));
  await expect(page.getByText(welcomeFields.title.sentence)).toBeHidden();
});

test('an editor renames a partner offer and the Dashboard shows it; an address without https is refused', async ({
  page,
  context,
  devServer,
}) => {
  test.slow();
  const offersFile = path.join(devServer.root, 'src/content/offers.yaml');
  const before = readFileSync(offersFile, 'utf8');
  // The member signs in first: a save reloads every open page of the development server, and
  // one that came halfway through signing in would clear the form.
  const member = await context.newPage();
  await member.goto('/sign-in');
  await signIn(member);
  await expect(member.getByRole('link', { name: /Auto insurance/ })).toBeVisible(firstCompile);

  await page.goto('/keystatic');
  await page.getByRole('link', { name: 'Partner offers' }).first().click(firstCompile);
  const autoInsurance = page.getByRole('group', { name: 'Auto insurance' });
  const address = autoInsurance.getByRole('textbox', { name: 'Address' });
  const save = page.getByRole('button', { name: 'Save' });

  await address.fill('http://partners.example.com/auto-insurance');
  await save.click();
  await expect(autoInsurance.getByText(offerFields.url.sentence)).toBeVisible();
  expect(readFileSync(offersFile, 'utf8')).toBe(before);

  await address.fill('https://partners.example.com/auto-insurance');
  await autoInsurance.getByRole('textbox', { name: 'Title' }).fill('Car insurance');
  await save.click();

  await expect
    .poll(() => readFileSync(offersFile, 'utf8'), firstCompile)
    .toContain('auto-insurance:\n  title: Car insurance\n');
  // Every partner is still there, under its id, as the collection reads it.
  const saved = readFileSync(offersFile, 'utf8');
  expect(saved.match(/^[\w-]+:$/gm)).toEqual([
    'term-life-insurance:',
    'auto-insurance:',
    'home-insurance:',
    'home-warranty:',
    'renters-insurance:',
    'pet-insurance:',
    'wills-and-trusts:',
  ]);

  // Astro's content store takes the saved file a moment after it is written.
  await expect(async () => {
    await member.reload();
    await expect(member.getByRole('link', { name: /Car insurance/ })).toBeVisible();
  }).toPass(firstCompile);
  await expect(member.getByRole('link', { name: /Auto insurance/ })).toHaveCount(0);
});

test('an editor shortens the lead of the terms: the page shows it, and their day is kept as the build reads it', async ({
  page,
  context,
  devServer,
}) => {
  test.slow();
  const termsFile = path.join(devServer.root, 'src/content/legal/terms.md');
  const lead = 'The rules for using Member Concierge, in plain words.';
  await page.goto('/keystatic');
  await page.getByRole('link', { name: 'Terms of service' }).first().click(firstCompile);
  await page.getByRole('textbox', { name: 'Lead' }).fill(lead);
  await page.getByRole('button', { name: 'Save' }).click();

  await expect
    .poll(() => readFileSync(termsFile, 'utf8'), firstCompile)
    .toContain(`lead: ${lead}\n`);
  const saved = readFileSync(termsFile, 'utf8');
  expect(saved).toMatch(/^---\ntitle: Terms of service\nupdated: 2026-11-20\nlead: /);
  expect(saved).toContain('## Who we are');

  // In a page of its own: the editor's page reloads as the file changes, cutting a navigation short.
  const reader = await context.newPage();
  // Astro's content store takes the saved file a moment after it is written.
  await expect(async () => {
    await reader.goto('/terms');
    await expect(reader.getByText(lead, { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass(firstCompile);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Terms of service');
});

test('a save that lands while a page is reading the content store reaches the pages after it', async ({
  page,
  context,
  devServer,
}) => {
  test.slow();
  const reads = devServer.contentStoreReads;
  if (!reads) throw new Error('the server was started without holdableContentStoreReads');
  const storeFile = path.join(devServer.root, '.astro/data-store.json');
  const firstLead = 'Plain rules for a plain service, as first saved.';
  const secondLead = 'Plain rules for a plain service, as saved again.';

  /** Opens the terms in the editor and types `lead` as their lead, unsaved. */
  async function typeTermsLead(lead: string): Promise<void> {
    await page.goto('/keystatic');
    await page.getByRole('link', { name: 'Terms of service' }).first().click(firstCompile);
    await page.getByRole('textbox', { name: 'Lead' }).fill(lead);
  }

  /** Saves what the editor shows; resolves once Astro has read the save into its store. */
  async function saveTermsLead(lead: string): Promise<void> {
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => readFileSync(storeFile, 'utf8'), firstCompile).toContain(lead);
  }

  await typeTermsLead(firstLead);
  await saveTermsLead(firstLead);
  // The second lead is typed before any read is held: while one is, a page that imports the
  // content store, as the editor's own page may, waits for it too.
  await typeTermsLead(secondLead);
  // A reader opens the terms, and the server's read of the store is held once it has the first
  // lead, as a busy machine may take seconds over it; the second save lands meanwhile.
  reads.hold();
  const reader = await context.newPage();
  const opening = reader.goto('/terms');
  await expect.poll(() => reads.isHeld(), firstCompile).toBe(true);
  await saveTermsLead(secondLead);
  reads.release();
  await opening;

  await expect(async () => {
    await reader.goto('/terms');
    await expect(reader.getByText(secondLead, { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});
