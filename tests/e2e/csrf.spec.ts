import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { newPerson } from './support/accounts';
import { anonymousVisitor, newSignedInMember, type HttpVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Cross-site request forgery against every action of the backend-for-frontend
 * (docs/PRODUCT.md §11.1), over plain HTTP: each forged call is refused with 403 before the
 * action runs, and nothing it would have changed has changed.
 */

// A server of this file's own: its sign-ups are nobody else's (the shared server's sign-up limit
// per address is for the journeys), and the tests here run one after another on it.
test.describe.configure({ mode: 'default' });
let portal: PortalServer;
test.beforeAll(async () => {
  portal = await startPortalServer();
});
test.afterAll(async () => {
  await portal.stop();
});

interface ActionUnderAttack {
  /** Who the victim is: a member signed in, or a visitor before sign-in (login CSRF and the like). */
  readonly victim: 'member' | 'visitor';
  /** The page whose form posts it (JavaScript off). */
  readonly page: string;
  /** A form that would change something if the call got through. */
  readonly fields: Record<string, string>;
}

const person = newPerson('Mallory');
const aToken = 'a'.repeat(43);

/** Every action src/actions/index.ts exports, by its name. */
const actions: Record<string, ActionUnderAttack> = {
  'auth.signIn': { victim: 'visitor', page: '/sign-in', fields: { ...member } },
  'auth.signUp': {
    victim: 'visitor',
    page: '/sign-up',
    fields: {
      name: person.firstName,
      last_name: person.lastName,
      email: person.email,
      password: person.password,
      terms_of_service: 'accepted',
    },
  },
  'auth.requestPasswordReset': {
    victim: 'visitor',
    page: '/forgot-password',
    fields: { email: member.email },
  },
  'auth.resetPassword': {
    victim: 'visitor',
    page: `/reset-password/${aToken}`,
    fields: { token: aToken, password: 'chosen by the attacker', password_confirmation: 'x' },
  },
  'auth.unlockAccount': { victim: 'visitor', page: `/unlock/${aToken}`, fields: { token: aToken } },
  'auth.requestUnlockLink': {
    victim: 'visitor',
    page: `/unlock/${aToken}`,
    fields: { email: member.email },
  },
  'auth.signOut': { victim: 'member', page: '/dashboard', fields: {} },
  'mfa.enroll': { victim: 'member', page: '/mfa-enrollment', fields: { phone: '(555) 010-0199' } },
  'mfa.requestCode': { victim: 'member', page: '/mfa-enrollment', fields: {} },
  'mfa.verify': { victim: 'member', page: '/mfa-enrollment', fields: { code: '123456' } },
  'mfa.skip': { victim: 'member', page: '/mfa-enrollment', fields: {} },
  'profile.saveInterests': {
    victim: 'member',
    page: '/welcome/about-you',
    fields: { help_topics: 'travel' },
  },
  'profile.saveContact': {
    victim: 'member',
    page: '/welcome/contact-info',
    fields: { phone_number: '(555) 010-0199', preferred_contact_method: 'call' },
  },
  'requests.create': {
    victim: 'member',
    page: '/dashboard',
    fields: { category_id: '1', title: 'Forged request', details: 'Sent from another site' },
  },
  'requests.addNote': {
    victim: 'member',
    page: '/requests/1',
    fields: { request_id: '1', note: 'Forged note' },
  },
  'requests.cancel': { victim: 'member', page: '/requests/1', fields: { request_id: '1' } },
  'uploads.createDirectUpload': {
    victim: 'member',
    page: '/dashboard',
    fields: {
      filename: 'forged.pdf',
      content_type: 'application/pdf',
      byte_size: '1024',
      checksum: `${'A'.repeat(43)}=`,
    },
  },
};

/** How the call reaches the action: a native form post, or an island's call. */
type Transport = 'form' | 'island';

interface Forgery {
  /** The token the call submits (in the `_xsrf` field, or an island's X-XSRF-TOKEN header). */
  readonly token?: string | undefined;
  readonly headers?: Record<string, string>;
  /** Cookies planted in the victim's browser for the call. */
  readonly plantedCookies?: Record<string, string>;
}

interface Attack {
  readonly name: string;
  /**
   * Whom it is tried on (everyone unless set). A token planted with its copy is refused only where
   * a session signs it: before sign-in every visitor's token is signed alike, so planting one
   * there is the Origin and Sec-Fetch-Site checks' to stop (docs/DECISIONS.md).
   */
  readonly victims?: readonly ActionUnderAttack['victim'][];
  readonly forge: (victim: HttpVisitor, attacker: HttpVisitor) => Forgery;
}

const evilOrigin = 'https://evil.example';

const attacks: Attack[] = [
  { name: 'no token', forge: () => ({ token: undefined }) },
  { name: 'a wrong token', forge: () => ({ token: 'forged.token' }) },
  {
    name: "another session's token",
    forge: (_victim, attacker) => ({ token: attacker.xsrfToken() }),
  },
  {
    name: "another session's token, planted in the victim's cookie too",
    victims: ['member'],
    forge: (_victim, attacker) => ({
      token: attacker.xsrfToken(),
      plantedCookies: { 'XSRF-TOKEN': attacker.xsrfToken() },
    }),
  },
  {
    name: 'a cross-site Origin',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { origin: evilOrigin } }),
  },
  {
    name: 'an opaque (null) Origin',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { origin: 'null' } }),
  },
  {
    name: 'Sec-Fetch-Site: cross-site',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { 'sec-fetch-site': 'cross-site' } }),
  },
  {
    name: 'Sec-Fetch-Site: same-site',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { 'sec-fetch-site': 'same-site' } }),
  },
];

/** Sends `action` as `transport` with what the forgery chose, in the victim's name. */
function call(
  victim: HttpVisitor,
  name: string,
  transport: Transport,
  { token, headers = {}, plantedCookies = {} }: Forgery,
): Promise<Response> {
  const action = actions[name];
  if (!action) throw new Error(`No such action ${name}`);
  const common = {
    origin: victim.origin,
    'sec-fetch-site': 'same-origin',
    cookie: victim.cookieHeader(plantedCookies),
  };
  if (transport === 'form') {
    const fields = token === undefined ? action.fields : { ...action.fields, _xsrf: token };
    return victim.send(`${action.page}?_action=${name}`, {
      method: 'POST',
      headers: { ...common, ...headers },
      body: new URLSearchParams(fields),
    });
  }
  const form = new FormData();
  for (const [field, value] of Object.entries(action.fields)) form.append(field, value);
  return victim.send(`/_actions/${name}`, {
    method: 'POST',
    headers: { ...common, ...(token === undefined ? {} : { 'x-xsrf-token': token }), ...headers },
    body: form,
  });
}

/** The cookies of a session (or its MFA step) that an answer sets or removes. */
const sessionCookiesSetBy = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split('=', 1)[0] ?? '')
    .filter((name) => /(^|-)(session|mfa_token|mfa_step|onboarding)$/.test(name));

/** The links to the member's requests on their Requests page, open and closed. */
async function requestLinks(member: HttpVisitor): Promise<string[]> {
  const html = await (await member.send('/requests')).text();
  return [...html.matchAll(/href="(\/requests\/(?!category\/)[^"/?]+)"/g)].map(
    ([, link]) => link ?? '',
  );
}

test('the list of attacked actions is every action src/actions/index.ts exports', () => {
  const source = readFileSync('src/actions/index.ts', 'utf8');
  const server = /export const server = \{([\s\S]*?)\n\};/.exec(source)?.[1] ?? '';
  const exported = [...server.matchAll(/(\w+): \{([^}]*)\}/g)].flatMap(
    ([, group = '', names = '']) =>
      names
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .map((name) => `${group}.${name}`),
  );
  expect(exported.length).toBeGreaterThan(0);
  expect(Object.keys(actions).sort()).toEqual(exported.sort());
});

for (const transport of ['form', 'island'] as const) {
  test(`every action called as ${transport === 'form' ? 'a native form post' : "an island's call"} refuses each forgery and changes nothing`, async () => {
    const origin = portal.baseURL;
    const member = await newSignedInMember(origin);
    const otherMember = await newSignedInMember(origin);
    const visitor = await anonymousVisitor(origin);
    const otherVisitor = await anonymousVisitor(origin);
    const requestsBefore = await requestLinks(member);

    for (const [name, action] of Object.entries(actions)) {
      const [victim, attacker] =
        action.victim === 'member' ? [member, otherMember] : [visitor, otherVisitor];
      for (const attack of attacks) {
        if (attack.victims && !attack.victims.includes(action.victim)) continue;
        const response = await call(victim, name, transport, attack.forge(victim, attacker));
        const what = `${name} with ${attack.name}`;
        expect(response.status, what).toBe(403);
        expect(sessionCookiesSetBy(response), what).toEqual([]);
      }
    }

    // Nothing changed: the member is still signed in, has made no request, and the visitor has
    // no session.
    const dashboard = await member.send('/dashboard');
    expect(dashboard.status).toBe(200);
    expect(await requestLinks(member)).toEqual(requestsBefore);
    expect(visitor.cookies.has('session')).toBe(false);
  });
}

test('the same calls with the token, from the site itself, are not refused', async () => {
  const origin = portal.baseURL;
  const member = await newSignedInMember(origin);
  const visitor = await anonymousVisitor(origin);
  // Signing out last: it ends the session the others need.
  const names = Object.keys(actions).sort(
    (a, b) => Number(a === 'auth.signOut') - Number(b === 'auth.signOut'),
  );
  for (const name of names) {
    const victim = actions[name]?.victim === 'member' ? member : visitor;
    const response = await call(victim, name, 'island', { token: victim.xsrfToken() });
    expect(response.status, name).not.toBe(403);
  }
});

test('a sign-in posted from another site does not sign the visitor in (login CSRF)', async () => {
  const visitor = await anonymousVisitor(portal.baseURL);
  const response = await visitor.postForm(
    '/sign-in?_action=auth.signIn',
    { ...member },
    { origin: evilOrigin, 'sec-fetch-site': 'cross-site' },
  );
  expect(response.status).toBe(403);
  expect(visitor.cookies.has('session')).toBe(false);
  expect((await visitor.send('/dashboard')).headers.get('location')).toBe('/sign-in');
});
