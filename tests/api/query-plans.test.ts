// @module-tag database
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRequestContext } from '../../platform/logger.ts';
import { MINUTE } from '../../platform/clock.ts';
import {
  addConciergeUpdate,
  startTestApi,
  storeRequest,
  uploadFile,
  type TestApi,
} from './support.ts';

/**
 * Every statement a member's journey sends is served by an index (docs/PRODUCT.md §14): the
 * journey runs through the API with each statement recorded, then the database is asked how it
 * would run each one with sequential scans priced out of reach (`enable_seqscan = off`). A plan
 * that still reads a table whole has no index to use: as the tables grow, that statement would
 * grow with them. Plans, never times: it runs in `npm test`, on PGlite and on PostgreSQL.
 */

/** Tables read whole by design: the six categories, which come only from migrations. */
const readWholeByDesign = new Set(['request_categories']);

interface Recorded {
  query: string;
  params: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

let api: TestApi;
const recorded: Recorded[] = [];

/** Runs a call of the journey, recording every statement it sends. */
async function record(method: string, path: string, token?: string, body?: unknown) {
  const statementLog: Recorded[] = [];
  const response = await withRequestContext(
    { requestId: `query-plans-${recorded.length}`, databaseStatements: 0, statementLog },
    () => api.call(method, path, { token, body }),
  );
  recorded.push(...statementLog);
  return response;
}

/** A connection to ask on: PGlite itself, or one of PostgreSQL's pool, for a setting to hold. */
interface QueryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

async function onOneConnection(work: (connection: QueryClient) => Promise<void>) {
  const client = (api.db as unknown as { $client: QueryClient & { connect?: unknown } }).$client;
  if (typeof client.connect !== 'function') {
    await work(client);
    return;
  }
  const pool = client as unknown as {
    connect(): Promise<QueryClient & { release(): void }>;
  };
  const connection = await pool.connect();
  try {
    await work(connection);
  } finally {
    connection.release();
  }
}

/**
 * The tables a plan reads whole: by a sequential scan, or by walking a whole index with no
 * condition on it (which a planner told not to scan picks instead, and which costs the same).
 */
function tablesReadWhole(node: PlanNode): string[] {
  const type = node['Node Type'];
  const whole =
    type === 'Seq Scan' ||
    ((type === 'Index Scan' || type === 'Index Only Scan') && node['Index Cond'] === undefined);
  const own = whole && node['Relation Name'] !== undefined ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(tablesReadWhole)];
}

beforeAll(async () => {
  api = await startTestApi();
  const member = await api.createUser({ name: 'Avery Quinn' });
  // Someone else's data in every table, so that a missing condition would show in a plan too.
  const other = await api.createUser();
  await api.signInToken(other);
  // Signing in is part of the journey too.
  const signedIn = await record('POST', '/api/v1/users/sign_in', undefined, {
    user: { email: member.email, password: member.password },
  });
  const token = /^Bearer (.+)$/.exec(signedIn.headers.get('Authorization') ?? '')?.[1] ?? '';
  if (!token) throw new Error(`Signing in answered ${signedIn.status}`);

  const start = api.clock.now().getTime();
  const ids: string[] = [];
  for (let index = 0; index < 25; index += 1) {
    const at = new Date(start - (200 - index) * MINUTE);
    ids.push(
      await storeRequest(api, member.user.id, {
        categoryId: index % 2 ? 'travel' : 'home-and-moving',
        status: index % 5 === 0 ? 'completed' : 'in_progress',
        createdAt: at,
      }),
    );
    await storeRequest(api, other.user.id, { createdAt: at });
  }
  // The second is open (every fifth is completed): notes go on it.
  const [, firstId = ''] = ids;
  await addConciergeUpdate(api, firstId, { body: 'On it.' });
  const fileId = await uploadFile(api, token);

  // The journey: what the portal's pages and forms ask of the API.
  const first = (await (await record('GET', '/api/v1/requests', token)).json()) as {
    meta: { next_cursor: string };
  };
  const second = (await (
    await record('GET', `/api/v1/requests?after=${first.meta.next_cursor}`, token)
  ).json()) as { meta: { previous_cursor: string } };
  const reads = [
    '/api/v1/users/current',
    '/api/v1/dashboard',
    '/api/v1/requests?status=open',
    '/api/v1/requests?status=closed&page=2',
    `/api/v1/requests?before=${second.meta.previous_cursor}`,
    `/api/v1/requests/${firstId}`,
    '/api/v1/request_categories',
    '/api/v1/request_categories/travel',
    `/api/v1/request_categories/travel?after=${first.meta.next_cursor}`,
    '/api/v1/users/sessions',
    '/api/v1/users/remembered-devices',
    '/api/v1/users/events',
    '/api/v1/mfa',
    '/api/v1/mfa/passkeys',
    '/api/v1/users/current/export',
  ];
  for (const path of reads) {
    const response = await record('GET', path, token);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  }
  const batch = await record('POST', '/api/v1/batch', token, {
    requests: ['/api/v1/users/current', '/api/v1/dashboard'].map((path) => ({
      method: 'GET',
      path,
    })),
  });
  expect(batch.status).toBe(200);
  const made = await record('POST', '/api/v1/requests', token, {
    request: { category_id: 'travel', title: 'Train to Boston', attachment_ids: [fileId] },
  });
  expect(made.status).toBe(201);
  const note = await record('POST', `/api/v1/requests/${firstId}/notes`, token, {
    note: { body: 'Thank you!' },
  });
  expect(note.status).toBe(201);
  const signedOut = await record('DELETE', '/api/v1/users/sign_out', token);
  expect(signedOut.status).toBeLessThan(300);
}, 120_000);

afterAll(async () => {
  await api.close();
});

describe("a member's statements", () => {
  it('were recorded from the whole journey', () => {
    expect(recorded.length).toBeGreaterThan(40);
  });

  it('are each served by an index, never by reading a member table whole', async () => {
    const unique = [...new Map(recorded.map((entry) => [entry.query, entry])).values()];
    // What reads a table: not BEGIN and COMMIT, nor an INSERT of values.
    const reading = unique.filter(
      ({ query }) =>
        /^\s*(select|update|delete|with)\b/i.test(query) ||
        /^\s*insert\b[\s\S]*\bselect\b/i.test(query),
    );
    const scans: string[] = [];
    await onOneConnection(async (connection) => {
      await connection.query('set enable_seqscan = off');
      for (const { query, params } of reading) {
        const { rows } = await connection.query(`explain (format json) ${query}`, params);
        const [plan] = rows[0]?.['QUERY PLAN'] as [{ Plan: PlanNode }];
        for (const table of tablesReadWhole(plan.Plan)) {
          if (!readWholeByDesign.has(table)) scans.push(`${table}: ${query}`);
        }
      }
      await connection.query('reset enable_seqscan');
    });
    expect(reading.length).toBeGreaterThan(20);
    expect(scans).toEqual([]);
  });
});
