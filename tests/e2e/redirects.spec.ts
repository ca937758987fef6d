import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { expect, test } from '@playwright/test';

const offers = Object.entries(
  load(readFileSync('src/content/offers.yaml', 'utf8')) as Record<string, { url: string }>,
).map(([id, offer]) => ({ id, ...offer }));

test.describe('legacy addresses', () => {
  for (const [from, to] of [
    ['/abc123/unlock', '/unlock/abc123'],
    ['/abc123/unlock/42', '/unlock/abc123'],
    ['/reset-password/abc123/unlock', '/unlock/abc123'],
    ['/reset-password/abc123/unlock/42', '/unlock/abc123'],
    ['/life_concierge_requests', '/requests'],
    ['/life_concierge_requests/new', '/dashboard'],
    ['/requests/new', '/dashboard'],
    ['/users/sign_up', '/sign-up'],
    ['/users/sign_up/acme', '/sign-up'],
  ] as const) {
    test(`${from} moves permanently to ${to}`, async ({ request }) => {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status()).toBe(301);
      expect(response.headers()['location']).toBe(to);
    });
  }
});

test.describe('partner offers', () => {
  for (const { id, url } of offers) {
    for (const prefix of ['/products', '/additional-information']) {
      test(`${prefix}/${id} goes to the partner`, async ({ request }) => {
        const response = await request.get(`${prefix}/${id}`, { maxRedirects: 0 });
        expect(response.status()).toBe(302);
        expect(response.headers()['location']).toBe(url);
      });
    }
  }

  test('an unknown offer is not found, never a redirect', async ({ request }) => {
    for (const path of [
      '/products/free-money',
      '/additional-information/https%3A%2F%2Fevil.example',
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status()).toBe(404);
      expect(response.headers()['location']).toBeUndefined();
    }
  });
});
