import { expect, test } from '@playwright/test';
import { signedInVisitor, type HttpVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import type { PortalServer } from './support/portal-server';
import {
  startStatementCountingPortal,
  statementsOf,
  type StatementCountingPortal,
} from './support/statement-counting-portal';

/**
 * A signed-in page costs a few SQL statements, however many API calls it makes
 * (docs/PRODUCT.md §14): one session check, the member loaded once, no count made twice. The
 * production server on PostgreSQL (the embedded API on DATABASE_URL) logs how many statements
 * each request sent; this counts them for every page a member sees, never times them.
 */

/** The most statements any signed-in page view may send (docs/PRODUCT.md §14). */
const STATEMENTS_PER_PAGE = 4;

let portal: StatementCountingPortal;
let server: PortalServer;
let visitor: HttpVisitor;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  portal = await startStatementCountingPortal('statements');
  server = portal.server;
  visitor = await signedInVisitor(server.baseURL, member);
});

test.afterAll(() => portal.stop());

/**
 * Views `path` as the signed-in member; its HTML and how many statements the server sent. As a
 * browser that takes gzip alone, so every view is rendered, never a kept copy sent again
 * (tests/e2e/member-page-cache.spec.ts counts those).
 */
async function view(path: string): Promise<{ html: string; statements: number }> {
  const response = await visitor.send(path, { headers: { 'accept-encoding': 'gzip' } });
  expect(response.status, `GET ${path}`).toBe(200);
  const statements = await statementsOf(server, response);
  return { html: await response.text(), statements };
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
