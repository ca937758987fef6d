import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { recordCspViolations } from './support/csp-violations';
import { signIn, waitForHydration } from './support/journeys';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { copyOfProject } from './support/project-copy';

// A production build made for GitHub mode, as an operator makes it for editors (the README's
// section for content editors): the editor is there, behind GitHub's sign-in, and the member
// pages are the same as in the build without it. GitHub itself is never reached from here: the
// tests stop at the doors it opens.

const gitHubApp = {
  KEYSTATIC_GITHUB_CLIENT_ID: 'Iv1.e2e-only-client',
  KEYSTATIC_GITHUB_CLIENT_SECRET: 'e2e-only-client-secret',
  KEYSTATIC_SECRET: 'e2e-only-keystatic-secret-of-more-than-32-characters',
};

/** The built copy of the project, and its server. */
interface GitHubModeBuild {
  readonly root: string;
  readonly server: PortalServer;
}

const test = base.extend<{ gitHubModeServer: PortalServer }, { gitHubModeBuild: GitHubModeBuild }>({
  gitHubModeBuild: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) => {
      const { folder, root } = copyOfProject('portal-github-mode-');
      try {
        const port = await freePort();
        const build = spawnSync('npm', ['run', 'build'], {
          cwd: root,
          encoding: 'utf8',
          env: {
            ...process.env,
            PUBLIC_KEYSTATIC_GITHUB_REPO: 'acme/member-portal',
            PUBLIC_ORIGIN: `http://127.0.0.1:${String(port)}`,
            ASTRO_TELEMETRY_DISABLED: '1',
          },
        });
        if (build.status !== 0)
          throw new Error(`The build failed:\n${build.stdout}${build.stderr}`);
        const server = await startPortalServer({ projectRoot: root, port, env: gitHubApp });
        await use({ root, server });
        await server.stop();
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  gitHubModeServer: async ({ gitHubModeBuild }, use) => {
    await use(gitHubModeBuild.server);
  },
  baseURL: async ({ gitHubModeServer }, use) => {
    await use(gitHubModeServer.baseURL);
  },
  context: async ({ context, gitHubModeServer }, use) => {
    // The editor's interface asks GitHub and a web font service for more; nothing here may leave
    // the machine.
    await context.route(
      (url) => url.origin !== gitHubModeServer.baseURL,
      (route) => route.abort('blockedbyclient'),
    );
    await use(context);
  },
});

test('the editor offers GitHub’s sign-in, within the page’s content policy', async ({ page }) => {
  test.slow();
  const violations = await recordCspViolations(page);
  await page.goto('/keystatic');
  await expect(page.getByRole('button', { name: 'Log in with GitHub' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('signing in to the editor goes to GitHub’s sign-in for the configured app', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/api/keystatic/github/login', { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  const location = new URL(response.headers()['location'] ?? '');
  expect(`${location.origin}${location.pathname}`).toBe('https://github.com/login/oauth/authorize');
  expect(location.searchParams.get('client_id')).toBe(gitHubApp.KEYSTATIC_GITHUB_CLIENT_ID);
  expect(location.searchParams.get('redirect_uri')).toBe(
    `${baseURL ?? ''}/api/keystatic/github/oauth/callback`,
  );
});

/** The editor's code, by words found in it and nowhere else. */
const editorCode = /@keystatic|@keystar|Log in with GitHub|keystatic-page/;

interface Asset {
  readonly bytes: number;
  readonly editorCode: boolean;
}

/**
 * Everything `page` loads from the build's folder from now on, by address without the build's
 * hash (`/_astro/SignInForm.js`), with its size and whether it carries the editor's code: call
 * the answer once the page is done, and it waits for the last body to be read.
 */
function recordAssets(page: Page): () => Promise<Map<string, Asset>> {
  const reads: Promise<[string, Asset]>[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith('/_astro/')) return;
    reads.push(
      response
        .body()
        .then((body) => [
          pathname.replace(/\.[\w-]{8}\./, '.'),
          { bytes: body.length, editorCode: editorCode.test(body.toString('utf8')) },
        ]),
    );
  });
  return async () => new Map(await Promise.all(reads));
}

const totalBytes = (assets: Map<string, { bytes: number }>) =>
  [...assets.values()].reduce((sum, { bytes }) => sum + bytes, 0);

/**
 * A build with the editor shares the bundler's own helpers (1.1 KB) with it in a script of their
 * own, where the build without it keeps them in React's, and each island calls one of them as it
 * imports React: the member pages' one difference, 1.7 KB before compression for the Dashboard.
 */
const bundlerHelpers = '/_astro/rolldown-runtime.js';

test('the member pages load none of the editor’s code, and what the build without it loads', async ({
  browser,
  gitHubModeServer,
}) => {
  test.slow();
  const withEditor = await browser.newPage({ baseURL: gitHubModeServer.baseURL });
  // The shared server of every other browser test serves the build without the editor.
  const sharedServer = test.info().project.use.baseURL;
  if (sharedServer === undefined) throw new Error('playwright.config.ts names no baseURL');
  const withoutEditor = await browser.newPage({ baseURL: sharedServer });
  const loaded = [withEditor, withoutEditor].map(recordAssets);
  for (const page of [withEditor, withoutEditor]) {
    await page.goto('/sign-in');
    await waitForHydration(page);
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
  }
  const [assetsWithEditor, assetsWithout] = await Promise.all(loaded.map((settled) => settled()));
  if (!assetsWithEditor || !assetsWithout) throw new Error('two pages, two lists');

  expect(assetsWithout.size).toBeGreaterThan(3);
  expect([...assetsWithEditor].filter(([, asset]) => asset.editorCode)).toEqual([]);
  expect([...assetsWithEditor.keys()].filter((name) => name !== bundlerHelpers).sort()).toEqual(
    [...assetsWithout.keys()].sort(),
  );
  expect(totalBytes(assetsWithEditor) - totalBytes(assetsWithout)).toBeLessThan(2_000);
});

test('the build’s server refuses to start without the settings of the editor’s GitHub App', async ({
  gitHubModeBuild,
}) => {
  const server = await startPortalServer({
    projectRoot: gitHubModeBuild.root,
    waitFor: 'exit',
    env: { ...gitHubApp, KEYSTATIC_SECRET: undefined },
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(
    'This build has the content editor in GitHub mode (PUBLIC_KEYSTATIC_GITHUB_REPO), which needs KEYSTATIC_SECRET',
  );
});
