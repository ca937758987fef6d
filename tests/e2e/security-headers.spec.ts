import { expect, test, type APIResponse, type Browser, type Page } from '@playwright/test';
import { pageRoutes, type RouteName } from '../../src/routes';
import { recordCspViolations } from './support/csp-violations';
import { HttpVisitor, newSignedInMember } from './support/http-visitor';
import { member, signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * docs/PRODUCT.md §11.1 headers over plain HTTP: one strict Content-Security-Policy per answer,
 * reported violations, answers no cache keeps, sign-out that clears the browser, and the flags of
 * every cookie the product sets, over HTTP and HTTPS.
 */

// A server of this file's own: its sign-ups and logs are nobody else's (the shared server's
// sign-up limit per address is for the journeys), and the tests here run one after another on it.
test.describe.configure({ mode: 'default' });
let portal: PortalServer;
test.beforeAll(async () => {
  portal = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
});
test.afterAll(async () => {
  await portal.stop();
});

/** The directives of the one Content-Security-Policy header an answer carries. */
function onlyPolicyOf(response: APIResponse): Map<string, string> {
  const policies = response
    .headersArray()
    .filter(({ name }) => name.toLowerCase() === 'content-security-policy');
  expect(policies).toHaveLength(1);
  return new Map(
    (policies[0]?.value ?? '')
      .split(';')
      .map((directive) => directive.trim())
      .filter(Boolean)
      .map((directive) => {
        const [name = '', ...sources] = directive.split(/\s+/);
        return [name, sources.join(' ')];
      }),
  );
}

const everyPageRule = {
  'object-src': "'none'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
  'form-action': "'self'",
  'report-to': 'csp-endpoint',
  'report-uri': '/csp-reports',
};

test('every page has one Content-Security-Policy, with the hashes and every rule', async ({
  request,
}) => {
  const member = await newSignedInMember(portal.baseURL);
  const pages = [
    ['/sign-in', ''],
    ['/forgot-password', ''],
    ['/reset-password/some-token', ''],
    ['/no/such/page', ''],
    ['/dashboard', member.cookieHeader()],
    ['/requests', member.cookieHeader()],
  ];
  for (const [path = '', cookie = ''] of pages) {
    const response = await request.get(`${portal.baseURL}${path}`, {
      headers: { cookie },
      maxRedirects: 0,
    });
    expect(response.headers()['content-type'], path).toContain('text/html');
    const policy = onlyPolicyOf(response);
    expect(Object.fromEntries(policy), path).toMatchObject(everyPageRule);
    // Scripts and styles from the build's folder and the hashes alone, never from anywhere on
    // the site, where members' files are served too.
    const builtFiles = `${portal.baseURL}/_astro/`;
    expect(policy.get('script-src'), path).toMatch(
      new RegExp(`^${builtFiles}( 'sha256-[A-Za-z0-9+/=]+')+$`),
    );
    expect(policy.get('style-src'), path).toMatch(
      new RegExp(`^${builtFiles}( 'sha256-[A-Za-z0-9+/=]+')+$`),
    );
    expect(policy.get('default-src'), path).toBe("'self'");
    expect(response.headers()['reporting-endpoints'], path).toBe('csp-endpoint="/csp-reports"');
  }
});

test('a page the server writes by hand (a refused form) has a policy that allows nothing', async ({
  request,
}) => {
  const response = await request.post(`${portal.baseURL}/sign-in?_action=auth.signIn`, {
    headers: { origin: portal.baseURL },
    form: { email: 'member@example.com', password: 'portal-demo-2026' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  const policy = onlyPolicyOf(response);
  expect(Object.fromEntries(policy)).toMatchObject({ ...everyPageRule, 'default-src': "'none'" });
});

test('pages with member data and action answers are never stored by a cache', async () => {
  const member = await newSignedInMember(portal.baseURL);
  const answers = {
    dashboard: await member.send('/dashboard'),
    requests: await member.send('/requests'),
    'an action answer': await member.send('/_actions/profile.saveInterests', {
      method: 'POST',
      headers: { origin: member.origin, 'x-xsrf-token': member.xsrfToken() },
      body: new FormData(),
    }),
    'a refused action': await member.send('/_actions/profile.saveInterests', {
      method: 'POST',
      headers: { origin: member.origin },
      body: new FormData(),
    }),
    'a form post redirected': await member.postForm(
      '/welcome/about-you?_action=profile.saveInterests',
      {
        help_topics: 'travel',
      },
    ),
  };
  for (const [what, response] of Object.entries(answers)) {
    const directives = (response.headers.get('cache-control') ?? '').split(/,\s*/);
    expect(directives, what).toContain('no-store');
  }
});

test('signing out tells the browser to forget the site, with or without JavaScript', async () => {
  const origin = portal.baseURL;
  const withoutJavaScript = await newSignedInMember(origin);
  // A device remembered at the MFA step outlives the sign-out: its cookie alone stays.
  withoutJavaScript.cookies.set('remembered_device', 'a-device-token');
  withoutJavaScript.cookies.set('return_to', '/requests');
  const formPost = await withoutJavaScript.postForm('/dashboard?_action=auth.signOut', {});
  expect(formPost.status).toBe(303);
  expect(formPost.headers.get('clear-site-data')).toBe('"cache", "storage"');
  const cleared = formPost.headers
    .getSetCookie()
    .filter((line) => /Expires=Thu, 01 Jan 1970|Max-Age=0/i.test(line))
    .map((line) => line.split('=', 1)[0]);
  expect(cleared).toEqual(expect.arrayContaining(['session', 'return_to']));
  expect(cleared).not.toContain('remembered_device');
  expect(formPost.headers.get('location')).toBe('/signed-out');

  const withJavaScript = await newSignedInMember(origin);
  const islandCall = await withJavaScript.send('/_actions/auth.signOut', {
    method: 'POST',
    headers: { origin, 'x-xsrf-token': withJavaScript.xsrfToken() },
    body: new FormData(),
  });
  expect(islandCall.status).toBe(200);
  expect(islandCall.headers.get('clear-site-data')).toBe('"cache", "storage"');

  // The toast is left after the clearing, on the way to SignIn.
  const signedOut = await withJavaScript.send('/signed-out');
  expect(signedOut.headers.get('location')).toBe('/sign-in');
  expect(signedOut.headers.getSetCookie().some((line) => line.startsWith('flash='))).toBe(true);
  const signIn = await withJavaScript.send('/sign-in');
  expect(await signIn.text()).toContain('You have been signed out.');
});

test('no other answer asks the browser to clear the site', async () => {
  const member = await newSignedInMember(portal.baseURL);
  for (const path of ['/dashboard', '/sign-in', '/signed-out']) {
    expect((await member.send(path)).headers.get('clear-site-data'), path).toBeNull();
  }
});

test.describe('CSP violation reports', () => {
  /** The log lines of one request, by its id. */
  const logLinesOf = (requestId: string) =>
    portal
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['requestId'] === requestId);

  const post = (contentType: string, body: string) =>
    fetch(`${portal.baseURL}/csp-reports`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  test('a Reporting API batch is logged with the request id, without the token in the address, and answered 204', async () => {
    const response = await post(
      'application/reports+json',
      JSON.stringify([
        {
          type: 'csp-violation',
          url: `${portal.baseURL}/reset-password/secret-reset-token`,
          body: {
            documentURL: `${portal.baseURL}/reset-password/secret-reset-token`,
            blockedURL: 'https://evil.example/steal.js',
            effectiveDirective: 'script-src-elem',
            disposition: 'enforce',
          },
        },
      ]),
    );
    expect(response.status).toBe(204);
    expect(
      response.headers.getSetCookie().filter((line) => !line.startsWith('XSRF-TOKEN=')),
    ).toEqual([]);
    const requestId = response.headers.get('x-request-id') ?? '';
    await expect
      .poll(() =>
        logLinesOf(requestId).find((line) => line['msg'] === 'content security policy violation'),
      )
      .toMatchObject({
        level: 'warn',
        cspViolation: {
          documentPath: '/reset-password/[redacted]',
          blocked: 'https://evil.example/steal.js',
          directive: 'script-src-elem',
        },
      });
    expect(portal.output()).not.toContain('secret-reset-token');
  });

  test('a report in the older application/csp-report form is logged too, with no XSRF token', async () => {
    const response = await post(
      'application/csp-report',
      JSON.stringify({
        'csp-report': {
          'document-uri': `${portal.baseURL}/sign-in`,
          'blocked-uri': 'inline',
          'effective-directive': 'style-src-elem',
        },
      }),
    );
    expect(response.status).toBe(204);
    const requestId = response.headers.get('x-request-id') ?? '';
    await expect
      .poll(() =>
        logLinesOf(requestId).find((line) => line['msg'] === 'content security policy violation'),
      )
      .toMatchObject({ cspViolation: { documentPath: '/sign-in', blocked: 'inline' } });
  });

  test('a body larger than a batch of reports is refused, unread and unlogged', async () => {
    const response = await post(
      'application/csp-report',
      JSON.stringify({ 'csp-report': { 'blocked-uri': 'x'.repeat(70 * 1024) } }),
    );
    expect(response.status).toBe(413);
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(logLinesOf(requestId).filter((line) => 'cspViolation' in line)).toEqual([]);
  });

  test('an email confirmation link leaves its token in no log line: its visit, its post without JavaScript, a CSP report from its page', async ({
    browser,
  }) => {
    const confirmationToken = 'Logged_Confirmation-Token-0123456789abcdefghijk';
    const link = `${portal.baseURL}/confirm-email/${confirmationToken}`;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const visit = await page.goto(`${link}?from=email`);
    const [formPost] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: 'Confirm my email address' }).click(),
    ]);
    await expect(page.getByRole('alert', { name: 'There is a problem' })).toBeVisible();
    const visitId = visit?.headers()['x-request-id'] ?? '';
    const postId = formPost.headers()['x-request-id'] ?? '';
    await context.close();
    const report = await post(
      'application/csp-report',
      JSON.stringify({
        'csp-report': {
          'document-uri': `${link}?from=email`,
          referrer: link,
          'blocked-uri': link,
          'source-file': link,
          'effective-directive': 'img-src',
        },
      }),
    );
    expect(report.status).toBe(204);

    const requestLine = async (requestId: string) => {
      await expect
        .poll(() => logLinesOf(requestId).find((line) => line['msg'] === 'request'))
        .toBeDefined();
      return logLinesOf(requestId).find((line) => line['msg'] === 'request');
    };
    expect(await requestLine(visitId)).toMatchObject({
      method: 'GET',
      path: '/confirm-email/[redacted]',
    });
    expect(await requestLine(postId)).toMatchObject({
      method: 'POST',
      path: '/confirm-email/[redacted]',
    });
    const reportId = report.headers.get('x-request-id') ?? '';
    await requestLine(reportId);
    expect(logLinesOf(reportId).find((line) => 'cspViolation' in line)).toMatchObject({
      cspViolation: {
        documentPath: '/confirm-email/[redacted]',
        blocked: `${portal.baseURL}/confirm-email/[redacted]`,
        sourceFile: `${portal.baseURL}/confirm-email/[redacted]`,
      },
    });
    expect(portal.output()).not.toContain(confirmationToken);
  });

  test('a body that is not a report is refused and unlogged', async () => {
    const wrongType = await post('application/json', '{}');
    expect(wrongType.status).toBe(415);
    const notJson = await post('application/reports+json', 'not a report');
    expect(notJson.status).toBe(400);
  });
});

test.describe('CSP violations in the browser', () => {
  /** Who sees a page: nobody signed in, the demo member, or a member asked for a texted code. */
  type Visitor = 'signed out' | 'member' | 'member at the MFA step';

  interface PageVisit {
    readonly visitor: Visitor;
    /** Its address, or how to find one on the visitor's current page (a request's id). */
    readonly path: string | ((page: Page) => Promise<string>);
  }

  /** The first link on the page whose address matches, as a member would follow it. */
  const linkMatching = (pattern: RegExp) => async (page: Page) => {
    for (const href of await page
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))) {
      if (pattern.test(href)) return href;
    }
    throw new Error(`No link matching ${String(pattern)} on ${page.url()}`);
  };

  /**
   * Pages of src/routes.ts a person reads (not endpoints, redirects, development pages, or the
   * content editor, which this build has not: tests/e2e/content-editor.spec.ts).
   */
  const readablePages = pageRoutes
    .filter((route) => !('endpoint' in route) && !('redirectTo' in route))
    .filter(
      (route) =>
        route.guard !== 'kit-gallery' &&
        route.guard !== 'outbox-viewer' &&
        route.guard !== 'content-editor',
    )
    .map((route) => route.name);

  const visits: Partial<Record<RouteName | 'NotFound', PageVisit>> = {
    Root: { visitor: 'signed out', path: '/' },
    SignIn: { visitor: 'signed out', path: '/sign-in' },
    // Without a company sign-in under way; tests/e2e/company-sign-in.spec.ts visits them with one.
    CompanySignIn: { visitor: 'signed out', path: '/sign-in/company' },
    CompanySignInLink: { visitor: 'signed out', path: '/sign-in/company/link' },
    SignUp: { visitor: 'signed out', path: '/sign-up/acme' },
    ForgotPassword: { visitor: 'signed out', path: '/forgot-password' },
    ResetPassword: { visitor: 'signed out', path: `/reset-password/${'r'.repeat(43)}` },
    UnlockUser: { visitor: 'signed out', path: `/unlock/${'u'.repeat(43)}` },
    ConfirmEmail: { visitor: 'signed out', path: `/confirm-email/${'c'.repeat(43)}` },
    Terms: { visitor: 'signed out', path: '/terms' },
    NotFound: { visitor: 'signed out', path: '/no/such/page' },
    MfaEnrollment: { visitor: 'member at the MFA step', path: '/mfa-enrollment' },
    Dashboard: { visitor: 'member', path: '/dashboard' },
    AccountSecurity: { visitor: 'member', path: '/account/security' },
    AccountDevices: { visitor: 'member', path: '/account/devices' },
    AccountActivity: { visitor: 'member', path: '/account/activity' },
    Requests: { visitor: 'member', path: '/requests?tab=closed' },
    Request: { visitor: 'member', path: linkMatching(/^\/requests\/[0-9a-f-]{36}$/) },
    RequestCategory: { visitor: 'member', path: linkMatching(/^\/requests\/category\//) },
    AboutUs: { visitor: 'member', path: '/welcome/about-us' },
    AboutYou: { visitor: 'member', path: '/welcome/about-you' },
    ContactInfo: { visitor: 'member', path: '/welcome/contact-info' },
    Account: { visitor: 'member', path: '/account' },
    AccountData: { visitor: 'member', path: '/account/data' },
  };

  test('the visits below cover every page of src/routes.ts a person reads', () => {
    expect(readablePages.length).toBeGreaterThan(0);
    expect(readablePages.filter((name) => !(name in visits))).toEqual([]);
  });

  /** A browser of the visitor's, on a phone-sized screen (where the menu island hydrates too). */
  async function browse(browser: Browser, visitor: Visitor, javaScriptEnabled: boolean) {
    const context = await browser.newContext({
      baseURL: portal.baseURL,
      javaScriptEnabled,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const violations = await recordCspViolations(page);
    if (visitor !== 'signed out') {
      await page.goto('/sign-in');
      if (javaScriptEnabled) await waitForHydration(page);
      await signIn(
        page,
        visitor === 'member'
          ? member
          : { email: 'verified@example.com', password: member.password },
      );
      await expect(page).toHaveURL(visitor === 'member' ? /\/dashboard$/ : /\/mfa-enrollment$/);
    }
    return { context, page, violations };
  }

  for (const javaScriptEnabled of [true, false]) {
    test(`no page breaks a rule of its policy, signed in or out, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({
      browser,
    }) => {
      test.slow();
      const visitors: Visitor[] = ['signed out', 'member', 'member at the MFA step'];
      for (const visitor of visitors) {
        const { context, page, violations } = await browse(browser, visitor, javaScriptEnabled);
        for (const [name, visit] of Object.entries(visits)) {
          if (visit.visitor !== visitor) continue;
          const path = typeof visit.path === 'string' ? visit.path : await visit.path(page);
          const response = await page.goto(path);
          expect(response?.status(), `${name} (${path})`).toBeLessThan(
            name === 'NotFound' ? 500 : 400,
          );
          // Islands hydrate when the browser is idle; their scripts and styles count too.
          if (javaScriptEnabled) await page.waitForLoadState('networkidle');
        }
        await context.close();
        expect(violations, visitor).toEqual([]);
      }
    });
  }

  test('the browser test above would see a refused inline style', async ({ browser }) => {
    const { context, page, violations } = await browse(browser, 'signed out', true);
    await page.goto('/sign-in');
    await page.evaluate(() => {
      const template = document.createElement('template');
      template.innerHTML = '<p style="color: red">styled inline</p>';
      document.body.append(template.content);
    });
    await expect.poll(() => violations.join('\n')).toContain('style-src-attr refused inline');
    await context.close();
  });

  test('a script or stylesheet from anywhere on the site but the build’s folder is refused', async ({
    browser,
  }) => {
    const { context, page, violations } = await browse(browser, 'signed out', true);
    await page.goto('/sign-in');
    // Where members' files are served: whatever a file there claims to be, it never runs here.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.src = '/storage/files/a-members-file.js';
      const stylesheet = document.createElement('link');
      stylesheet.rel = 'stylesheet';
      stylesheet.href = '/storage/files/a-members-file.css';
      document.head.append(script, stylesheet);
    });
    await expect
      .poll(() => violations.join('\n'))
      .toContain('script-src-elem refused http://127.0.0.1');
    expect(violations.join('\n')).toContain('/storage/files/a-members-file.js');
    await expect.poll(() => violations.join('\n')).toContain('/storage/files/a-members-file.css');
    await context.close();
  });
});

/** One `Set-Cookie` line, read. */
interface SetCookie {
  readonly name: string;
  readonly removes: boolean;
  readonly attributes: ReadonlyMap<string, string>;
}

function readSetCookie(line: string): SetCookie {
  const [pair = '', ...rest] = line.split(';');
  const name = pair.slice(0, pair.indexOf('=')).trim();
  const attributes = new Map(
    rest.map((attribute) => {
      const [key = '', value = ''] = attribute.split('=');
      return [key.trim().toLowerCase(), value.trim()];
    }),
  );
  const removes =
    attributes.get('max-age') === '0' ||
    new Date(attributes.get('expires') ?? '9999-01-01').getTime() < Date.now();
  return { name, removes, attributes };
}

/**
 * Signs up, leaves, signs in with a phone and enters its code, collecting every cookie the server
 * sets on the way: every cookie the product has.
 */
async function cookiesOfEveryJourney(portal: PortalServer): Promise<SetCookie[]> {
  const seen: SetCookie[] = [];
  const visitor = new HttpVisitor(portal.baseURL);
  const record = async (response: Promise<Response>) => {
    const answer = await response;
    seen.push(...answer.headers.getSetCookie().map(readSetCookie));
    return answer;
  };
  await record(visitor.send('/dashboard')); // return_to, XSRF-TOKEN
  const email = `cookie-${Date.now()}@example.com`;
  await record(
    visitor.postForm('/sign-up?_action=auth.signUp', {
      name: 'Cookie',
      last_name: 'Jar',
      email,
      password: 'a long enough passphrase',
      terms_of_service: 'accepted',
    }),
  ); // session, mfa_step, onboarding
  await record(visitor.postForm('/mfa-enrollment?_action=mfa.skip', {}));
  await record(visitor.postForm('/dashboard?_action=auth.signOut', {}));
  await record(visitor.send('/signed-out')); // flash
  await record(visitor.send('/sign-in'));
  await record(
    visitor.postForm('/sign-in?_action=auth.signIn', {
      email: 'verified@example.com',
      password: 'portal-demo-2026',
    }),
  );
  await record(visitor.send('/mfa-enrollment'));
  await record(visitor.postForm('/mfa-enrollment?_action=mfa.requestCode', {}));
  const textedCode = async () =>
    /Text message to[\s\S]*?\b(\d{6})\b/.exec(
      await (await visitor.send('/dev/outbox')).text(),
    )?.[1];
  await expect.poll(textedCode).toBeTruthy();
  const code = await textedCode();
  const verified = await record(
    visitor.postForm('/mfa-enrollment?_action=mfa.verify', { code: code ?? '' }),
  ); // mfa_token
  expect(verified.status).toBe(303);
  return seen;
}

for (const scheme of ['http', 'https'] as const) {
  test(`every cookie the product sets has the flags it must have, over ${scheme.toUpperCase()}`, async () => {
    test.slow();
    // Over HTTPS a proxy in front would end TLS: that server is reached over plain HTTP here.
    const server =
      scheme === 'https'
        ? await startPortalServer({
            env: {
              OUTBOX_VIEWER: 'true',
              SEED_DEMO_DATA: 'true',
              PUBLIC_ORIGIN: 'https://portal.example.com',
            },
          })
        : portal;
    try {
      const overHttps = scheme === 'https';
      const prefix = overHttps ? '__Host-' : '';
      const cookies = await cookiesOfEveryJourney(server);

      const names = new Set(cookies.map(({ name }) => name));
      const expected = ['session', 'mfa_token', 'mfa_step', 'return_to', 'flash', 'onboarding'];
      expect([...names].sort()).toEqual(
        [...expected.map((name) => `${prefix}${name}`), 'XSRF-TOKEN'].sort(),
      );

      for (const { name, removes, attributes } of cookies) {
        const what = `${name}${removes ? ' (removed)' : ''}`;
        expect(attributes.get('path'), what).toBe('/');
        expect(attributes.has('domain'), what).toBe(false);
        expect(attributes.get('samesite'), what).toBe('Lax');
        expect(attributes.has('secure'), what).toBe(overHttps);
        expect(attributes.has('httponly'), what).toBe(name !== 'XSRF-TOKEN');
        if (removes) continue;
        const base = name.replace(/^__Host-/, '');
        const maxAge = attributes.get('max-age');
        if (base === 'session' || base === 'mfa_token' || base === 'mfa_step') {
          // As long as the token: at most the API's absolute lifetime of 24 hours.
          expect(Number(maxAge), what).toBeGreaterThan(0);
          expect(Number(maxAge), what).toBeLessThanOrEqual(24 * 60 * 60);
        } else if (base === 'flash') {
          expect(maxAge, what).toBe('60');
        } else {
          // return_to, onboarding, XSRF-TOKEN: gone with the browser session.
          expect(maxAge, what).toBeUndefined();
          expect(attributes.has('expires'), what).toBe(false);
        }
      }

      const page = await fetch(`${server.baseURL}/sign-in`);
      expect(page.headers.get('strict-transport-security')).toBe(
        overHttps ? 'max-age=31536000; includeSubDomains' : null,
      );
    } finally {
      if (server !== portal) await server.stop();
    }
  });
}
