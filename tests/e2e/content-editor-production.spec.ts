import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './support/journeys';

// The production build the browser tests run on is made as operators make it by default, without
// GitHub mode: it has no content editor (src/build/content-editor.mjs). Under `npm run dev` it is
// there: tests/e2e/content-editor.spec.ts.

const editorAddresses = ['/keystatic', '/keystatic/', '/keystatic/singleton/aboutUs'];

test('the editor’s pages are not found, signed out or signed in', async ({ page }) => {
  for (const address of editorAddresses) {
    const response = await page.goto(address);
    expect(response?.status(), address).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }), address).toHaveText('Page not found');
  }

  await page.goto('/sign-in');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Avery');
  const response = await page.goto('/keystatic');
  expect(response?.status()).toBe(404);
});

test('the editor’s API reads and writes nothing: every call is not found', async ({ request }) => {
  // As the editor calls it: the header it asks for, and JSON.
  const editorCall = { 'no-cors': '1', 'content-type': 'application/json' };
  expect((await request.get('/api/keystatic/tree', { headers: editorCall })).status()).toBe(404);
  const save = await request.post('/api/keystatic/update', {
    headers: editorCall,
    data: {
      additions: [{ path: 'src/content/welcome/about-us.md', contents: 'LS0tCg' }],
      deletions: [],
    },
  });
  expect(save.status()).toBe(404);
  expect((await request.get('/api/keystatic/github/login', { maxRedirects: 0 })).status()).toBe(
    404,
  );
});

test('no script or server module of the build carries the editor’s code', () => {
  const build = path.resolve('dist');
  const withEditorCode = readdirSync(build, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.m?js$/.test(file))
    .filter((file) =>
      /@keystatic|@keystar\/ui|makeGenericAPIRouteHandler|virtual:keystatic-config/.test(
        readFileSync(path.join(build, file), 'utf8'),
      ),
    );
  expect(withEditorCode).toEqual([]);
});
