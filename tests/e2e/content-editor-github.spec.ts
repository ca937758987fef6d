import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { test as base, expect, type Page } from '@playwright/test';
import { recordCspViolations } from './support/csp-violations';
import { signIn, waitForHydration } from './support/journeys';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import { copyOfProject } from './support/project-copy';

// A production build made for GitHub mode, as an operator makes it for editors (the README's
// section for content editors): the editor is there, behind GitHub's sign-in, on a host of its
// own (`127.0.0.1` here, the portal being `localhost`: Keystatic's page moves itself from
// `localhost` to `127.0.0.1`), and the member pages are the same as in the build without it. GitHub itself is never reached from here: the tests stop at the doors it
// opens.

const gitHubApp = {
  KEYSTATIC_GITHUB_CLIENT_ID: 'Iv1.e2e-only-client',
  KEYSTATIC_GITHUB_CLIENT_SECRET: 'e2e-only-client-secret',
  KEYSTATIC_SECRET: 'e2e-only-keystatic-secret-of-more-than-32-characters',
};

/** The built copy of the project, and its server. */
interface GitHubModeBuild {
  readonly root: string;
  readonly server: PortalServer;
  /** Where the member pages are served. */
  readonly portalOrigin: string;
  /** Where the editor is served, on another host name than the portal's. */
  readonly editorOrigin: string;
}

const test = base.extend<
  { gitHubModeServer: PortalServer; portalOrigin: string; editorOrigin: string },
  { gitHubModeBuild: GitHubModeBuild }
>({
  gitHubModeBuild: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) => {
      const { folder, root } = copyOfProject('portal-github-mode-');
      try {
        const port = await freePort();
        const portalOrigin = `http://localhost:${String(port)}`;
        const editorOrigin = `http://127.0.0.1:${String(port)}`;
        const build = spawnSync('npm', ['run', 'build'], {
          cwd: root,
          encoding: 'utf8',
          env: {
            ...process.env,
            PUBLIC_KEYSTATIC_GITHUB_REPO: 'acme/member-portal',
            PUBLIC_ORIGIN: portalOrigin,
            CONTENT_EDITOR_ORIGIN: editorOrigin,
            ASTRO_TELEMETRY_DISABLED: '1',
          },
        });
        if (build.status !== 0)
          throw new Error(`The build failed:\n${build.stdout}${build.stderr}`);
        const server = await startPortalServer({
          projectRoot: root,
          port,
          env: { ...gitHubApp, PUBLIC_ORIGIN: portalOrigin, CONTENT_EDITOR_ORIGIN: editorOrigin },
        });
        await use({ root, server, portalOrigin, editorOrigin });
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
  portalOrigin: async ({ gitHubModeBuild }, use) => {
    await use(gitHubModeBuild.portalOrigin);
  },
  editorOrigin: async ({ gitHubModeBuild }, use) => {
    await use(gitHubModeBuild.editorOrigin);
  },
  baseURL: async ({ portalOrigin }, use) => {
    await use(portalOrigin);
  },
  context: async ({ context, portalOrigin, editorOrigin }, use) => {
    // The editor's interface asks GitHub and a web font service for more; nothing here may leave
    // the machine.
    await context.route(
      (url) => url.origin !== portalOrigin && url.origin !== editorOrigin,
      (route) => route.abort('blockedbyclient'),
    );
    await use(context);
    // A request the route holds as the context closes keeps it from closing.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
  },
});
// The build is the costly part (a copy of the project built again): its tests run in one worker,
// which builds it once.
test.describe.configure({ mode: 'default' });

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request to the server, for the host named `origin`, whatever that name resolves to here:
 * sent to the server's own address with that `Host`, redirects not followed.
 */
function requestFor(
  server: PortalServer,
  origin: string,
  path: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(server.baseURL);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { hostname, port, path, method, headers: { ...headers, host: new URL(origin).host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          resolve({
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        answer.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

const callbackPath = '/api/keystatic/github/oauth/callback';
const stateCookie = 'keystatic-oauth-state';

test('the editor offers GitHub’s sign-in on its own host, within the page’s content policy', async ({
  page,
  editorOrigin,
}) => {
  test.slow();
  const violations = await recordCspViolations(page);
  await page.goto(`${editorOrigin}/keystatic`);
  await expect(page.getByRole('button', { name: 'Log in with GitHub' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('the editor and its API are not found on the portal’s host', async ({
  gitHubModeServer,
  portalOrigin,
  editorOrigin,
}) => {
  for (const path of ['/keystatic', '/keystatic/singleton/terms', '/api/keystatic/github/login']) {
    const onPortal = await requestFor(gitHubModeServer, portalOrigin, path);
    expect(onPortal.status, path).toBe(404);
    expect(onPortal.body, path).toContain('Page not found');
    const onEditorHost = await requestFor(gitHubModeServer, editorOrigin, path);
    expect(onEditorHost.status, path).not.toBe(404);
  }
});

test('no member page, form or action is served on the editor’s host', async ({
  gitHubModeServer,
  portalOrigin,
  editorOrigin,
}) => {
  for (const path of ['/', '/sign-in', '/dashboard', '/welcome/about-us', '/terms']) {
    const onEditorHost = await requestFor(gitHubModeServer, editorOrigin, path);
    expect(onEditorHost.status, path).toBe(404);
    expect(onEditorHost.body, path).toContain('Page not found');
    // The 404 page's anonymous double-submit token, as on any host; no session.
    const cookies = (onEditorHost.headers['set-cookie'] ?? []).map((line) => line.split('=')[0]);
    expect(cookies, path).toEqual(cookies.filter((name) => name === 'XSRF-TOKEN'));
    const onPortal = await requestFor(gitHubModeServer, portalOrigin, path);
    expect([200, 302], path).toContain(onPortal.status);
  }
  const signIn = await requestFor(gitHubModeServer, editorOrigin, '/_actions/auth.signIn', {
    method: 'POST',
    headers: { origin: editorOrigin, 'content-type': 'application/json' },
  });
  expect(signIn.status).toBe(404);
  expect(
    (signIn.headers['set-cookie'] ?? []).filter((line) => !line.startsWith('XSRF-TOKEN=')),
  ).toEqual([]);
});

test('signing in to the editor goes to GitHub’s sign-in for the configured app, with a state kept for the callback alone', async ({
  gitHubModeServer,
  editorOrigin,
}) => {
  const response = await requestFor(gitHubModeServer, editorOrigin, '/api/keystatic/github/login');
  expect(response.status).toBe(307);
  const location = new URL(response.headers.location ?? '');
  expect(`${location.origin}${location.pathname}`).toBe('https://github.com/login/oauth/authorize');
  expect(location.searchParams.get('client_id')).toBe(gitHubApp.KEYSTATIC_GITHUB_CLIENT_ID);
  expect(location.searchParams.get('redirect_uri')).toBe(`${editorOrigin}${callbackPath}`);
  const state = location.searchParams.get('state') ?? '';
  expect(state).toMatch(/^[0-9a-f]{64}$/);
  const cookie = (response.headers['set-cookie'] ?? []).find((line) =>
    line.startsWith(`${stateCookie}=`),
  );
  expect(cookie?.split('; ').sort()).toEqual(
    [
      `${stateCookie}=${state}`,
      'HttpOnly',
      'Max-Age=600',
      `Path=${callbackPath}`,
      'SameSite=Lax',
    ].sort(),
  );

  const again = await requestFor(gitHubModeServer, editorOrigin, '/api/keystatic/github/login');
  expect(new URL(again.headers.location ?? '').searchParams.get('state')).not.toBe(state);
});

test('the sign-in’s callback refuses a missing or other state, before Keystatic asks GitHub for a token', async ({
  gitHubModeServer,
  editorOrigin,
}) => {
  const kept = 'a'.repeat(64);
  for (const [query, cookie] of [
    ['code=attackers-code', `${stateCookie}=${kept}`],
    ['code=attackers-code&state=close', `${stateCookie}=${kept}`],
    [`code=attackers-code&state=${'b'.repeat(64)}`, `${stateCookie}=${kept}`],
    [`code=attackers-code&state=${kept}`, ''],
  ] as const) {
    const path = `${callbackPath}?${query}`;
    const refused = await requestFor(gitHubModeServer, editorOrigin, path, {
      headers: cookie ? { cookie } : {},
    });
    // Keystatic would answer 401, or fail to reach GitHub, once it had the code.
    expect(refused.status, `${query} ${cookie}`).toBe(400);
    expect(refused.body).toContain('This GitHub sign-in did not start from this browser’s editor');
    expect(refused.headers['set-cookie'] ?? []).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${stateCookie}=[^;]*; Path=${callbackPath}; Expires=Thu, 01 Jan 1970 `),
      ),
    );
  }
  const elsewhere = await requestFor(
    gitHubModeServer,
    editorOrigin,
    `/api/keystatic/github//oauth%2Fcallback/?code=attackers-code`,
  );
  expect(elsewhere.status).toBe(400);
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
  portalOrigin,
}) => {
  test.slow();
  const withEditor = await browser.newPage({ baseURL: portalOrigin });
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

test('the build’s server refuses to start without the editor’s own host', async ({
  gitHubModeBuild,
}) => {
  const server = await startPortalServer({
    projectRoot: gitHubModeBuild.root,
    waitFor: 'exit',
    env: gitHubApp,
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(
    'This build has the content editor in GitHub mode, which is served only on a host of its own: set CONTENT_EDITOR_ORIGIN',
  );
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
