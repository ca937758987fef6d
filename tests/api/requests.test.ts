// @module-tag database
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests, requestUpdates } from '../../api/db/schema/index.ts';
import { MINUTE } from '../../platform/clock.ts';
import type { PageMeta } from '../../api/services/requests/requests.ts';
import {
  addConciergeUpdate,
  startTestApi,
  storeRequest,
  uploadFile,
  type TestApi,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NOT_FOUND = { error: 'Not found.' };

interface Member {
  id: number;
  token: string;
}

async function newMember(): Promise<Member> {
  const account = await api.createUser();
  return { id: account.user.id, token: await api.signInToken(account) };
}

interface Summary {
  id: string;
  title: string;
  status: string;
  category: { id: string };
  created_at: string;
  updated_at: string;
  attachment_count: number;
}

interface Update {
  id: string;
  kind: string;
  author: string;
  body: string;
  status: string | null;
  created_at: string;
  attachments: { id: string; filename: string }[];
}

interface RequestBody extends Summary {
  details: string;
  timeline: Update[];
  attachments: { id: string; filename: string; content_type: string; byte_size: number }[];
}

interface ListBody {
  requests: Summary[];
  meta: PageMeta;
}

function createRequest(member: Member, request: Record<string, unknown>): Promise<Response> {
  return api.call('POST', '/api/v1/requests', { token: member.token, body: { request } });
}

const validRequest = {
  category_id: 'travel',
  title: 'Flights to Denver for the March conference',
  details: 'Round trip, March 17 to 20, aisle seat.',
};

describe('POST /api/v1/requests', () => {
  it('makes a submitted request with its creation on the timeline (201)', async () => {
    const member = await newMember();

    const response = await createRequest(member, validRequest);

    expect(response.status).toBe(201);
    const body = (await response.json()) as RequestBody;
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      title: validRequest.title,
      status: 'submitted',
      category: {
        id: 'travel',
        name: 'Travel',
        description: expect.any(String) as unknown,
        icon: 'travel',
      },
      created_at: api.clock.now().toISOString(),
      updated_at: api.clock.now().toISOString(),
      attachment_count: 0,
      details: validRequest.details,
      timeline: [
        {
          id: expect.any(String) as unknown,
          kind: 'created',
          author: 'member',
          body: '',
          status: null,
          created_at: api.clock.now().toISOString(),
          attachments: [],
        },
      ],
      attachments: [],
    });
  });

  it('trims the title and details and takes a request without details', async () => {
    const member = await newMember();

    const response = await createRequest(member, { category_id: 'travel', title: '  Hotel  ' });

    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ title: 'Hotel', details: '' });
  });

  it('attaches an uploaded file to the request and its creation entry', async () => {
    const member = await newMember();
    const fileId = await uploadFile(api, member.token, { filename: 'itinerary.txt' });

    const response = await createRequest(member, { ...validRequest, attachment_ids: [fileId] });

    expect(response.status).toBe(201);
    const body = (await response.json()) as RequestBody;
    expect(body.attachment_count).toBe(1);
    expect(body.attachments).toEqual([
      {
        id: fileId,
        filename: 'itinerary.txt',
        content_type: 'text/plain',
        byte_size: expect.any(Number) as unknown,
        created_at: api.clock.now().toISOString(),
      },
    ]);
    expect(body.timeline[0]?.attachments.map(({ id }) => id)).toEqual([fileId]);
  });

  it.each([
    [{ ...validRequest, title: '' }, 'request.title must not be empty.', 'request.title'],
    [{ ...validRequest, title: '   ' }, 'request.title must not be empty.', 'request.title'],
    [
      { ...validRequest, title: 'x'.repeat(121) },
      'request.title must be at most 120 characters.',
      'request.title',
    ],
    [
      { ...validRequest, details: 'x'.repeat(5001) },
      'request.details must be at most 5000 characters.',
      'request.details',
    ],
    [{ details: 'no title' }, 'request.category_id is required.', 'request.category_id'],
    [
      { ...validRequest, attachment_ids: [randomUUID(), randomUUID()] },
      'request.attachment_ids must have at most 1 item.',
      'request.attachment_ids',
    ],
    [
      { ...validRequest, attachment_ids: ['not-a-uuid'] },
      'request.attachment_ids.0 must be a UUID.',
      'request.attachment_ids',
    ],
  ])('refuses %j with 400 naming the field', async (request, error, field) => {
    const member = await newMember();

    const response = await createRequest(member, request);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field });
  });

  it('accepts a title of exactly 120 characters and details of 5000', async () => {
    const member = await newMember();

    const response = await createRequest(member, {
      ...validRequest,
      title: 'x'.repeat(120),
      details: 'y'.repeat(5000),
    });

    expect(response.status).toBe(201);
  });

  it('refuses an unknown category with 400 naming category_id, and writes nothing', async () => {
    const member = await newMember();

    const response = await createRequest(member, { ...validRequest, category_id: 'space-travel' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Choose one of the request categories.',
      field: 'request.category_id',
    });
    const [stored] = await api.db
      .select({ value: count() })
      .from(requests)
      .where(eq(requests.userId, member.id));
    expect(stored?.value).toBe(0);
  });

  it('refuses an attachment id that is no file at all, and writes nothing', async () => {
    const member = await newMember();

    const response = await createRequest(member, {
      ...validRequest,
      attachment_ids: [randomUUID()],
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'We cannot find that file. Please upload it again.',
      field: 'request.attachment_ids',
    });
    const [stored] = await api.db
      .select({ value: count() })
      .from(requests)
      .where(eq(requests.userId, member.id));
    expect(stored?.value).toBe(0);
  });

  it('refuses another member’s file exactly as a file that does not exist', async () => {
    const owner = await newMember();
    const other = await newMember();
    const fileId = await uploadFile(api, owner.token);

    const response = await createRequest(other, { ...validRequest, attachment_ids: [fileId] });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'We cannot find that file. Please upload it again.',
      field: 'request.attachment_ids',
    });
  });

  it('answers 401 without a session', async () => {
    const response = await api.call('POST', '/api/v1/requests', {
      body: { request: validRequest },
    });

    expect(response.status).toBe(401);
  });
});

/** A cursor of the shape this API makes, for a position no list may hold. */
const cursorOf = () =>
  Buffer.from(
    JSON.stringify([
      '2026-01-02T03:04:05.123456Z',
      '2026-01-02T03:04:05.123456Z',
      '00000000-0000-4000-8000-000000000000',
    ]),
  ).toString('base64url');

describe('GET /api/v1/requests', () => {
  it('lists the member’s requests, most recently updated first, with meta', async () => {
    const member = await newMember();
    const start = api.clock.now().getTime();
    const older = await storeRequest(api, member.id, {
      title: 'Older',
      createdAt: new Date(start - 60 * MINUTE),
    });
    const newer = await storeRequest(api, member.id, {
      title: 'Newer',
      createdAt: new Date(start - 30 * MINUTE),
    });
    // A concierge's reply brings the older request back to the top.
    await addConciergeUpdate(api, older, { body: 'On it.', createdAt: new Date(start - MINUTE) });

    const response = await api.call('GET', '/api/v1/requests', { token: member.token });

    expect(response.status).toBe(200);
    const body = (await response.json()) as ListBody;
    expect(body.requests.map(({ id }) => id)).toEqual([older, newer]);
    expect(body.meta).toEqual({
      page: 1,
      per_page: 10,
      total_count: 2,
      total_pages: 1,
      next_cursor: null,
      previous_cursor: null,
    });
    expect(Object.keys(body.requests[0] ?? {}).sort()).toEqual([
      'attachment_count',
      'category',
      'created_at',
      'id',
      'status',
      'title',
      'updated_at',
    ]);
  });

  it('pages by 10 and answers an empty list with the same meta past the last page', async () => {
    const member = await newMember();
    const start = api.clock.now().getTime();
    const ids: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      ids.push(
        await storeRequest(api, member.id, {
          title: `Request ${index}`,
          createdAt: new Date(start - (100 - index) * MINUTE),
        }),
      );
    }
    const newestFirst = [...ids].reverse();
    const page = async (query: string) =>
      (await (
        await api.call('GET', `/api/v1/requests${query}`, { token: member.token })
      ).json()) as ListBody;

    const first = await page('');
    const third = await page('?page=3');
    const fourth = await page('?page=4');

    expect(first.requests.map(({ id }) => id)).toEqual(newestFirst.slice(0, 10));
    expect(third.requests.map(({ id }) => id)).toEqual(newestFirst.slice(20));
    expect(third.meta).toMatchObject({
      page: 3,
      per_page: 10,
      total_count: 23,
      total_pages: 3,
      next_cursor: null,
    });
    expect(third.meta.previous_cursor).toEqual(expect.any(String));
    expect(fourth).toEqual({
      requests: [],
      meta: {
        page: 4,
        per_page: 10,
        total_count: 23,
        total_pages: 3,
        next_cursor: null,
        previous_cursor: null,
      },
    });
  });

  it('pages by cursor, forwards and back, to the same pages as by number', async () => {
    const member = await newMember();
    const start = api.clock.now().getTime();
    const ids: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      ids.push(
        await storeRequest(api, member.id, {
          title: `Request ${index}`,
          // Two made in the same instant: the id decides, the same way every time.
          createdAt: new Date(start - Math.floor((100 - index) / 2) * MINUTE),
        }),
      );
    }
    const page = async (query: string) =>
      (await (
        await api.call('GET', `/api/v1/requests${query}`, { token: member.token })
      ).json()) as ListBody;
    const byNumber = await Promise.all(['?page=1', '?page=2', '?page=3'].map(page));
    const idsOf = (body: ListBody) => body.requests.map(({ id }) => id);

    const first = await page('');
    const second = await page(`?after=${first.meta.next_cursor ?? ''}`);
    const third = await page(`?after=${second.meta.next_cursor ?? ''}`);
    expect([first, second, third].map(idsOf)).toEqual(byNumber.map(idsOf));
    expect(new Set([first, second, third].flatMap(idsOf)).size).toBe(23);
    expect(second.meta).toMatchObject({ page: 2, total_count: 23, total_pages: 3 });
    expect(third.meta).toMatchObject({ page: 3, next_cursor: null });
    expect(first.meta.previous_cursor).toBeNull();

    const backToSecond = await page(`?before=${third.meta.previous_cursor ?? ''}`);
    const backToFirst = await page(`?before=${backToSecond.meta.previous_cursor ?? ''}`);
    expect(idsOf(backToSecond)).toEqual(idsOf(second));
    expect(backToSecond.meta).toMatchObject({ page: 2 });
    expect(idsOf(backToFirst)).toEqual(idsOf(first));
    expect(backToFirst.meta).toMatchObject({ page: 1, previous_cursor: null });
  });

  it('keeps a cursor’s place when a request moves meanwhile, and lists nobody else’s by it', async () => {
    const member = await newMember();
    const other = await newMember();
    const start = api.clock.now().getTime();
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      ids.push(
        await storeRequest(api, member.id, { createdAt: new Date(start - (50 - index) * MINUTE) }),
      );
      await storeRequest(api, other.id, { createdAt: new Date(start - (50 - index) * MINUTE) });
    }
    const first = (await (
      await api.call('GET', '/api/v1/requests', { token: member.token })
    ).json()) as ListBody;
    // The oldest request gets a reply: it moves to the top, which the next page does not repeat.
    await addConciergeUpdate(api, ids[0] ?? '', { body: 'On it.', createdAt: new Date(start) });
    const second = (await (
      await api.call('GET', `/api/v1/requests?after=${first.meta.next_cursor ?? ''}`, {
        token: member.token,
      })
    ).json()) as ListBody;
    expect(second.requests.map(({ id }) => id)).toEqual([ids[1]]);

    // The other member, given the cursor, pages through their own requests only.
    const theirs = (await (
      await api.call('GET', `/api/v1/requests?after=${first.meta.next_cursor ?? ''}`, {
        token: other.token,
      })
    ).json()) as ListBody;
    expect(theirs.requests.map(({ id }) => id)).not.toContain(ids[1]);
  });

  it('filters open (submitted, in progress, waiting) and closed (completed, cancelled)', async () => {
    const member = await newMember();
    const byStatus = new Map<string, string>();
    for (const status of [
      'submitted',
      'in_progress',
      'waiting_on_member',
      'completed',
      'cancelled',
    ] as const) {
      byStatus.set(status, await storeRequest(api, member.id, { status, title: status }));
    }
    const statusesOf = async (query: string) => {
      const body = (await (
        await api.call('GET', `/api/v1/requests${query}`, { token: member.token })
      ).json()) as ListBody;
      return { statuses: body.requests.map(({ status }) => status).sort(), meta: body.meta };
    };

    const open = await statusesOf('?status=open');
    const closed = await statusesOf('?status=closed&page=1');
    const all = await statusesOf('?status=&page=');

    expect(open.statuses).toEqual(['in_progress', 'submitted', 'waiting_on_member']);
    expect(open.meta.total_count).toBe(3);
    expect(closed.statuses).toEqual(['cancelled', 'completed']);
    expect(all.statuses).toHaveLength(5);
  });

  it('counts the files of each request', async () => {
    const member = await newMember();
    const fileId = await uploadFile(api, member.token);
    await createRequest(member, { ...validRequest, attachment_ids: [fileId] });

    const body = (await (
      await api.call('GET', '/api/v1/requests', { token: member.token })
    ).json()) as ListBody;

    expect(body.requests[0]?.attachment_count).toBe(1);
  });

  it('never lists another member’s requests', async () => {
    const owner = await newMember();
    const other = await newMember();
    await storeRequest(api, owner.id);

    const body = (await (
      await api.call('GET', '/api/v1/requests', { token: other.token })
    ).json()) as ListBody;

    expect(body).toEqual({
      requests: [],
      meta: {
        page: 1,
        per_page: 10,
        total_count: 0,
        total_pages: 0,
        next_cursor: null,
        previous_cursor: null,
      },
    });
  });

  it.each([
    ['?status=pending', 'status must be one of: open, closed.', 'status'],
    ['?page=0', 'page must be at least 1.', 'page'],
    ['?page=two', 'page must be a number.', 'page'],
    ['?page=1.5', 'page must be a whole number.', 'page'],
    ['?after=not-a-cursor', 'after must be a cursor from a page of this list.', 'after'],
    ['?before=eyJ4IjoxfQ', 'before must be a cursor from a page of this list.', 'before'],
    [`?after=${'a'.repeat(201)}`, 'after must be at most 200 characters.', 'after'],
    [
      // A well-formed position, but both directions at once.
      `?after=${cursorOf()}&before=${cursorOf()}`,
      'before must not be given with after.',
      'before',
    ],
  ])('refuses %s with 400 naming the parameter', async (query, error, field) => {
    const member = await newMember();

    const response = await api.call('GET', `/api/v1/requests${query}`, { token: member.token });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field });
  });

  it('answers 401 without a session', async () => {
    expect((await api.call('GET', '/api/v1/requests')).status).toBe(401);
  });
});

describe('GET /api/v1/requests/{id}', () => {
  it('answers the request with its timeline, oldest first', async () => {
    const member = await newMember();
    const created = (await (await createRequest(member, validRequest)).json()) as RequestBody;
    api.clock.advanceBy(MINUTE);
    await addConciergeUpdate(api, created.id, {
      status: 'in_progress',
      body: 'I am on it.',
    });
    api.clock.advanceBy(MINUTE);
    await addConciergeUpdate(api, created.id, { body: 'Two options: 6:40 pm or 5:55 pm.' });

    const response = await api.call('GET', `/api/v1/requests/${created.id}`, {
      token: member.token,
    });

    expect(response.status).toBe(200);
    const body = (await response.json()) as RequestBody;
    expect(body.status).toBe('in_progress');
    expect(body.updated_at).toBe(api.clock.now().toISOString());
    expect(
      body.timeline.map(({ kind, author, status, body: text }) => [kind, author, status, text]),
    ).toEqual([
      ['created', 'member', null, ''],
      ['status_changed', 'concierge', 'in_progress', 'I am on it.'],
      ['note', 'concierge', null, 'Two options: 6:40 pm or 5:55 pm.'],
    ]);
  });

  it('answers 404 for another member’s request, exactly as for an unknown id', async () => {
    const owner = await newMember();
    const other = await newMember();
    const requestId = await storeRequest(api, owner.id);

    const foreign = await api.call('GET', `/api/v1/requests/${requestId}`, {
      token: other.token,
    });
    const unknown = await api.call('GET', `/api/v1/requests/${randomUUID()}`, {
      token: other.token,
    });

    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(NOT_FOUND);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(NOT_FOUND);
  });

  it.each(['123', 'not-a-uuid', `${randomUUID()}x`, "1' OR '1'='1"])(
    'answers 404 for the malformed id %s',
    async (id) => {
      const member = await newMember();

      const response = await api.call('GET', `/api/v1/requests/${encodeURIComponent(id)}`, {
        token: member.token,
      });

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_FOUND);
    },
  );
});

describe('POST /api/v1/requests/{id}/notes', () => {
  it('adds the member’s note to the timeline (201) and moves the request up', async () => {
    const member = await newMember();
    const created = (await (await createRequest(member, validRequest)).json()) as RequestBody;
    api.clock.advanceBy(5 * MINUTE);

    const response = await api.call('POST', `/api/v1/requests/${created.id}/notes`, {
      token: member.token,
      body: { note: { body: '  The United nonstop, please.  ' } },
    });

    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: expect.any(String) as unknown,
      kind: 'note',
      author: 'member',
      body: 'The United nonstop, please.',
      status: null,
      created_at: api.clock.now().toISOString(),
      attachments: [],
    });
    const request = (await (
      await api.call('GET', `/api/v1/requests/${created.id}`, { token: member.token })
    ).json()) as RequestBody;
    expect(request.timeline.map(({ kind }) => kind)).toEqual(['created', 'note']);
    expect(request.updated_at).toBe(api.clock.now().toISOString());
  });

  it('takes a note that is only a file, and counts the file on the request', async () => {
    const member = await newMember();
    const created = (await (await createRequest(member, validRequest)).json()) as RequestBody;
    const fileId = await uploadFile(api, member.token, { filename: 'boarding pass.txt' });

    const response = await api.call('POST', `/api/v1/requests/${created.id}/notes`, {
      token: member.token,
      body: { note: { attachment_ids: [fileId] } },
    });

    expect(response.status).toBe(201);
    const note = (await response.json()) as Update;
    expect(note.body).toBe('');
    expect(note.attachments.map(({ id, filename }) => [id, filename])).toEqual([
      [fileId, 'boarding pass.txt'],
    ]);
    const request = (await (
      await api.call('GET', `/api/v1/requests/${created.id}`, { token: member.token })
    ).json()) as RequestBody;
    expect(request.attachments.map(({ id }) => id)).toEqual([fileId]);
    expect(request.attachment_count).toBe(1);
  });

  it.each([
    [{ note: {} }, 'Write a note or attach a file.', 'note.body'],
    [{ note: { body: '   ' } }, 'Write a note or attach a file.', 'note.body'],
    [
      { note: { body: 'x'.repeat(5001) } },
      'note.body must be at most 5000 characters.',
      'note.body',
    ],
    [
      { note: { body: 'two', attachment_ids: [randomUUID(), randomUUID()] } },
      'note.attachment_ids must have at most 1 item.',
      'note.attachment_ids',
    ],
    [
      { note: { body: 'a file', attachment_ids: [randomUUID()] } },
      'We cannot find that file. Please upload it again.',
      'note.attachment_ids',
    ],
  ])('refuses %j with 400 and writes nothing', async (body, error, field) => {
    const member = await newMember();
    const created = (await (await createRequest(member, validRequest)).json()) as RequestBody;

    const response = await api.call('POST', `/api/v1/requests/${created.id}/notes`, {
      token: member.token,
      body,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field });
    const [entries] = await api.db
      .select({ value: count() })
      .from(requestUpdates)
      .where(eq(requestUpdates.requestId, created.id));
    expect(entries?.value).toBe(1);
  });

  it('answers 404 for another member’s request and for a malformed id', async () => {
    const owner = await newMember();
    const other = await newMember();
    const requestId = await storeRequest(api, owner.id);
    const note = { note: { body: 'Hello' } };

    const foreign = await api.call('POST', `/api/v1/requests/${requestId}/notes`, {
      token: other.token,
      body: note,
    });
    const malformed = await api.call('POST', '/api/v1/requests/42/notes', {
      token: other.token,
      body: note,
    });

    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(NOT_FOUND);
    expect(malformed.status).toBe(404);
  });

  it('answers 409 on a closed request', async () => {
    const member = await newMember();
    const requestId = await storeRequest(api, member.id, { status: 'completed' });

    const response = await api.call('POST', `/api/v1/requests/${requestId}/notes`, {
      token: member.token,
      body: { note: { body: 'Thanks!' } },
    });

    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'This request is already closed.' });
  });
});

describe('POST /api/v1/requests/{id}/cancel', () => {
  it('cancels an open request with a timeline entry, and answers 409 the second time', async () => {
    const member = await newMember();
    const created = (await (await createRequest(member, validRequest)).json()) as RequestBody;
    api.clock.advanceBy(MINUTE);

    const first = await api.call('POST', `/api/v1/requests/${created.id}/cancel`, {
      token: member.token,
    });
    const second = await api.call('POST', `/api/v1/requests/${created.id}/cancel`, {
      token: member.token,
    });

    expect(first.status).toBe(200);
    const cancelled = (await first.json()) as RequestBody;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.updated_at).toBe(api.clock.now().toISOString());
    expect(cancelled.timeline.at(-1)).toMatchObject({
      kind: 'status_changed',
      author: 'member',
      status: 'cancelled',
    });
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: 'This request is already closed.' });
  });

  it.each(['in_progress', 'waiting_on_member'] as const)(
    'cancels a request that is %s',
    async (status) => {
      const member = await newMember();
      const requestId = await storeRequest(api, member.id, { status });

      const response = await api.call('POST', `/api/v1/requests/${requestId}/cancel`, {
        token: member.token,
      });

      expect(response.status).toBe(200);
    },
  );

  it('answers 409 for a completed request', async () => {
    const member = await newMember();
    const requestId = await storeRequest(api, member.id, { status: 'completed' });

    const response = await api.call('POST', `/api/v1/requests/${requestId}/cancel`, {
      token: member.token,
    });

    expect(response.status).toBe(409);
  });

  it('answers 404 for another member’s request and leaves it open', async () => {
    const owner = await newMember();
    const other = await newMember();
    const requestId = await storeRequest(api, owner.id);

    const response = await api.call('POST', `/api/v1/requests/${requestId}/cancel`, {
      token: other.token,
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(NOT_FOUND);
    const [stored] = await api.db
      .select({ status: requests.status })
      .from(requests)
      .where(eq(requests.id, requestId));
    expect(stored?.status).toBe('submitted');
  });

  it('answers 404 for a malformed id', async () => {
    const member = await newMember();

    const response = await api.call('POST', '/api/v1/requests/abc/cancel', {
      token: member.token,
    });

    expect(response.status).toBe(404);
  });
});

describe('request_count of GET /api/v1/users/current', () => {
  it('is the number of requests the member has made, whatever their status', async () => {
    const member = await newMember();
    const countOf = async () =>
      ((await (await api.getCurrentUser(member.token)).json()) as { request_count: number })
        .request_count;

    expect(await countOf()).toBe(0);
    await createRequest(member, validRequest);
    await storeRequest(api, member.id, { status: 'cancelled' });
    await storeRequest(api, (await newMember()).id);

    expect(await countOf()).toBe(2);
  });
});
