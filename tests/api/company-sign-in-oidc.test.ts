import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents, sessions, users } from '../../api/db/schema/index.ts';
import {
  endMemberSessions,
  setPolicy,
} from '../../api/services/company-sign-in/connection-admin.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import {
  startOidcIdentityProvider,
  type OidcIdentityProvider,
} from '../../scripts/identity-providers/oidc-identity-provider.ts';
import {
  callbackQueryAfterSignIn,
  companyWithOidc,
  finishOidc,
  OIDC_REDIRECT_URI,
  PORTAL_CLIENT,
  sessionTokenOf,
  startCompanySignIn,
} from './company-sign-in-support.ts';
import { randomClientAddress, startTestApi, TEST_PASSWORD, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in with OpenID Connect, against a real provider on loopback.

let api: TestApi;
let acmeIdp: OidcIdentityProvider;
let globexIdp: OidcIdentityProvider;

const ada = {
  email: 'ada@acme.test',
  password: 'ada-at-the-provider',
  subject: 'acme-0001',
  givenName: 'Ada',
  familyName: 'Lovelace',
};

beforeAll(async () => {
  api = await startTestApi();
  acmeIdp = await startOidcIdentityProvider({
    name: 'Acme sign-in',
    accounts: [ada],
    clients: [{ ...PORTAL_CLIENT, redirectUris: [OIDC_REDIRECT_URI] }],
  });
  globexIdp = await startOidcIdentityProvider({
    name: 'Globex sign-in',
    clients: [{ ...PORTAL_CLIENT, redirectUris: [OIDC_REDIRECT_URI] }],
  });
  await companyWithOidc(api, {
    slug: 'acme',
    name: 'Acme',
    issuer: acmeIdp.issuer,
    domains: ['acme.test', 'acme-labs.test'],
  });
  await companyWithOidc(api, {
    slug: 'globex',
    name: 'Globex',
    issuer: globexIdp.issuer,
    domains: ['globex.test'],
  });
});

afterAll(async () => {
  await api.close();
  await acmeIdp.stop();
  await globexIdp.stop();
});

/** A new person at a provider, with an address nobody has used here. */
function newPerson(
  idp: OidcIdentityProvider,
  domain: string,
  extra: { emailVerified?: boolean } = {},
) {
  const id = crypto.randomUUID().slice(0, 8);
  const person = {
    email: `person-${id}@${domain}`,
    password: `password-${id}`,
    subject: `subject-${id}`,
    givenName: 'Grace',
    familyName: 'Hopper',
    ...extra,
  };
  idp.addAccount(person);
  return person;
}

async function signInThroughProvider(
  person: { email: string; password: string },
  options: { secondStep?: boolean } = {},
): Promise<Response> {
  const started = await startCompanySignIn(api, { email: person.email });
  const query = await callbackQueryAfterSignIn(started, {
    email: person.email,
    password: person.password,
    ...(options.secondStep ? { second_step: 'on' } : {}),
  });
  return finishOidc(api, started.token, query);
}

async function memberByEmail(email: string) {
  const [user] = await api.db.select().from(users).where(eq(users.email, email));
  return user;
}

async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId));
  return rows.map((row) => row.kind);
}

describe('starting a company sign-in', () => {
  it('answers null for an address no company claims, so the password form goes on', async () => {
    const response = await api.call('POST', '/api/v1/company_sign_in/start', {
      body: { email: 'someone@example.com' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ company_sign_in: null });
  });

  it('sends an address of a claimed domain to its company’s provider, with PKCE, state and nonce', async () => {
    const started = await startCompanySignIn(api, { email: 'Someone@ACME-labs.test' });
    const url = new URL(started.redirectUrl);
    expect(url.origin).toBe(acmeIdp.issuer);
    expect(started.companyName).toBe('Acme');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(OIDC_REDIRECT_URI);
    expect(url.searchParams.get('login_hint')).toBe('someone@acme-labs.test');
  });

  it('starts by the company’s sign-up handle too', async () => {
    const started = await startCompanySignIn(api, { company_slug: 'GLOBEX' });
    expect(new URL(started.redirectUrl).origin).toBe(globexIdp.issuer);
    expect(new URL(started.redirectUrl).searchParams.has('login_hint')).toBe(false);
  });

  it('tells the portal where its sign-in stands while the browser is away', async () => {
    const started = await startCompanySignIn(api, { email: 'x@acme.test' });
    const response = await api.call('POST', '/api/v1/company_sign_in/current', {
      body: { token: started.token },
    });
    expect(await response.json()).toEqual({
      state: 'waiting',
      redirect_url: started.redirectUrl,
      company: { name: 'Acme' },
    });
    const unknown = await api.call('POST', '/api/v1/company_sign_in/current', {
      body: { token: 'x'.repeat(43) },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: ErrorMessage.companySignInExpired });
  });

  it('refuses a body that is neither an address nor a handle', async () => {
    for (const body of [
      {},
      { email: 'not an address' },
      { email: 'a@acme.test', company_slug: 'acme' },
    ]) {
      const response = await api.call('POST', '/api/v1/company_sign_in/start', { body });
      expect(response.status).toBe(400);
    }
  });
});

describe('signing in with the company’s provider', () => {
  it('creates the member on the first sign-in: in the company, named and proven by the provider', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    const response = await signInThroughProvider(person);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      created: true,
      mfa_required: false,
      mfa_requires_verification: true,
    });
    const user = await memberByEmail(person.email);
    expect(user).toMatchObject({ name: 'Grace', lastName: 'Hopper' });
    expect(user?.emailVerifiedAt).not.toBeNull();
    expect(user?.companyId).not.toBeNull();
    expect(await eventKinds(user?.id ?? 0)).toEqual(['company_sign_in']);
    const current = await api.getCurrentUser(sessionTokenOf(response));
    expect(current.status).toBe(200);
  });

  it('signs the same member in the second time, by the provider’s subject', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    await signInThroughProvider(person);
    const again = await signInThroughProvider(person);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: false });
    const matching = await api.db.select().from(users).where(eq(users.email, person.email));
    expect(matching).toHaveLength(1);
  });

  it('gives no password to a member it creates: the password form refuses them', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    await signInThroughProvider(person);
    const response = await api.signIn({ email: person.email, password: person.password });
    expect(response.status).toBe(401);
  });

  it('says with the member which company signs them in', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    const token = sessionTokenOf(await signInThroughProvider(person));
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({
      company: { name: 'Acme' },
      company_sign_in: true,
    });
    const other = await api.createUser({ companyName: 'Acme Rivals' });
    const otherUser = await api.getCurrentUser(await api.signInToken(other));
    expect(await otherUser.json()).toMatchObject({ company_sign_in: false });
  });

  it('refuses a sign-in the person cancelled at the provider', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    const started = await startCompanySignIn(api, { email: person.email });
    const query = new URLSearchParams({
      error: 'access_denied',
      state: new URL(started.redirectUrl).searchParams.get('state') ?? '',
      iss: acmeIdp.issuer,
    }).toString();
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: ErrorMessage.companySignInFailed });
    expect(await memberByEmail(person.email)).toBeUndefined();
  });

  it('refuses an address the provider has not verified', async () => {
    const person = newPerson(acmeIdp, 'acme.test', { emailVerified: false });
    const response = await signInThroughProvider(person);
    expect(response.status).toBe(403);
    expect(await memberByEmail(person.email)).toBeUndefined();
  });

  it('refuses an address in a domain the company does not claim: another company’s people stay theirs', async () => {
    // Acme's provider vouches for a Globex address: Acme cannot sign Globex's people in.
    const person = newPerson(acmeIdp, 'globex.test');
    const started = await startCompanySignIn(api, { company_slug: 'acme' });
    const query = await callbackQueryAfterSignIn(started, person);
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(403);
    expect(await memberByEmail(person.email)).toBeUndefined();
  });
});

describe('an answer is good once, in the browser that asked', () => {
  it('refuses the same answer handed on twice', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    const started = await startCompanySignIn(api, { email: person.email });
    const query = await callbackQueryAfterSignIn(started, person);
    expect((await finishOidc(api, started.token, query)).status).toBe(200);
    const replayed = await finishOidc(api, started.token, query);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({ error: ErrorMessage.companySignInExpired });
  });

  it('refuses an answer carried into another browser’s sign-in (its state is not theirs)', async () => {
    const victim = newPerson(acmeIdp, 'acme.test');
    const theirs = await startCompanySignIn(api, { email: victim.email });
    const query = await callbackQueryAfterSignIn(theirs, victim);
    const mine = await startCompanySignIn(api, { email: 'attacker@acme.test' });
    const response = await finishOidc(api, mine.token, query);
    expect(response.status).toBe(403);
    // The victim's own sign-in, tried later, then finds the code spent or the state used.
    expect(await memberByEmail(victim.email)).toBeUndefined();
  });

  it('refuses an answer without the browser’s token, or with a made-up one', async () => {
    for (const token of ['', 'x'.repeat(43), 'not a token']) {
      const response = await finishOidc(api, token, 'code=abc&state=def');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: ErrorMessage.companySignInExpired });
    }
  });

  it('refuses an answer after the ten minutes of the sign-in', async () => {
    const person = newPerson(acmeIdp, 'acme.test');
    const started = await startCompanySignIn(api, { email: person.email });
    const query = await callbackQueryAfterSignIn(started, person);
    api.clock.advanceBy(10 * 60_000 + 1);
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(400);
    expect(await memberByEmail(person.email)).toBeUndefined();
  });
});

describe('linking an existing member', () => {
  async function existingMemberAtAcme() {
    const person = newPerson(acmeIdp, 'acme.test');
    await api.createUser({ email: person.email });
    return person;
  }

  async function linkRequired(person: { email: string; password: string }) {
    const started = await startCompanySignIn(api, { email: person.email });
    const query = await callbackQueryAfterSignIn(started, person);
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      link_required: { email: person.email, company: { name: 'Acme' } },
    });
    return started.token;
  }

  const link = (token: string, password: string, clientAddress = randomClientAddress()) =>
    api.call('POST', '/api/v1/company_sign_in/link', {
      body: { token, user: { current_password: password } },
      clientAddress,
    });

  it('asks for the account’s password before linking, never linking by the address alone', async () => {
    const person = await existingMemberAtAcme();
    const token = await linkRequired(person);
    const user = await memberByEmail(person.email);
    const live = await api.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user?.id ?? 0), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(0);
    const current = await api.call('POST', '/api/v1/company_sign_in/current', { body: { token } });
    expect(await current.json()).toEqual({
      state: 'awaiting_link',
      email: person.email,
      company: { name: 'Acme' },
    });
  });

  it('refuses a wrong password and counts it as a failed sign-in', async () => {
    const person = await existingMemberAtAcme();
    const token = await linkRequired(person);
    const response = await link(token, 'not the password');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: ErrorMessage.wrongCurrentPassword,
      field: 'user.current_password',
    });
    expect((await memberByEmail(person.email))?.failedAttempts).toBe(1);
  });

  it('links with the right password and signs in; the next sign-in goes straight through', async () => {
    const person = await existingMemberAtAcme();
    const token = await linkRequired(person);
    const response = await link(token, TEST_PASSWORD);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ created: false });
    const user = await memberByEmail(person.email);
    expect(await eventKinds(user?.id ?? 0)).toEqual(['company_sign_in_linked', 'company_sign_in']);
    expect((await link(token, TEST_PASSWORD)).status).toBe(400);
    const again = await signInThroughProvider(person);
    expect(await again.json()).toMatchObject({ created: false });
  });

  it('keeps the member’s own password working when the company does not require its sign-in', async () => {
    const person = await existingMemberAtAcme();
    await link(await linkRequired(person), TEST_PASSWORD);
    expect((await api.signIn({ email: person.email, password: TEST_PASSWORD })).status).toBe(200);
  });
});

describe('the company’s policy', () => {
  let initech: OidcIdentityProvider;

  beforeAll(async () => {
    initech = await startOidcIdentityProvider({
      name: 'Initech sign-in',
      clients: [{ ...PORTAL_CLIENT, redirectUris: [OIDC_REDIRECT_URI] }],
    });
    await companyWithOidc(api, {
      slug: 'initech',
      name: 'Initech',
      issuer: initech.issuer,
      domains: ['initech.test'],
      policy: { signInRequired: true, trustedTwoStepValues: ['hwk'] },
    });
  });

  afterAll(async () => {
    await initech.stop();
  });

  it('refuses password sign-in, reset and sign-up for the addresses of a company that requires its sign-in', async () => {
    const { email } = await api.createUser({ email: 'staff@initech.test' });
    const signIn = await api.signIn({ email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toEqual({ error: ErrorMessage.companySignInRequired });
    const reset = await api.requestPasswordReset(email);
    expect(reset.status).toBe(403);
    expect(await reset.json()).toEqual({
      error: ErrorMessage.companySignInRequired,
      field: 'user.email',
    });
    expect(await api.mailTo(email)).toEqual([]);
    const signUp = await api.signUp({
      email: 'newcomer@initech.test',
      password: 'a long and unusual password 42',
      name: 'New',
      last_name: 'Comer',
    });
    expect(signUp.status).toBe(403);
    const bySlug = await api.signUp({
      email: 'newcomer@example.com',
      password: 'a long and unusual password 42',
      name: 'New',
      last_name: 'Comer',
      company_slug: 'initech',
    });
    expect(bySlug.status).toBe(403);
    expect(await bySlug.json()).toMatchObject({ field: 'user.company_slug' });
  });

  it('says so when the sign-up link is looked up', async () => {
    const response = await api.call('GET', '/api/v1/companies/initech');
    expect(await response.json()).toEqual({
      company: { slug: 'initech', name: 'Initech' },
      company_sign_in: { required: true },
    });
  });

  it('takes the provider’s second step for the portal’s when the company trusts it', async () => {
    const person = newPerson(initech, 'initech.test');
    const started = await startCompanySignIn(api, { email: person.email });
    const query = await callbackQueryAfterSignIn(started, { ...person, second_step: 'on' });
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(200);
    expect(response.headers.get('mfa-token')).toMatch(/^[\w-]{43}$/);
    expect(await response.json()).toMatchObject({
      mfa_required: false,
      mfa_requires_verification: false,
    });
  });

  it('asks for the portal’s own step when the provider did not take a trusted one', async () => {
    const person = newPerson(initech, 'initech.test');
    const started = await startCompanySignIn(api, { email: person.email });
    const query = await callbackQueryAfterSignIn(started, person);
    const response = await finishOidc(api, started.token, query);
    expect(response.status).toBe(200);
    expect(response.headers.get('mfa-token')).toBeNull();
    expect(await response.json()).toMatchObject({ mfa_requires_verification: true });
  });

  it('lets passwords in again once the company’s sign-in is turned off, and sends nobody there', async () => {
    const { email } = await api.createUser({ email: 'temp@initech.test' });
    await setPolicy(api.db, api.clock, 'initech', { enabled: false });
    try {
      expect((await api.signIn({ email, password: TEST_PASSWORD })).status).toBe(200);
      const start = await api.call('POST', '/api/v1/company_sign_in/start', { body: { email } });
      expect(await start.json()).toEqual({ company_sign_in: null });
    } finally {
      await setPolicy(api.db, api.clock, 'initech', { enabled: true });
    }
  });

  it('lets an operator end every session of someone who left', async () => {
    const person = newPerson(initech, 'initech.test');
    const token = sessionTokenOf(await signInThroughProvider(person));
    await endMemberSessions(api.db, api.clock, person.email);
    expect((await api.getCurrentUser(token)).status).toBe(401);
    const user = await memberByEmail(person.email);
    expect(await eventKinds(user?.id ?? 0)).toContain('all_sessions_ended');
  });
});
