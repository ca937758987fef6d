import { randomInt, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SIGN_IN_PER_IP, windowStartFor } from '../../api/services/rate-limits.ts';
import { startApiServer, type ApiServer } from './support/api-server';
import { inBatches } from './support/forms';
import { HttpVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import {
  createTestDatabase,
  queryDatabase,
  type TestDatabase,
  requireTestPostgres,
} from './support/postgres';

/**
 * Growing past one machine (docs/OPERATIONS.md): two web servers on one PostgreSQL, as a load
 * balancer would use them, are one site. Each request of a visitor here goes to the server the
 * test picks, with the visitor's one cookie jar, as a browser's would behind a load balancer
 * without sticky sessions. Both topologies: web servers with the embedded API on DATABASE_URL,
 * and web servers calling two reference API servers (API_ORIGIN) on DATABASE_URL.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

/** An unknown email: spending the sign-in limit must not lock a real account. */
const nobody = { email: 'nobody@example.com', password: 'not-a-password' };

/** The key every server signs XSRF tokens with unless a test says otherwise (portal-server.ts). */
const anotherSessionSecret = 'a-different-session-secret-for-one-stray-server';

interface Site {
  /** The two web servers members are sent to, alternately or at random. */
  readonly web: readonly [PortalServer, PortalServer];
  /**
   * Starts one more web server on the same database (through the same API), with `env` on top
   * of the site's settings; stopped with the site.
   */
  addWebServer(env: Readonly<Record<string, string>>): Promise<PortalServer>;
  stop(): Promise<void>;
}

// The web servers stand behind one proxy (the load balancer, here the tests on loopback), which
// appends the visitor's address to X-Forwarded-For; tests write that address as the proxy would.
const behindLoadBalancer = { TRUSTED_PROXIES: 'loopback' };

const topologies: ReadonlyArray<{ name: string; start(databaseUrl: string): Promise<Site> }> = [
  {
    name: 'two web servers with the embedded API',
    async start(databaseUrl) {
      const extra: PortalServer[] = [];
      const start = (env: Readonly<Record<string, string>> = {}) =>
        startPortalServer({ env: { ...behindLoadBalancer, DATABASE_URL: databaseUrl, ...env } });
      // Together, as a fresh deployment starts: migrations and demo data take turns.
      const web = await Promise.all([start(), start()]);
      return {
        web: [web[0], web[1]],
        async addWebServer(env) {
          const server = await start(env);
          extra.push(server);
          return server;
        },
        stop: () => stopAll([...web, ...extra]),
      };
    },
  },
  {
    name: 'two web servers, each calling its own API server (API_ORIGIN)',
    async start(databaseUrl) {
      const apiEnv = {
        DATABASE_URL: databaseUrl,
        // The web server calling it (on loopback) is the one proxy in front of it.
        TRUSTED_PROXIES: 'loopback',
        STORAGE_SECRET: 'two-servers-spec-storage-secret-shared-by-both',
        LOG_LEVEL: 'warn',
      };
      const apis = await Promise.all([startApiServer(apiEnv), startApiServer(apiEnv)]);
      const extra: PortalServer[] = [];
      const start = (api: ApiServer, env: Readonly<Record<string, string>> = {}) =>
        startPortalServer({ env: { ...behindLoadBalancer, API_ORIGIN: api.origin, ...env } });
      let web: [PortalServer, PortalServer];
      try {
        web = await Promise.all([start(apis[0]), start(apis[1])]);
      } catch (error) {
        await stopAll(apis);
        throw error;
      }
      return {
        web,
        async addWebServer(env) {
          const server = await start(apis[0], env);
          extra.push(server);
          return server;
        },
        stop: () => stopAll([...web, ...extra, ...apis]),
      };
    },
  },
];

async function stopAll(servers: ReadonlyArray<{ stop(): Promise<void> }>): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}

/** The same browser (one cookie jar) as it reaches `server` through the load balancer. */
const through = (server: PortalServer, browser: HttpVisitor) =>
  new HttpVisitor(server.baseURL, browser.cookies);

/** A browser whose jar is a copy of `browser`'s now: what someone holding its cookies sends. */
const copyOf = (server: PortalServer, browser: HttpVisitor) =>
  new HttpVisitor(server.baseURL, new Map(browser.cookies));

/** Posts the sign-in form (after a look at the sign-in page, for its XSRF token); its status. */
async function postSignIn(
  visitor: HttpVisitor,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<number> {
  if (visitor.xsrfToken() === '') await visitor.send('/sign-in');
  const response = await visitor.postForm('/sign-in?_action=auth.signIn', credentials, headers);
  return response.status;
}

/** The member's Dashboard as `visitor` sees it: 200 with the greeting, or where it is sent. */
async function dashboardOf(visitor: HttpVisitor): Promise<string> {
  const response = await visitor.send('/dashboard');
  if (response.status !== 200) {
    return `${response.status} → ${response.headers.get('location') ?? '(nowhere)'}`;
  }
  const greeted = (await response.text()).includes(
    `Welcome back, ${member.fullName.split(' ')[0]}`,
  );
  return greeted ? 'greeted' : '200 without the greeting';
}

test.describe('two servers on one PostgreSQL', () => {
  test.beforeAll(requireTestPostgres);
  test.describe.configure({ mode: 'default', timeout: 120_000 });

  for (const topology of topologies) {
    test.describe(topology.name, () => {
      let database: TestDatabase;
      let site: Site;

      // One site for the topology's tests, which run in order: each signs in members of its own
      // sessions and spends the limits of an address of its own, so none needs a fresh site.
      test.beforeAll(async () => {
        database = await createTestDatabase(serverUrl ?? '', 'e2e_two_servers');
        site = await topology.start(database.url);
      });

      test.afterAll(async () => {
        await site.stop();
        await database.drop();
      });

      test('a session started on one server is valid on the other', async () => {
        const [first, second] = site.web;
        const browser = new HttpVisitor(first.baseURL);
        await browser.send('/sign-in');

        // The sign-in page came from the first server, the form goes to the second.
        expect(await postSignIn(through(second, browser), member)).toBe(303);

        expect(await dashboardOf(through(first, browser))).toBe('greeted');
        expect(await dashboardOf(through(second, browser))).toBe('greeted');
        expect(await dashboardOf(new HttpVisitor(first.baseURL))).toBe('302 → /sign-in');
      });

      test('an XSRF token issued by one server is accepted by the other, given the same SESSION_SECRET', async () => {
        const [first, second] = site.web;
        const browser = new HttpVisitor(first.baseURL);
        expect(await postSignIn(browser, member)).toBe(303);
        const title = `Two servers ${randomUUID().slice(0, 8)}`;

        // Without JavaScript: the form post with the `_xsrf` field the first server issued.
        const posted = await through(second, browser).postForm(
          '/dashboard?_action=requests.create',
          { category_id: 'travel', title, details: '' },
        );
        expect(posted.status).toBe(303);
        const requestPage = posted.headers.get('location') ?? '';
        expect(requestPage).toMatch(/^\/requests\/[^/]+$/);

        // With JavaScript: the island's action call with the X-XSRF-TOKEN header.
        const called = await through(second, browser).send('/_actions/requests.create', {
          method: 'POST',
          headers: {
            origin: second.baseURL,
            'sec-fetch-site': 'same-origin',
            'x-xsrf-token': browser.xsrfToken(),
          },
          body: formData({ category_id: 'travel', title, details: '' }),
        });
        expect(called.status).toBe(200);

        const shown = await through(first, browser).send(requestPage);
        expect(shown.status).toBe(200);
        expect(await shown.text()).toContain(title);
        const rows = await queryDatabase<{ count: string }>(
          database.url,
          'SELECT count(*) FROM requests WHERE title = $1',
          [title],
        );
        expect(rows[0]?.count).toBe('2');

        // A server signing with another key knows the session, but not the token.
        const stray = await site.addWebServer({ SESSION_SECRET: anotherSessionSecret });
        expect(await dashboardOf(copyOf(stray, browser))).toBe('greeted');
        const refused = await copyOf(stray, browser).postForm(
          '/dashboard?_action=requests.create',
          {
            category_id: 'travel',
            title: `${title} (stray)`,
            details: '',
          },
        );
        expect(refused.status).toBe(403);
      });

      test('the sign-in limit per address counts the attempts made to both servers', async () => {
        const [first, second] = site.web;
        // The limit's window is aligned to the clock; an attempt run across its end counts twice
        // from zero, so such a run is made again (a window lasts minutes, a run seconds).
        for (let run = 1; ; run += 1) {
          const address = `198.51.100.${randomInt(1, 255)}`;
          const browser = new HttpVisitor(first.baseURL);
          await browser.send('/sign-in');
          const attempt = (index: number) =>
            postSignIn(through(index % 2 === 0 ? first : second, browser), nobody, {
              'x-forwarded-for': address,
            });

          const windowAtStart = windowStartFor(new Date(), SIGN_IN_PER_IP.windowMs).getTime();
          const withinLimit = await inBatches(SIGN_IN_PER_IP.limit, 10, attempt);
          const beyondLimit = await Promise.all([attempt(0), attempt(1)]);
          const windowAtEnd = windowStartFor(new Date(), SIGN_IN_PER_IP.windowMs).getTime();
          if (windowAtEnd !== windowAtStart && run < 2) continue;

          // Each server saw half of the attempts: counted apart, neither would refuse any.
          expect(withinLimit.filter((status) => status === 401)).toHaveLength(SIGN_IN_PER_IP.limit);
          expect(beyondLimit).toEqual([429, 429]);
          return;
        }
      });

      test('signing out on one server ends the session on both', async () => {
        const [first, second] = site.web;
        const browser = new HttpVisitor(first.baseURL);
        expect(await postSignIn(browser, member)).toBe(303);
        // The browser forgets its cookies when it signs out; a copy taken before must stop working
        // too, on every server.
        const keptCookies = new HttpVisitor(first.baseURL, new Map(browser.cookies));
        expect(await dashboardOf(copyOf(second, keptCookies))).toBe('greeted');

        const signedOut = await through(second, browser).postForm(
          '/dashboard?_action=auth.signOut',
          {},
        );
        expect(signedOut.status).toBe(303);
        expect(signedOut.headers.get('location')).toBe('/signed-out');

        expect(await dashboardOf(copyOf(first, keptCookies))).toBe('302 → /sign-in');
        expect(await dashboardOf(copyOf(second, keptCookies))).toBe('302 → /sign-in');
      });

      test('a device signed out from Devices on one server is signed out on both', async () => {
        const [first, second] = site.web;
        const laptop = new HttpVisitor(first.baseURL);
        expect(await postSignIn(laptop, member)).toBe(303);
        const phone = new HttpVisitor(second.baseURL);
        expect(await postSignIn(phone, member)).toBe(303);
        expect(await dashboardOf(through(first, phone))).toBe('greeted');

        const ended = await through(second, laptop).postForm(
          '/account/devices?_action=account.endOtherSessions',
          {},
        );
        expect(ended.status).toBe(303);
        expect(ended.headers.get('location')).toBe('/account/devices');

        expect(await dashboardOf(through(first, phone))).toBe('302 → /sign-in');
        expect(await dashboardOf(through(second, laptop))).toBe('greeted');
      });
    });
  }
});

function formData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
