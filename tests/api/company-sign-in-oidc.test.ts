import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../api/db/schema/index.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import type { OidcIdentityProvider } from '../../scripts/identity-providers/oidc-identity-provider.ts';
import {
  callbackQueryAfterSignIn,
  finishOidc,
  newPerson,
  OIDC_REDIRECT_URI,
  oidcSignInSteps,
  sessionTokenOf,
  startApiWithOidcCompanies,
  startCompanySignIn,
} from './company-sign-in-support.ts';
import { randomClientAddress, TEST_PASSWORD, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in with OpenID Connect, against a real provider on loopback:
// starting, signing in and linking an existing member. One-time answers and the company's policy
// are in company-sign-in-oidc-policy.test.ts.

let api: TestApi;
let acmeIdp: OidcIdentityProvider;
let globexIdp: OidcIdentityProvider;

beforeAll(async () => {
  ({ api, acmeIdp, globexIdp } = await startApiWithOidcCompanies());
});

afterAll(async () => {
  await api.close();
  await acmeIdp.stop();
  await globexIdp.stop();
});

const { signInThroughProvider, memberByEmail, eventKinds } = oidcSignInSteps(() => api);

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
      link_methods: [],
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
