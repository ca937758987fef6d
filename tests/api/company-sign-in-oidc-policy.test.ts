import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  newPerson,
  OIDC_REDIRECT_URI,
  oidcSignInSteps,
  PORTAL_CLIENT,
  sessionTokenOf,
  startApiWithOidcCompanies,
  startCompanySignIn,
} from './company-sign-in-support.ts';
import { TEST_PASSWORD, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in with OpenID Connect, against a real provider on loopback:
// an answer is good once, in the browser that asked; and what a company's policy asks. Starting,
// signing in and linking are in company-sign-in-oidc.test.ts.

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
