import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs, requests, requestUpdates } from '../../api/db/schema/index.ts';
import { startTestApi, uploadFile, type TestApi } from './support.ts';

/**
 * A member reaches only their own requests, notes and files (docs/PRODUCT.md §7.2): any other
 * id answers exactly as an id that does not exist, 404 and never 403, and no list, count or
 * answer carries anything of another member's.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NOT_FOUND = { status: 404, body: { error: 'Not found.' } };
const VICTIM_TITLE = 'Private: lawyer appointment about the divorce';
const VICTIM_NOTE = 'Please call my sister, not my husband.';
const VICTIM_FILENAME = 'medical-report-confidential.pdf';

interface Victim {
  token: string;
  requestId: string;
  noteId: string;
  requestFileId: string;
  noteFileId: string;
  /** Uploaded, attached to nothing yet. */
  looseFileId: string;
}

let victim: Victim;
let attackerToken: string;

async function json(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  const token = await api.signInToken(await api.createUser());
  const pdf = { filename: VICTIM_FILENAME, contentType: 'application/pdf', content: '%PDF-1.7' };
  const requestFileId = await uploadFile(api, token, pdf);
  const created = await api.call('POST', '/api/v1/requests', {
    token,
    body: {
      request: {
        category_id: 'travel',
        title: VICTIM_TITLE,
        details: 'Nobody else may read this.',
        attachment_ids: [requestFileId],
      },
    },
  });
  const { id: requestId } = (await created.json()) as { id: string };
  const noteFileId = await uploadFile(api, token, pdf);
  const note = await api.call('POST', `/api/v1/requests/${requestId}/notes`, {
    token,
    body: { note: { body: VICTIM_NOTE, attachment_ids: [noteFileId] } },
  });
  const { id: noteId } = (await note.json()) as { id: string };
  const looseFileId = await uploadFile(api, token, pdf);
  victim = { token, requestId, noteId, requestFileId, noteFileId, looseFileId };

  attackerToken = await api.signInToken(await api.createUser());
});

const asAttacker = (method: string, path: string, body?: unknown) =>
  api.call(method, path, { token: attackerToken, body });

describe("another member's request", () => {
  it('answers 404, as an unknown id does, to reading it', async () => {
    expect(await json(await asAttacker('GET', `/api/v1/requests/${victim.requestId}`))).toEqual(
      NOT_FOUND,
    );
    expect(await json(await asAttacker('GET', `/api/v1/requests/${randomUUID()}`))).toEqual(
      NOT_FOUND,
    );
  });

  it('answers 404 to adding a note to it, and its timeline is unchanged', async () => {
    const before = await api.db
      .select()
      .from(requestUpdates)
      .where(eq(requestUpdates.requestId, victim.requestId));

    const response = await asAttacker('POST', `/api/v1/requests/${victim.requestId}/notes`, {
      note: { body: 'Injected by someone else.' },
    });

    expect(await json(response)).toEqual(NOT_FOUND);
    expect(
      await api.db
        .select()
        .from(requestUpdates)
        .where(eq(requestUpdates.requestId, victim.requestId)),
    ).toEqual(before);
  });

  it('answers 404 to cancelling it, and it stays open', async () => {
    const response = await asAttacker('POST', `/api/v1/requests/${victim.requestId}/cancel`);

    expect(await json(response)).toEqual(NOT_FOUND);
    const [row] = await api.db
      .select({ status: requests.status })
      .from(requests)
      .where(eq(requests.id, victim.requestId));
    expect(row?.status).toBe('submitted');
  });

  it('answers 404 to a note id used as a request id, even by its own author', async () => {
    for (const token of [attackerToken, victim.token]) {
      const response = await api.call('GET', `/api/v1/requests/${victim.noteId}`, { token });
      expect(await json(response)).toEqual(NOT_FOUND);
    }
  });
});

describe("another member's files", () => {
  it('answer 404 to a download, whether attached to a request, to a note or to nothing', async () => {
    for (const id of [victim.requestFileId, victim.noteFileId, victim.looseFileId]) {
      expect(await json(await asAttacker('GET', `/api/v1/attachments/${id}`))).toEqual(NOT_FOUND);
    }
  });

  it('cannot be attached to a new request: refused exactly as a file that does not exist', async () => {
    const attach = async (id: string) =>
      json(
        await asAttacker('POST', '/api/v1/requests', {
          request: { category_id: 'travel', title: 'Taking a file', attachment_ids: [id] },
        }),
      );

    const stolen = await attach(victim.looseFileId);

    expect(stolen).toEqual(await attach(randomUUID()));
    expect(stolen).toMatchObject({ status: 400, body: { field: 'request.attachment_ids' } });
    const [row] = await api.db
      .select({ requestId: blobs.requestId, updateId: blobs.requestUpdateId })
      .from(blobs)
      .where(eq(blobs.id, victim.looseFileId));
    expect(row).toEqual({ requestId: null, updateId: null });
  });

  it("cannot be attached to a note on the attacker's own request", async () => {
    const created = await asAttacker('POST', '/api/v1/requests', {
      request: { category_id: 'travel', title: 'My own request' },
    });
    const { id } = (await created.json()) as { id: string };
    const attach = async (fileId: string) =>
      json(
        await asAttacker('POST', `/api/v1/requests/${id}/notes`, {
          note: { body: 'see file', attachment_ids: [fileId] },
        }),
      );

    expect(await attach(victim.looseFileId)).toEqual(await attach(randomUUID()));
    expect(await attach(victim.requestFileId)).toEqual(await attach(randomUUID()));
  });
});

describe("another member's sessions (Devices)", () => {
  const SESSION_GONE = { status: 404, body: { error: 'That session has already ended.' } };

  async function victimSessionId(): Promise<string> {
    const answer = await api.call('GET', '/api/v1/users/sessions', { token: victim.token });
    const { sessions } = (await answer.json()) as { sessions: { id: string; current: boolean }[] };
    const own = sessions.find((session) => session.current);
    if (!own) throw new Error("The victim's session is not listed.");
    return own.id;
  }

  it("never appear in the attacker's list", async () => {
    const listed: unknown = await (
      await api.call('GET', '/api/v1/users/sessions', { token: attackerToken })
    ).json();

    expect(listed).toEqual({ sessions: [expect.objectContaining({ current: true })] });
    expect(JSON.stringify(listed)).not.toContain(await victimSessionId());
  });

  it('answer 404, as an unknown id does, to ending one, and the victim stays signed in', async () => {
    const id = await victimSessionId();

    expect(await json(await asAttacker('DELETE', `/api/v1/users/sessions/${id}`))).toEqual(
      SESSION_GONE,
    );
    expect(
      await json(await asAttacker('DELETE', '/api/v1/users/sessions/AAAAAAAAAAAAAAAAAAAAAA')),
    ).toEqual(SESSION_GONE);
    expect((await api.getCurrentUser(victim.token)).status).toBe(200);
  });

  it("are not among the attacker's others: ending every other device leaves the victim's", async () => {
    const answer = await asAttacker('DELETE', '/api/v1/users/sessions');

    expect(await answer.json()).toEqual({ ended_count: 0 });
    expect((await api.getCurrentUser(victim.token)).status).toBe(200);
    expect((await api.getCurrentUser(attackerToken)).status).toBe(200);
  });
});

describe("lists and counts never show another member's data", () => {
  const victimTraces = () => [
    victim.requestId,
    victim.noteId,
    victim.requestFileId,
    victim.noteFileId,
    victim.looseFileId,
    VICTIM_TITLE,
    VICTIM_NOTE,
    VICTIM_FILENAME,
  ];

  it.each([
    '/api/v1/requests',
    '/api/v1/requests?status=open',
    '/api/v1/requests?status=closed',
    '/api/v1/request_categories',
    '/api/v1/request_categories/travel',
    '/api/v1/dashboard',
    '/api/v1/users/current',
  ])('GET %s answers nothing of it', async (path) => {
    const response = await asAttacker('GET', path);
    const text = await response.text();

    expect(response.status).toBe(200);
    for (const trace of victimTraces()) expect(text).not.toContain(trace);
  });

  it("counts only the member's own requests", async () => {
    const fresh = await api.signInToken(await api.createUser());

    const list = (await (await api.call('GET', '/api/v1/requests', { token: fresh })).json()) as {
      meta: { total_count: number };
    };
    const dashboard = (await (
      await api.call('GET', '/api/v1/dashboard', { token: fresh })
    ).json()) as { open_request_count: number };
    const current = (await (await api.getCurrentUser(fresh)).json()) as { request_count: number };

    expect([list.meta.total_count, dashboard.open_request_count, current.request_count]).toEqual([
      0, 0, 0,
    ]);
  });

  it('the victim, by contrast, sees all of it (so the checks above look in the right places)', async () => {
    const text = await (
      await api.call('GET', `/api/v1/requests/${victim.requestId}`, { token: victim.token })
    ).text();
    const list = await (await api.call('GET', '/api/v1/dashboard', { token: victim.token })).text();

    for (const trace of [VICTIM_TITLE, VICTIM_NOTE, VICTIM_FILENAME, victim.noteFileId]) {
      expect(text).toContain(trace);
    }
    expect(list).toContain(VICTIM_TITLE);
  });
});

describe("another member's security events (docs/PRODUCT.md §11.2)", () => {
  interface EventsAnswer {
    events: { kind: string; network: string | null }[];
    next: string | null;
    previous: string | null;
  }
  const eventsOf = async (token: string, query = '') => {
    const response = await api.call('GET', `/api/v1/users/events${query}`, { token });
    expect(response.status).toBe(200);
    return (await response.json()) as EventsAnswer;
  };

  it('are never listed, whatever cursor asks for them', async () => {
    const target = await api.createUser();
    const victimToken = await api.signInToken(target);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await api.signIn(
        { email: target.email, password: 'a guess' },
        { clientAddress: '192.0.2.44' },
      );
    }
    const attacker = await api.createUser();
    const attackerSession = await api.signInToken(attacker);
    const victimEvents = await eventsOf(victimToken);
    expect(victimEvents.events.map((event) => event.kind)).toEqual([
      'sign_in_failed',
      'sign_in_failed',
      'sign_in_failed',
      'signed_in',
    ]);

    const own = await eventsOf(attackerSession);
    expect(own).toEqual({
      events: [expect.objectContaining({ kind: 'signed_in' })],
      next: null,
      previous: null,
    });
    // A cursor is a place in time, not a key to someone's list: past the victim's newest event
    // the attacker still reads only their own.
    const farFuture = `${Date.now() + 10 * 365 * 24 * 3600 * 1000}-2147483647`;
    for (const query of [`?before=${farFuture}`, '?after=0-0']) {
      const answer = await eventsOf(attackerSession, query);
      expect(answer.events.map((event) => event.kind)).toEqual(['signed_in']);
      expect(JSON.stringify(answer)).not.toContain('192.0.2.0/24');
    }
  });
});
