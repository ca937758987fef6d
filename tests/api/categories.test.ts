import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.ts';
import { startTestApi, storeRequest, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function newMember(): Promise<{ id: number; token: string }> {
  const account = await api.createUser();
  return { id: account.user.id, token: await api.signInToken(account) };
}

describe('GET /api/v1/request_categories', () => {
  it('answers the categories in display order', async () => {
    const { token } = await newMember();

    const response = await api.call('GET', '/api/v1/request_categories', { token });

    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      categories: { id: string; name: string; description: string; icon: string }[];
    };
    expect(body.categories.map(({ id, icon }) => [id, icon])).toEqual([
      ['home-and-moving', 'home'],
      ['travel', 'travel'],
      ['health-and-wellness', 'health'],
      ['finance-and-legal', 'finance'],
      ['family-and-care', 'family'],
      ['everyday-errands', 'errands'],
    ]);
    expect(body.categories[1]).toEqual({
      id: 'travel',
      name: 'Travel',
      description: 'Flights, hotels and itineraries planned and booked, for work or for a break.',
      icon: 'travel',
    });
  });

  it('answers 401 without a session', async () => {
    expect((await api.call('GET', '/api/v1/request_categories')).status).toBe(401);
  });
});

describe('GET /api/v1/request_categories/{id}', () => {
  it('answers the category and the member’s own requests in it, paged', async () => {
    const member = await newMember();
    const other = await newMember();
    const start = api.clock.now().getTime();
    const older = await storeRequest(api, member.id, {
      categoryId: 'travel',
      createdAt: new Date(start - 2 * MINUTE),
    });
    const newer = await storeRequest(api, member.id, {
      categoryId: 'travel',
      status: 'completed',
      createdAt: new Date(start - MINUTE),
    });
    await storeRequest(api, member.id, { categoryId: 'everyday-errands' });
    await storeRequest(api, other.id, { categoryId: 'travel' });

    const response = await api.call('GET', '/api/v1/request_categories/travel', {
      token: member.token,
    });

    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      category: { id: string };
      requests: { id: string; category: { id: string } }[];
      meta: unknown;
    };
    expect(body.category).toEqual({
      id: 'travel',
      name: 'Travel',
      description: expect.any(String) as unknown,
      icon: 'travel',
    });
    expect(body.requests.map(({ id }) => id)).toEqual([newer, older]);
    expect(body.meta).toEqual({
      page: 1,
      per_page: 10,
      total_count: 2,
      total_pages: 1,
      next_cursor: null,
      previous_cursor: null,
    });
  });

  it('answers an empty page past the last with the same meta', async () => {
    const member = await newMember();
    await storeRequest(api, member.id, { categoryId: 'travel' });

    const response = await api.call('GET', '/api/v1/request_categories/travel?page=2', {
      token: member.token,
    });

    expect(await response.json()).toMatchObject({
      requests: [],
      meta: { page: 2, per_page: 10, total_count: 1, total_pages: 1 },
    });
  });

  it('refuses a page that is not a positive whole number with 400', async () => {
    const { token } = await newMember();

    const response = await api.call('GET', '/api/v1/request_categories/travel?page=-1', {
      token,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'page must be at least 1.', field: 'page' });
  });

  it('answers 404 for an unknown category', async () => {
    const { token } = await newMember();

    const response = await api.call('GET', '/api/v1/request_categories/space-travel', { token });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found.' });
  });
});
