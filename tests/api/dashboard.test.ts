import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.ts';
import { addConciergeUpdate, startTestApi, storeRequest, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

interface DashboardBody {
  open_request_count: number;
  open_requests: { id: string; status: string }[];
  recent_updates: {
    id: string;
    kind: string;
    author: string;
    body: string;
    status: string | null;
    created_at: string;
    attachments: unknown[];
    request_id: string;
    request_title: string;
  }[];
  categories: { id: string }[];
  offers: string[];
}

async function newMember(): Promise<{ id: number; token: string }> {
  const account = await api.createUser();
  return { id: account.user.id, token: await api.signInToken(account) };
}

async function dashboardOf(token: string): Promise<DashboardBody> {
  const response = await api.call('GET', '/api/v1/dashboard', { token });
  expect(response.status).toBe(200);
  return (await response.json()) as DashboardBody;
}

describe('GET /api/v1/dashboard', () => {
  it('answers an empty dashboard for a new member, with the categories and all offers', async () => {
    const { token } = await newMember();

    expect(await dashboardOf(token)).toEqual({
      open_request_count: 0,
      open_requests: [],
      recent_updates: [],
      categories: expect.arrayContaining([expect.objectContaining({ id: 'travel' })]) as unknown,
      offers: [
        'term-life-insurance',
        'auto-insurance',
        'home-insurance',
        'home-warranty',
        'renters-insurance',
        'pet-insurance',
        'wills-and-trusts',
      ],
    });
  });

  it('counts the open requests and shows the 5 most recently updated of them', async () => {
    const member = await newMember();
    const start = api.clock.now().getTime();
    const open: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      open.push(
        await storeRequest(api, member.id, {
          status: index % 2 === 0 ? 'in_progress' : 'waiting_on_member',
          title: `Open ${index}`,
          createdAt: new Date(start - (60 - index) * MINUTE),
        }),
      );
    }
    await storeRequest(api, member.id, { status: 'completed', title: 'Closed' });
    await storeRequest(api, member.id, { status: 'cancelled', title: 'Cancelled' });
    await storeRequest(api, (await newMember()).id, { title: 'Someone else’s' });

    const dashboard = await dashboardOf(member.token);

    expect(dashboard.open_request_count).toBe(7);
    expect(dashboard.open_requests.map(({ id }) => id)).toEqual(open.slice(2).reverse());
    expect(dashboard.categories).toHaveLength(6);
  });

  it('shows the 5 latest timeline entries of the member’s requests, with their request', async () => {
    const member = await newMember();
    const start = api.clock.now().getTime();
    const at = (minutes: number) => new Date(start + minutes * MINUTE);
    const flights = await storeRequest(api, member.id, { title: 'Flights', createdAt: at(0) });
    const dentist = await storeRequest(api, member.id, { title: 'Dentist', createdAt: at(1) });
    await addConciergeUpdate(api, flights, { status: 'in_progress', createdAt: at(2) });
    await addConciergeUpdate(api, dentist, { body: 'Two options.', createdAt: at(3) });
    await addConciergeUpdate(api, flights, { body: 'Booked.', createdAt: at(4) });
    await addConciergeUpdate(api, dentist, {
      status: 'waiting_on_member',
      body: 'Which one?',
      createdAt: at(5),
    });

    const { recent_updates: updates } = await dashboardOf(member.token);

    expect(updates.map(({ request_title, kind, body }) => [request_title, kind, body])).toEqual([
      ['Dentist', 'status_changed', 'Which one?'],
      ['Flights', 'note', 'Booked.'],
      ['Dentist', 'note', 'Two options.'],
      ['Flights', 'status_changed', ''],
      ['Dentist', 'created', ''],
    ]);
    expect(updates[0]).toEqual({
      id: expect.any(String) as unknown,
      kind: 'status_changed',
      author: 'concierge',
      body: 'Which one?',
      status: 'waiting_on_member',
      created_at: at(5).toISOString(),
      attachments: [],
      request_id: dentist,
      request_title: 'Dentist',
    });
  });

  it('answers 401 without a session', async () => {
    expect((await api.call('GET', '/api/v1/dashboard')).status).toBe(401);
  });
});
