// @module-tag database
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blobs,
  companies,
  requestCategories,
  requests,
  requestUpdates,
  users,
} from '../../api/db/schema/index.ts';
import { currentRequestContext, withRequestId } from '../../platform/logger.ts';
import {
  addConciergeUpdate,
  startTestApi,
  storeRequest,
  uploadFile,
  type TestApi,
} from './support.ts';

/**
 * The member's data version (docs/PRODUCT.md §14): the database bumps it on every write that
 * changes what the member's pages show, whoever writes, and a batch sent with the version it
 * last saw learns "unchanged" after the session check alone.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

interface Member {
  id: number;
  token: string;
}

async function newMember(options: Parameters<TestApi['createUser']>[0] = {}): Promise<Member> {
  const account = await api.createUser(options);
  return { id: account.user.id, token: await api.signInToken(account) };
}

type BatchAnswer =
  { version: string; unchanged: true } | { version: string; responses: { status: number }[] };

async function batch(member: Member, unlessVersion?: string) {
  const response = await api.call('POST', '/api/v1/batch', {
    token: member.token,
    body: {
      requests: [
        { method: 'GET', path: '/api/v1/users/current' },
        { method: 'GET', path: '/api/v1/dashboard' },
      ],
      ...(unlessVersion === undefined ? {} : { unless_version: unlessVersion }),
    },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as BatchAnswer;
}

/** The version a batch answers now, after checking that asking with it answers "unchanged". */
async function settledVersion(member: Member): Promise<string> {
  const { version } = await batch(member);
  expect(await batch(member, version)).toEqual({ version, unchanged: true });
  return version;
}

async function changesVersion(member: Member, write: () => Promise<unknown>): Promise<void> {
  const before = await settledVersion(member);
  await write();
  const after = await batch(member, before);
  expect(after).not.toHaveProperty('unchanged');
  expect(after.version).not.toBe(before);
}

describe('the member data version', () => {
  it('answers an unchanged batch with the session check alone, and no reads', async () => {
    const member = await newMember();
    const version = await settledVersion(member);

    const answer = await withRequestId(`unchanged-${Math.random()}`, async () => {
      const unchanged = await batch(member, version);
      return { unchanged, statements: currentRequestContext()?.databaseStatements };
    });

    expect(answer.unchanged).toEqual({ version, unchanged: true });
    expect(answer.statements).toBe(1);
  });

  it('stays as it is while the member only reads, signs in again and is seen', async () => {
    const account = await api.createUser();
    const member = { id: account.user.id, token: await api.signInToken(account) };
    const version = await settledVersion(member);

    await api.call('GET', '/api/v1/requests', { token: member.token });
    await api.call('GET', '/api/v1/dashboard', { token: member.token });
    await api.signInToken(account);
    api.clock.advanceBy(60_000);

    expect(await batch(member, version)).toEqual({ version, unchanged: true });
  });

  it('changes when the member makes a request', async () => {
    const member = await newMember();
    await changesVersion(member, () =>
      api.call('POST', '/api/v1/requests', {
        token: member.token,
        body: { request: { category_id: 'travel', title: 'Flights to Lisbon', details: '' } },
      }),
    );
  });

  it('changes when the member adds a note, and when a concierge adds one or moves the status', async () => {
    const member = await newMember();
    const requestId = await storeRequest(api, member.id);
    await changesVersion(member, () =>
      api.call('POST', `/api/v1/requests/${requestId}/notes`, {
        token: member.token,
        body: { note: { body: 'Window seat, please.', attachment_ids: [] } },
      }),
    );
    await changesVersion(member, () => addConciergeUpdate(api, requestId, { body: 'Booked.' }));
    await changesVersion(member, () =>
      addConciergeUpdate(api, requestId, { status: 'in_progress' }),
    );
  });

  it('changes with each table on its own: a timeline entry, a request, each written alone', async () => {
    const member = await newMember();
    const requestId = await storeRequest(api, member.id);
    await changesVersion(member, () =>
      api.db
        .insert(requestUpdates)
        .values({ requestId, kind: 'note', author: 'concierge', body: 'On it.' }),
    );
    await changesVersion(member, () =>
      api.db
        .update(requestUpdates)
        .set({ body: 'On it now.' })
        .where(eq(requestUpdates.requestId, requestId)),
    );
    await changesVersion(member, () =>
      api.db.update(requests).set({ title: 'Flights to Porto' }).where(eq(requests.id, requestId)),
    );
    await changesVersion(member, () => api.db.delete(requests).where(eq(requests.id, requestId)));
  });

  it('changes when a file is attached, and when an attached file goes', async () => {
    const member = await newMember();
    const fileId = await uploadFile(api, member.token);
    await changesVersion(member, () =>
      api.call('POST', '/api/v1/requests', {
        token: member.token,
        body: {
          request: {
            category_id: 'travel',
            title: 'Passport renewal',
            details: '',
            attachment_ids: [fileId],
          },
        },
      }),
    );
    await changesVersion(member, () => api.db.delete(blobs).where(eq(blobs.id, fileId)));
  });

  it('changes when the member’s name changes, by the member or anybody else', async () => {
    const member = await newMember();
    await changesVersion(member, () =>
      api.call('PATCH', '/api/v1/users/current', {
        token: member.token,
        body: { user: { name: 'Rosa' } },
      }),
    );
    await changesVersion(member, () =>
      api.db.update(users).set({ lastName: 'Parks' }).where(eq(users.id, member.id)),
    );
  });

  it('changes when the member’s company changes, and when any category does', async () => {
    const companyName = `Version Test ${Date.now()}`;
    const member = await newMember({ companyName });
    await changesVersion(member, () =>
      api.db
        .update(companies)
        .set({ name: `${companyName}, Inc.` })
        .where(eq(companies.name, companyName)),
    );
    await changesVersion(member, () =>
      api.db
        .update(requestCategories)
        .set({ description: sql`${requestCategories.description} || ' '` })
        .where(eq(requestCategories.id, 'travel')),
    );
  });

  it('stays as it is when another member writes', async () => {
    const member = await newMember();
    const other = await newMember();
    const version = await settledVersion(member);

    const otherRequest = await storeRequest(api, other.id);
    await addConciergeUpdate(api, otherRequest, { body: 'Not yours.' });
    await api.call('PATCH', '/api/v1/users/current', {
      token: other.token,
      body: { user: { name: 'Someone' } },
    });

    expect(await batch(member, version)).toEqual({ version, unchanged: true });
  });

  it('is checked after the session: a signed-out token learns nothing', async () => {
    const member = await newMember();
    const version = await settledVersion(member);
    await api.signOut(member.token);

    const response = await api.call('POST', '/api/v1/batch', {
      token: member.token,
      body: { requests: [{ method: 'GET', path: '/api/v1/dashboard' }], unless_version: version },
    });

    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('unchanged');
  });
});
