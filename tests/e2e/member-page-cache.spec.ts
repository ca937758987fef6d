import { expect, test } from '@playwright/test';
import { HttpVisitor, newSignedInMember, signedInVisitor } from './support/http-visitor';
import { member, signIn } from './support/journeys';
import type { PortalServer } from './support/portal-server';
import { queryDatabase } from './support/postgres';
import {
  startStatementCountingPortal,
  statementsOf,
  type StatementCountingPortal,
} from './support/statement-counting-portal';

/**
 * A member's page is kept and sent again while nothing it shows has changed (docs/PRODUCT.md
 * §14): the second view of an unchanged page costs the session check alone, and any write to the
 * member's data, whoever makes it, shows on the next view. On PostgreSQL, with the production
 * server, whose log counts each request's statements.
 */

let portal: StatementCountingPortal;
let server: PortalServer;
let visitor: HttpVisitor;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  portal = await startStatementCountingPortal('kept_pages');
  server = portal.server;
  visitor = await signedInVisitor(server.baseURL, member);
});

test.afterAll(() => portal.stop());

/**
 * Views `path` as a browser that takes brotli (`as`, on `as`'s server, by default the portal's):
 * the page, its coding, and its statements.
 */
async function view(path: string, as = visitor, on = server) {
  const response = await as.send(path, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(response.status, `GET ${path}`).toBe(200);
  return {
    html: await response.text(),
    coding: response.headers.get('content-encoding'),
    policy: response.headers.get('content-security-policy'),
    statements: await statementsOf(on, response),
  };
}

async function demoMemberRequest(): Promise<{ id: string; title: string }> {
  const [request] = await queryDatabase<{ id: string; title: string }>(
    portal.databaseUrl,
    `SELECT requests.id, requests.title FROM requests JOIN users ON users.id = requests.user_id
      WHERE users.email = $1 AND requests.status IN ('submitted', 'in_progress')
      ORDER BY requests.updated_at DESC LIMIT 1`,
    [member.email],
  );
  if (!request) throw new Error('The demo member has no open request');
  return request;
}

/** A concierge's note, written straight into the database as the concierges' own tools would. */
async function addConciergeNote(requestId: string, body: string): Promise<void> {
  await queryDatabase(
    portal.databaseUrl,
    `WITH note AS (
       INSERT INTO request_updates (request_id, kind, author, body)
       VALUES ($1, 'note', 'concierge', $2) RETURNING request_id
     )
     UPDATE requests SET updated_at = now() WHERE id IN (SELECT request_id FROM note)`,
    [requestId, body],
  );
}

test('a second view of an unchanged page is the same page, for the session check alone', async () => {
  const request = await demoMemberRequest();
  for (const path of [
    '/dashboard',
    '/requests?tab=Closed',
    `/requests/${request.id}`,
    '/requests/category/travel',
  ]) {
    const first = await view(path);
    const second = await view(path);
    expect(second.coding, path).toBe('br');
    expect(second.html, path).toBe(first.html);
    // The policy names the hashes of the page's inline scripts: the copy keeps its page's.
    expect(first.policy, path).toContain("'sha256-");
    expect(second.policy, path).toBe(first.policy);
    expect(second.statements, path).toBe(1);
  }
});

test('a concierge’s note shows on the member’s next view of the request and the Dashboard', async () => {
  const request = await demoMemberRequest();
  const path = `/requests/${request.id}`;
  await view(path);
  await view('/dashboard');
  expect((await view(path)).statements).toBe(1);

  await addConciergeNote(request.id, 'Your table for four is booked at eight.');

  const afterNote = await view(path);
  expect(afterNote.html).toContain('Your table for four is booked at eight.');
  expect(afterNote.statements).toBeGreaterThan(1);
  expect((await view('/dashboard')).html).toContain('Your concierge added a note');
});

test('a name changed anywhere shows in the header of every kept page', async () => {
  await view('/requests');
  await queryDatabase(portal.databaseUrl, `UPDATE users SET name = 'Averie' WHERE email = $1`, [
    member.email,
  ]);
  try {
    expect((await view('/requests')).html).toContain('Averie Jordan');
  } finally {
    await queryDatabase(portal.databaseUrl, `UPDATE users SET name = 'Avery' WHERE email = $1`, [
      member.email,
    ]);
  }
  expect((await view('/requests')).html).toContain('Avery Jordan');
});

test('another member never gets this member’s kept page, even with its form token', async () => {
  await view('/dashboard');
  const other = await newSignedInMember(server.baseURL);
  // The other member's session, with the demo member's XSRF cookie: a different page's key.
  other.cookies.set('XSRF-TOKEN', visitor.xsrfToken());

  const theirs = await view('/dashboard', other);

  expect(theirs.html).not.toContain(member.fullName);
  expect(theirs.html).not.toContain('Your concierge added a note');
});

test('a member asking for address after address, from many sessions, pushes out only their own kept pages', async () => {
  // A server that keeps one mebibyte of pages: about seventy Dashboards.
  const small = await startStatementCountingPortal('kept_pages_small', {
    MEMBER_PAGE_CACHE_MB: '1',
  });
  try {
    const statementsThere = async (path: string, as: HttpVisitor) =>
      (await view(path, as, small.server)).statements;
    const keeper = await newSignedInMember(small.server.baseURL);
    await statementsThere('/dashboard', keeper);
    expect(await statementsThere('/dashboard', keeper)).toBe(1);

    // A query the page ignores makes a new address, and a new page to keep: twenty from each of
    // six sessions of one member. Sixteen kept a session would be ninety-six pages, past the room.
    for (let session = 0; session < 6; session += 1) {
      const sprayer = await signedInVisitor(small.server.baseURL, member);
      for (let address = 0; address < 20; address += 1) {
        await statementsThere(`/dashboard?session=${session}&view=${address}`, sprayer);
      }
      expect(await statementsThere(`/dashboard?session=${session}&view=19`, sprayer)).toBe(1);
      // The member's sixteen pages are their latest: this session's first went for its last.
      expect(
        await statementsThere(`/dashboard?session=${session}&view=0`, sprayer),
      ).toBeGreaterThan(1);
    }

    expect(await statementsThere('/dashboard', keeper)).toBe(1);
  } finally {
    await small.stop();
  }
});

test('a signed-out session’s kept pages are gone with it: its cookie leads to sign-in', async () => {
  const leaving = await signedInVisitor(server.baseURL, member);
  await view('/dashboard', leaving);
  expect((await view('/dashboard', leaving)).statements).toBe(1);
  const stolenCookies = new Map(leaving.cookies);

  const signedOut = await leaving.postForm('/dashboard?_action=auth.signOut', {});
  expect(signedOut.status).toBe(303);

  const replay = await new HttpVisitor(server.baseURL, stolenCookies).send('/dashboard', {
    headers: { 'accept-encoding': 'br, gzip' },
  });
  expect(replay.status).toBe(302);
  expect(replay.headers.get('location')).toMatch(/^\/sign-in/);
});

test('in a browser, a member reloading a request sees the concierge’s new note', async ({
  page,
}) => {
  const request = await demoMemberRequest();
  await page.goto(`${server.baseURL}/sign-in`);
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: /Welcome back/ })).toBeVisible();
  await page.goto(`${server.baseURL}/requests/${request.id}`);
  await expect(page.getByRole('heading', { level: 1, name: request.title })).toBeVisible();
  const refusedByPolicy: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) refusedByPolicy.push(message.text());
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: request.title })).toBeVisible();
  // The kept copy's islands come to life as the page's did: its policy lets their scripts run.
  await expect(page.locator('astro-island:not([ssr])').first()).toBeAttached();
  expect(refusedByPolicy).toEqual([]);

  await addConciergeNote(request.id, 'The florist delivers on Friday.');
  await page.reload();

  await expect(page.getByText('The florist delivers on Friday.')).toBeVisible();
});
