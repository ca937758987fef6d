import { expect, test } from '@playwright/test';
import { HttpVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { createTestDatabase, requireTestPostgres, type TestDatabase } from './support/postgres';

/**
 * A signed-in page costs a few SQL statements, however many API calls it makes
 * (docs/PRODUCT.md §14): one session check, the member loaded once, no count made twice. The
 * production server on PostgreSQL (the embedded API on DATABASE_URL) logs how many statements
 * each request sent; this counts them for every page a member sees, never times them.
 */

/** The most statements any signed-in page view may send (docs/PRODUCT.md §14). */
const STATEMENTS_PER_PAGE = 4;

let database: TestDatabase;
let server: PortalServer;
let visitor: HttpVisitor;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  requireTestPostgres();
  database = await createTestDatabase(process.env.TEST_DATABASE_URL ?? '', 'statements');
  server = await startPortalServer({ env: { DATABASE_URL: database.url, LOG_LEVEL: 'info' } });
  visitor = new HttpVisitor(server.baseURL);
  await visitor.send('/sign-in');
  const signedIn = await visitor.postForm('/sign-in?_action=auth.signIn', {
    email: member.email,
    password: member.password,
  });
  expect(signedIn.headers.get('location')).toBe('/dashboard');
});

test.afterAll(async () => {
  await server.stop();
  await database.drop();
});

interface RequestLine {
  requestId?: string;
  msg?: string;
  databaseStatements?: number;
}

/** Views `path` as the signed-in member; its HTML and how many statements the server sent. */
async function view(path: string): Promise<{ html: string; statements: number }> {
  const response = await visitor.send(path);
  expect(response.status, `GET ${path}`).toBe(200);
  const requestId = response.headers.get('x-request-id');
  // The line is written once the answer is done, a moment after the client has read it.
  const line = await expect
    .poll(() => requestLineOf(requestId), { message: `the log line of GET ${path}` })
    .toBeDefined()
    .then(() => requestLineOf(requestId));
  return { html: await response.text(), statements: line?.databaseStatements ?? 0 };
}

function requestLineOf(requestId: string | null): RequestLine | undefined {
  for (const text of server.output().split('\n')) {
    if (!text.startsWith('{')) continue;
    const line = JSON.parse(text) as RequestLine;
    if (line.msg === 'request' && line.requestId === requestId) return line;
  }
  return undefined;
}

/** The first link on the page whose address matches, e.g. a request of the list. */
function firstLink(html: string, pattern: RegExp): string {
  const found = pattern.exec(html)?.[0];
  if (!found) throw new Error(`No link matching ${pattern} on the page`);
  return found;
}

test('every signed-in page view sends at most four SQL statements', async () => {
  const dashboard = await view('/dashboard');
  const requests = await view('/requests');
  const pages: Array<[string, string]> = [
    ['Dashboard', '/dashboard'],
    ['Requests, open', '/requests'],
    ['Requests, closed', '/requests?tab=Closed'],
    ['Requests, open, page 2', '/requests?tab=Open&page=2'],
    ['Request with notes and files', firstLink(requests.html, /\/requests\/[0-9a-f-]{36}/)],
    ['Category', firstLink(dashboard.html, /\/requests\/category\/[a-z-]+/)],
    ['Account', '/account'],
    ['Sign-in and security', '/account/security'],
    ['Devices', '/account/devices'],
    ['Activity', '/account/activity'],
    ['Your data', '/account/data'],
    ['About us', '/welcome/about-us'],
    ['About you', '/welcome/about-you'],
    ['Contact info', '/welcome/contact-info'],
  ];
  const counted: Record<string, number> = {};
  for (const [name, path] of pages) counted[name] = (await view(path)).statements;
  test.info().annotations.push({ type: 'statements', description: JSON.stringify(counted) });
  for (const [name, statements] of Object.entries(counted)) {
    expect.soft(statements, name).toBeGreaterThan(0);
    expect.soft(statements, name).toBeLessThanOrEqual(STATEMENTS_PER_PAGE);
  }
});
