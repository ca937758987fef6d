import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test } from '@playwright/test';
import { HttpVisitor, newSignedInMember } from './support/http-visitor';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';
import { queryDatabase, requireTestPostgres } from './support/postgres';

/**
 * Faults of what the portal stands on (docs/OPERATIONS.md, "When something fails"): the
 * database going away and coming back, and the server process dying mid-request. The API behind
 * API_ORIGIN failing is tests/e2e/failure-pages.spec.ts; the mail server being down is
 * tests/api/smtp-outage.test.ts.
 */

const unavailableHeading = 'Sorry, the service is unavailable';
const unavailableWords =
  'We cannot reach your account right now. Please try again in a few minutes.';

/** The API's time limit on these servers: short, so that a silent database costs little. */
const apiTimeoutMs = 3_000;

test.describe('on PostgreSQL', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  test.beforeAll(requireTestPostgres);

  const outages = [
    {
      what: 'refuses connections (the database is down)',
      start: (proxy: TcpProxy) => proxy.cut(),
    },
    {
      what: 'answers nothing, even on the connections the server holds (its host vanished)',
      start: (proxy: TcpProxy) => {
        proxy.silence();
        return Promise.resolve();
      },
    },
  ];

  for (const outage of outages) {
    test(`while the database ${outage.what} members get the unavailable page and the server is not ready, and both recover by themselves once it returns`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(120_000);
      const server = new URL(serverUrl ?? '');
      const name = `e2e_faults_${randomBytes(6).toString('hex')}`;
      await queryDatabase(server.toString(), `CREATE DATABASE "${name}"`);
      const proxy = await startTcpProxy({
        host: server.hostname,
        port: Number(server.port || 5432),
      });
      const databaseUrl = new URL(server);
      databaseUrl.host = `127.0.0.1:${proxy.port}`;
      databaseUrl.pathname = `/${name}`;
      const portal = await startPortalServer({
        env: { DATABASE_URL: databaseUrl.toString(), API_TIMEOUT_MS: String(apiTimeoutMs) },
        timeoutMs: 45_000,
      });
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const visitor = await newSignedInMember(portal.baseURL);
        await context.addCookies(
          [...visitor.cookies].map(([cookieName, value]) => ({
            name: cookieName,
            value,
            url: portal.baseURL,
          })),
        );
        // Several pages first, so that the pool holds connections that the outage then breaks.
        for (const address of ['/dashboard', '/requests', '/dashboard']) {
          expect((await page.goto(`${portal.baseURL}${address}`))?.status()).toBe(200);
        }
        expect((await request.get(`${portal.baseURL}/readyz`)).status()).toBe(200);

        await outage.start(proxy);
        // More pages than the pool has connections: none may be kept waiting past the limit.
        for (let visit = 0; visit < 12; visit += 1) {
          const address = visit % 2 === 0 ? '/dashboard' : '/requests';
          const startedAt = Date.now();
          const response = await page.goto(`${portal.baseURL}${address}`);
          expect(Date.now() - startedAt).toBeLessThan(apiTimeoutMs + 2_000);
          expect(response?.status()).toBe(503);
          expect(response?.headers()['retry-after']).toBe('30');
          await expect(page.getByRole('heading', { name: unavailableHeading })).toBeVisible();
          await expect(page.getByText(unavailableWords)).toBeVisible();
          await expect(
            page.getByText(/ECONNREFUSED|Connection terminated|timeout|SQL|select/i),
          ).toHaveCount(0);
        }
        const notReady = await request.get(`${portal.baseURL}/readyz`, { timeout: 5_000 });
        expect(notReady.status()).toBe(503);
        expect((await request.get(`${portal.baseURL}/healthz`)).status()).toBe(200);

        await proxy.restore();
        await expect
          .poll(async () => (await request.get(`${portal.baseURL}/readyz`)).status(), {
            timeout: 30_000,
          })
          .toBe(200);
        // Every page works again: no broken connection is handed out of the pool.
        for (let visit = 0; visit < 12; visit += 1) {
          const address = visit % 2 === 0 ? '/dashboard' : '/requests';
          expect((await page.goto(`${portal.baseURL}${address}`))?.status(), address).toBe(200);
        }
      } finally {
        await context.close();
        await portal.stop();
        await proxy.close();
        await queryDatabase(server.toString(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    });
  }
});

/** What the member's side saw of one call. */
type Outcome = 'succeeded' | 'refused' | 'cut off';

interface Attempt {
  readonly kind: 'request' | 'note';
  /** The unique title of a request, or the unique body of a note. */
  readonly label: string;
  outcome?: Outcome;
  /** The request it made, or added a note to. */
  requestId?: string;
}

/** A small file, posted the way a browser without JavaScript posts the form's file field. */
function receipt(label: string): Blob {
  return new Blob([`%PDF-1.4\n% ${label}\n${'x'.repeat(2048)}\n`], { type: 'application/pdf' });
}

async function postMultipart(
  visitor: HttpVisitor,
  address: string,
  fields: Record<string, string | Blob>,
  filename: string,
): Promise<Response> {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(field, value, filename);
    else form.append(field, value);
  }
  form.append('_xsrf', visitor.xsrfToken());
  return visitor.send(address, {
    method: 'POST',
    headers: { origin: visitor.origin, 'sec-fetch-site': 'same-origin' },
    body: form,
  });
}

/**
 * One member making requests, each with a file, and adding a note with a file to each, one call
 * after another until the server goes away; every call is recorded with what the member saw.
 */
async function keepWriting(
  visitor: HttpVisitor,
  lane: string,
  attempts: Attempt[],
  categoryId: string,
): Promise<void> {
  for (let index = 0; ; index += 1) {
    const made: Attempt = { kind: 'request', label: `crash ${lane} request ${index}` };
    attempts.push(made);
    let response: Response;
    try {
      response = await postMultipart(
        visitor,
        '/dashboard?_action=requests.create',
        {
          category_id: categoryId,
          title: made.label,
          details: 'Made while the server may be killed.',
          attachment: receipt(made.label),
        },
        'receipt.pdf',
      );
    } catch {
      made.outcome = 'cut off';
      return;
    }
    const requestId = /^\/requests\/([^/?#]+)$/.exec(response.headers.get('location') ?? '')?.[1];
    if (response.status !== 303 || requestId === undefined) {
      made.outcome = 'refused';
      return;
    }
    made.outcome = 'succeeded';
    made.requestId = requestId;

    const note: Attempt = { kind: 'note', label: `crash ${lane} note ${index}`, requestId };
    attempts.push(note);
    try {
      response = await postMultipart(
        visitor,
        `/requests/${requestId}?_action=requests.addNote`,
        { request_id: requestId, body: note.label, attachment: receipt(note.label) },
        'note.pdf',
      );
    } catch {
      note.outcome = 'cut off';
      return;
    }
    note.outcome = response.status === 303 ? 'succeeded' : 'refused';
    if (note.outcome === 'refused') return;
  }
}

test('a server killed mid-request loses no committed request and leaves none half-written', async () => {
  test.setTimeout(150_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-crash-'));
  const attempts: Attempt[] = [];
  // Into the writing: early (mostly uploads), later (requests and notes under way).
  const killAfterMs = [300, 900, 1_600, 2_400];
  // A new member per lane and round, all from one address: 12 sign-ups stay under the 20 an
  // hour that one address may make (docs/PRODUCT.md §11.3).
  const lanes = 3;
  let portal: PortalServer | undefined;
  try {
    for (const [round, delay] of killAfterMs.entries()) {
      portal = await startPortalServer({ dataDir, timeoutMs: 60_000 });
      const members = await Promise.all(
        Array.from({ length: lanes }, () => newSignedInMember(portal?.baseURL ?? '')),
      );
      const writing = members.map((member, lane) =>
        keepWriting(member, `round ${round} lane ${lane}`, attempts, 'travel'),
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      await portal.kill();
      await Promise.all(writing);
    }

    // A last start on the same folder: the database opens after the last kill, and is closed
    // properly before the test reads it.
    portal = await startPortalServer({ dataDir, timeoutMs: 60_000 });
    expect((await fetch(`${portal.baseURL}/readyz`)).status).toBe(200);
    await portal.stop();
  } finally {
    await portal?.stop();
  }

  try {
    const refused = attempts.filter((attempt) => attempt.outcome === 'refused');
    expect(refused).toEqual([]);
    // The kills did land in the middle of the members' calls.
    expect(attempts.filter((attempt) => attempt.outcome === 'cut off')).toHaveLength(
      killAfterMs.length * lanes,
    );
    expect(attempts.filter((attempt) => attempt.outcome === 'succeeded').length).toBeGreaterThan(
      killAfterMs.length,
    );

    const database = await PGlite.create(path.join(dataDir, 'pglite'));
    try {
      const { rows: made } = await database.query<{
        id: string;
        title: string;
        created: number;
        created_files: number;
        files_on_record: number;
      }>(
        `select r.id, r.title,
           (select count(*)::int from request_updates u
              where u.request_id = r.id and u.kind = 'created') as created,
           (select count(*)::int from blobs b join request_updates u on u.id = b.request_update_id
              where b.request_id = r.id and u.kind = 'created' and b.uploaded_at is not null)
              as created_files,
           (select count(*)::int from blobs b where b.request_id = r.id) as files_on_record
         from requests r where r.title like 'crash %'`,
      );
      const { rows: notes } = await database.query<{
        request_id: string;
        body: string;
        files: number;
        request_moved: boolean;
      }>(
        `select u.request_id, u.body,
           (select count(*)::int from blobs b
              where b.request_update_id = u.id and b.request_id = u.request_id
                and b.uploaded_at is not null) as files,
           (select r.updated_at >= u.created_at from requests r where r.id = u.request_id)
              as request_moved
         from request_updates u where u.kind = 'note' and u.body like 'crash %'`,
      );
      const { rows: attachedFiles } = await database.query<{ key: string }>(
        `select key from blobs b join requests r on r.id = b.request_id
         where r.title like 'crash %'`,
      );

      // Whole or not at all: every request has its one "created" entry and its file, every note
      // its file, and the request moved up with the note.
      for (const request of made) {
        expect(request, request.title).toMatchObject({ created: 1, created_files: 1 });
      }
      for (const note of notes) expect(note, note.body).toMatchObject({ files: 1 });
      for (const note of notes) expect(note.request_moved, note.body).toBe(true);
      for (const request of made) {
        const notesOfIt = notes.filter((note) => note.request_id === request.id).length;
        expect(request.files_on_record, request.title).toBe(1 + notesOfIt);
      }
      for (const { key } of attachedFiles) {
        expect(existsSync(path.join(dataDir, 'storage', ...key.split('/'))), key).toBe(true);
      }

      // Nothing a member saw succeed is missing, and nothing was made twice.
      const titles = made.map((request) => request.title);
      expect(new Set(titles).size).toBe(titles.length);
      for (const attempt of attempts.filter((each) => each.outcome === 'succeeded')) {
        if (attempt.kind === 'request') {
          expect(made.find((request) => request.title === attempt.label)?.id, attempt.label).toBe(
            attempt.requestId,
          );
        } else {
          expect(notes.find((note) => note.body === attempt.label)?.request_id, attempt.label).toBe(
            attempt.requestId,
          );
        }
      }
      // And nothing appeared that no member asked for.
      const asked = new Set(attempts.map((attempt) => attempt.label));
      for (const title of titles) expect(asked.has(title), title).toBe(true);
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
