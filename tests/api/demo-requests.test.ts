// @module-tag database
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs, requests, requestUpdates, users } from '../../api/db/schema/index.ts';
import { DEFAULT_DEMO_PASSWORD } from '../../api/demo/demo-accounts.ts';
import { seedDemoRequests } from '../../api/demo/seed-requests.ts';
import { seedDemoData } from '../../api/demo/seed.ts';
import { startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await seedDemoData(api.db, api.clock, DEFAULT_DEMO_PASSWORD);
  await seedDemoRequests(api.db, api.clock, api.storage);
});

afterAll(async () => {
  await api.close();
});

async function requestsOf(email: string) {
  const [user] = await api.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error(`No user ${email}.`);
  return api.db.select().from(requests).where(eq(requests.userId, user.id));
}

async function totals() {
  const [requestCount] = await api.db.select({ value: count() }).from(requests);
  const [updateCount] = await api.db.select({ value: count() }).from(requestUpdates);
  const [blobCount] = await api.db.select({ value: count() }).from(blobs);
  return [requestCount?.value, updateCount?.value, blobCount?.value];
}

describe('seedDemoRequests', () => {
  it('gives member@example.com requests in every status across several categories', async () => {
    const rows = await requestsOf('member@example.com');

    expect(new Set(rows.map(({ status }) => status))).toEqual(
      new Set(['submitted', 'in_progress', 'waiting_on_member', 'completed', 'cancelled']),
    );
    expect(new Set(rows.map(({ categoryId }) => categoryId)).size).toBeGreaterThanOrEqual(4);
  });

  it('gives verified@example.com a few requests too', async () => {
    expect((await requestsOf('verified@example.com')).length).toBeGreaterThanOrEqual(2);
  });

  it('writes timelines that start with the creation and end in the request’s status', async () => {
    const rows = await requestsOf('member@example.com');
    for (const request of rows) {
      const response = await api.call('GET', `/api/v1/requests/${request.id}`, {
        token: await api.signInToken({
          email: 'member@example.com',
          password: DEFAULT_DEMO_PASSWORD,
        }),
      });
      const body = (await response.json()) as {
        status: string;
        updated_at: string;
        timeline: { kind: string; status: string | null; created_at: string }[];
      };
      expect(body.timeline[0]?.kind).toBe('created');
      const lastStatus = body.timeline.filter(({ kind }) => kind === 'status_changed').at(-1);
      expect(lastStatus?.status ?? 'submitted').toBe(body.status);
      expect(body.timeline.at(-1)?.created_at).toBe(body.updated_at);
    }
  });

  it('stores the demo files, which the member can download', async () => {
    const token = await api.signInToken({
      email: 'member@example.com',
      password: DEFAULT_DEMO_PASSWORD,
    });
    const rows = await requestsOf('member@example.com');
    const files = await api.db
      .select()
      .from(blobs)
      .where(
        inArray(
          blobs.requestId,
          rows.map(({ id }) => id),
        ),
      );
    expect(new Set(files.map(({ contentType }) => contentType))).toEqual(
      new Set(['text/plain', 'application/pdf']),
    );

    for (const file of files) {
      const { url } = (await (
        await api.call('GET', `/api/v1/attachments/${file.id}`, { token })
      ).json()) as { url: string };
      const download = await api.app.request(url);
      expect(download.status).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBe(file.byteSize);
    }
  });

  it('adds nothing when run again, and writes back a demo file storage lost', async () => {
    const before = await totals();
    const [file] = await api.db.select().from(blobs).limit(1);
    if (!file) throw new Error('No demo file.');
    await api.storage.delete(file.key);

    await seedDemoRequests(api.db, api.clock, api.storage);
    await seedDemoRequests(api.db, api.clock, api.storage);

    expect(await totals()).toEqual(before);
    expect(await api.storage.stat(file.key)).toEqual({ byteSize: file.byteSize });
  });

  it('counts the demo requests in request_count', async () => {
    const token = await api.signInToken({
      email: 'member@example.com',
      password: DEFAULT_DEMO_PASSWORD,
    });
    const rows = await requestsOf('member@example.com');

    const body = (await (await api.getCurrentUser(token)).json()) as { request_count: number };

    expect(body.request_count).toBe(rows.length);
  });
});
