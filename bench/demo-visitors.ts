/**
 * The demo visitors the page weights are taken as (bench/page-weight.ts): the demo accounts signed
 * in each way a member signs in (password, authenticator app, passkey), and the real parameter
 * values of the pages (a request, a category, an emailed reset token).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { totpCodeAt, totpStep } from '../api/services/factors/totp.ts';
import { decodeActionData } from '../src/islands/island-actions.ts';
import { createSoftwareAuthenticator } from '../tests/support/software-authenticator.ts';
import { cookieHeaderOf, keepSetCookie, type CookieJar } from './cookie-jar.ts';
import { get, type DemoData, type Fetched, type Visitor } from './page-weight.ts';

/** The demo accounts of api/demo/seed.ts behind each signed-in visitor. */
const accountOf = {
  member: 'member@example.com',
  'MFA enrollment required': 'secure@example.com',
  'MFA verification pending': 'verified@example.com',
} as const;

/**
 * Only asks for a reset link, never uses it: an account no browser journey on a shared server
 * resets, so the per-account limit on reset links is never in anyone's way.
 */
const resetAccount = 'concierge@example.com';

/**
 * Signs in the demo visitors and finds real parameter values: a request and a category of the
 * demo member (from the Dashboard, as the member finds them), a reset token from an emailed link
 * (the server must serve the outbox viewer), an unlock token of a real one's shape (the page does
 * not look it up until its button is pressed, and a real one needs a locked account).
 */
/**
 * The demo member's request a request's pages are weighed and measured on: open, with notes from
 * both sides and a file (api/demo/seed.ts).
 */
const weighedRequestTitle = 'A pediatric dentist near home';

export async function prepareDemo(origin: string, password: string): Promise<DemoData> {
  const member = await signIn(origin, accountOf.member, password);
  const signedOut = await signIn(origin, accountOf.member, password);
  const cookies: Record<Visitor, string> = {
    'signed out': '',
    'signed out, toast after sign-out': await signOut(origin, signedOut),
    member: cookieHeaderOf(member),
    'MFA enrollment required': cookieHeaderOf(
      await signIn(origin, accountOf['MFA enrollment required'], password),
    ),
    'MFA verification pending': cookieHeaderOf(
      await signIn(origin, accountOf['MFA verification pending'], password),
    ),
    'MFA app code pending': cookieHeaderOf(await signInWithApp(origin)),
    'MFA passkey pending': cookieHeaderOf(await signInWithPasskey(origin)),
  };

  const dashboard = await get(`${origin}/dashboard`, cookies.member);
  const requestId = new RegExp(
    `href="/requests/([0-9a-f-]{36})"[^>]*>${weighedRequestTitle}<`,
  ).exec(dashboard.body)?.[1];
  if (!requestId) {
    throw new Error(
      `The Dashboard links to no request "${weighedRequestTitle}" of the demo member`,
    );
  }
  const categoryId = /href="\/requests\/category\/([^"/?]+)"/.exec(dashboard.body)?.[1];
  if (!categoryId) throw new Error('The Dashboard links to no request category');

  return {
    origin,
    cookies,
    parameters: {
      companySlug: 'acme',
      requestId,
      categoryId: decodeURIComponent(categoryId),
      resetToken: await emailedResetToken(origin),
      unlockToken: randomBytes(32).toString('base64url'),
      // The page is the same for any token until its button is pressed, as the unlock page's.
      confirmationToken: randomBytes(32).toString('base64url'),
    },
  };
}

function keepCookies(jar: CookieJar, fetched: { headers: Fetched['headers'] }): void {
  const lines = fetched.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(lines) ? lines : [lines]) keepSetCookie(jar, line);
}

const xsrfOf = (jar: CookieJar): string =>
  [...jar].find(([name]) => name.endsWith('XSRF-TOKEN'))?.[1] ?? '';

/** Posts a form as the browser does without JavaScript (the same origin, the XSRF field). */
function postForm(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
  extraHeaders: Record<string, string> = {},
): Promise<Fetched> {
  const body = new URLSearchParams({ _xsrf: xsrfOf(jar), ...fields }).toString();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          ...extraHeaders,
          origin: new URL(url).origin,
          cookie: cookieHeaderOf(jar),
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            wireBytes: 0,
            encoding: 'none',
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Signs in through the form as a browser without JavaScript does; answers the cookies it got. */
export async function signIn(
  origin: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<CookieJar> {
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-in`, '', headers));
  const answer = await postForm(
    `${origin}/sign-in?_action=auth.signIn`,
    jar,
    { email, password },
    headers,
  );
  keepCookies(jar, answer);
  if (![...jar.keys()].some((name) => /^(__Host-)?session$/.test(name))) {
    throw new Error(`Signing in as ${email} failed (${answer.status})`);
  }
  return jar;
}

/**
 * A new member who sets up an authenticator app (its first code computed from the key the page
 * shows, as the member's phone would), then signs in again elsewhere, up to the app's code.
 */
async function signInWithApp(origin: string): Promise<CookieJar> {
  const email = `bench-app-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough passphrase';
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-up`));
  const steps: [string, Record<string, string>][] = [
    [
      '/sign-up?_action=auth.signUp',
      { name: 'Bench', last_name: 'App', email, password, terms_of_service: 'accepted' },
    ],
    ['/mfa-enrollment?_action=mfa.skip', {}],
  ];
  for (const [path, fields] of steps) {
    const answer = await postForm(`${origin}${path}`, jar, fields);
    keepCookies(jar, answer);
    if (answer.status >= 400) throw new Error(`${path} failed (${answer.status})`);
  }
  const setup = await postFormForPage(
    `${origin}/account/security?_action=account.setUpApp`,
    jar,
    {},
  );
  const key = /[A-Z2-7]{4}(?: [A-Z2-7]{4}){7}/.exec(setup)?.[0];
  if (!key) throw new Error('Setting up an authenticator app showed no key');
  const code = totpCodeAt(decodeBase32IgnorePadding(key.replaceAll(' ', '')), totpStep(new Date()));
  const confirmed = await postFormForPage(
    `${origin}/account/security?_action=account.confirmApp`,
    jar,
    { code },
  );
  if (!confirmed.includes('Your recovery codes')) {
    throw new Error('The authenticator app was not set up with recovery codes');
  }
  return signIn(origin, email, password);
}

/**
 * A new member who adds a passkey, as a member does (the device is a software authenticator),
 * then signs in again with the password: the MFA step offers the passkey.
 */
async function signInWithPasskey(origin: string): Promise<CookieJar> {
  const email = `bench-passkey-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough passphrase';
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-up`));
  for (const [path, fields] of [
    [
      '/sign-up?_action=auth.signUp',
      { name: 'Bench', last_name: 'Passkey', email, password, terms_of_service: 'accepted' },
    ],
    ['/mfa-enrollment?_action=mfa.skip', {}],
  ] as const) {
    const answer = await postForm(`${origin}${path}`, jar, fields);
    keepCookies(jar, answer);
    if (answer.status >= 400) throw new Error(`${path} failed (${answer.status})`);
  }
  const { options } = (await islandCall(`${origin}/_actions/account.passkeyOptions/`, jar, {})) as {
    options: PublicKeyCredentialCreationOptionsJSON;
  };
  // Browsers refuse an IP address as a passkey's site: the portal serves a loopback as localhost.
  const passkeyOrigin = origin.replace('127.0.0.1', 'localhost');
  const credential = createSoftwareAuthenticator().register(options, passkeyOrigin);
  const added = (await islandCall(`${origin}/_actions/account.addPasskey/`, jar, {
    name: 'Bench device',
    credential: JSON.stringify(credential),
  })) as { recoveryCodes?: unknown };
  if (!Array.isArray(added.recoveryCodes)) {
    throw new Error('The passkey was not added with recovery codes');
  }
  return signIn(origin, email, password);
}

/** Calls an action as an island does (a passkey needs JavaScript), and reads its answer. */
async function islandCall(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
): Promise<unknown> {
  const answer = await postForm(url, jar, fields);
  keepCookies(jar, answer);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return decodeActionData(answer.body);
}

/** Posts a form whose answer is the page itself (no redirect), and keeps its cookies. */
async function postFormForPage(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
): Promise<string> {
  const answer = await postForm(url, jar, fields);
  keepCookies(jar, answer);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return answer.body;
}

/** Signs out with the portal's form; the cookies left: the toast waiting for the next page. */
async function signOut(origin: string, jar: CookieJar): Promise<string> {
  const answer = await postForm(`${origin}/dashboard?_action=auth.signOut`, jar, {});
  keepCookies(jar, answer);
  if ([...jar.keys()].some((name) => /^(__Host-)?session$/.test(name))) {
    throw new Error(`Signing out did not end the session (${answer.status})`);
  }
  // The answer clears the site's data, so the toast is set by the page it sends the browser to.
  const location = answer.headers.location;
  if (typeof location !== 'string') throw new Error(`Signing out went nowhere (${answer.status})`);
  const jarBeforeToast = jar.size;
  keepCookies(jar, await get(new URL(location, origin).href, cookieHeaderOf(jar)));
  if (jar.size === jarBeforeToast) {
    throw new Error(`Signing out left no toast for the next page (${location})`);
  }
  return cookieHeaderOf(jar);
}

/** Asks for a reset link and reads its token from the outbox viewer, as from an inbox. */
async function emailedResetToken(origin: string): Promise<string> {
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/forgot-password`));
  const asked = await postForm(`${origin}/forgot-password?_action=auth.requestPasswordReset`, jar, {
    email: resetAccount,
  });
  if (asked.status >= 400) throw new Error(`Asking for a reset link failed (${asked.status})`);
  const outbox = await get(`${origin}/dev/outbox`);
  if (outbox.status !== 200) {
    throw new Error(
      `No outbox viewer at ${origin}/dev/outbox (${outbox.status}): set OUTBOX_VIEWER`,
    );
  }
  const email = outbox.body
    .split('<article')
    .find((article) => article.includes(resetAccount) && article.includes('/reset-password/'));
  const token = email && /\/reset-password\/([\w-]+)/.exec(email)?.[1];
  if (!token) throw new Error(`The outbox holds no reset link for ${resetAccount}`);
  return token;
}
