import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../api/db/schema/index.ts';
import {
  setPolicy,
  setSamlConnection,
} from '../../api/services/company-sign-in/connection-admin.ts';
import { samlServiceProvider } from '../../api/services/company-sign-in/connection-settings.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import {
  readAuthnRequest,
  readPostBindingPage,
} from '../../scripts/identity-providers/saml-bindings.ts';
import type { CraftedResponseOptions } from '../../scripts/identity-providers/saml-crafted-responses.ts';
import {
  startSamlIdentityProvider,
  type SamlIdentityProvider,
} from '../../scripts/identity-providers/saml-identity-provider.ts';
import { SECURITY_KEY_CONTEXT } from '../../scripts/identity-providers/saml-vocabulary.ts';
import { sessionTokenOf, startCompanySignIn } from './company-sign-in-support.ts';
import { startTestApi, TEST_PASSWORD, TEST_PUBLIC_ORIGIN, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in with SAML 2.0, against a real provider on loopback for the
// honest answers, and answers crafted (signed, unsigned, wrapped) for every refusal.

let api: TestApi;
let idp: SamlIdentityProvider;
const globex = samlServiceProvider(TEST_PUBLIC_ORIGIN, 'globex');
const initrode = samlServiceProvider(TEST_PUBLIC_ORIGIN, 'initrode');

async function companyWithSaml(slug: string, name: string, domain: string): Promise<void> {
  await api.db.insert(companies).values({ name, slug, createdAt: api.clock.now() });
  await setSamlConnection(api.db, api.clock, {
    companySlug: slug,
    idpEntityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    domains: [domain],
  });
}

beforeAll(async () => {
  api = await startTestApi();
  idp = await startSamlIdentityProvider({ name: 'Globex sign-in' });
  idp.addServiceProvider(globex);
  idp.addServiceProvider(initrode);
  await companyWithSaml('globex', 'Globex', 'globex.test');
  await companyWithSaml('initrode', 'Initrode', 'initrode.test');
});

afterAll(async () => {
  await api.close();
  await idp.stop();
});

function newPerson(domain = 'globex.test') {
  const id = crypto.randomUUID().slice(0, 8);
  const person = {
    email: `person-${id}@${domain}`,
    password: `password-${id}`,
    givenName: 'Grace',
    familyName: 'Hopper',
  };
  idp.addAccount(person);
  return person;
}

interface Started {
  token: string;
  redirectUrl: string;
  requestId: string;
}

async function start(email: string): Promise<Started> {
  const started = await startCompanySignIn(api, { email });
  return { ...started, requestId: readAuthnRequest(started.redirectUrl).id };
}

/** The provider's own pages, as a browser goes through them: the response it posts back. */
async function honestResponse(
  started: Started,
  person: { email: string; password: string },
  extra: Record<string, string> = {},
): Promise<string> {
  const page = await (await fetch(started.redirectUrl)).text();
  const pending = /name="pending" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const answer = await fetch(new URL('/sso/login', idp.ssoUrl), {
    method: 'POST',
    body: new URLSearchParams({
      pending,
      email: person.email,
      password: person.password,
      action: 'sign-in',
      ...extra,
    }),
  });
  const form = readPostBindingPage(await answer.text());
  expect(form.action).toBe(globex.acsUrl);
  return form.samlResponse;
}

function crafted(started: Started, options: Partial<CraftedResponseOptions> & { nameId: string }) {
  return idp.craftResponse(globex, { inResponseTo: started.requestId, ...options });
}

const answer = (slug: string, samlResponse: string) =>
  api.call('POST', '/api/v1/company_sign_in/saml/acs', {
    body: { company_slug: slug, saml_response: samlResponse },
  });

const finish = (token: string) =>
  api.call('POST', '/api/v1/company_sign_in/callback', { body: { token } });

async function memberByEmail(email: string) {
  const [user] = await api.db.select().from(users).where(eq(users.email, email));
  return user;
}

describe('signing in with a SAML provider', () => {
  it('sends the browser to the provider with a request for this company’s assertion consumer', async () => {
    const started = await start(newPerson().email);
    const request = readAuthnRequest(started.redirectUrl);
    expect(started.redirectUrl.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(request).toMatchObject({ issuer: globex.entityId, acsUrl: globex.acsUrl });
  });

  it('creates the member on the first sign-in, once the browser that asked comes back', async () => {
    const person = newPerson();
    const started = await start(person.email);
    const response = await answer('globex', await honestResponse(started, person));
    expect(response.status).toBe(204);
    // The answer alone, posted without the browser's cookie, signs nobody in.
    expect(response.headers.get('Authorization')).toBeNull();
    const finished = await finish(started.token);
    expect(finished.status).toBe(200);
    expect(await finished.json()).toMatchObject({ created: true });
    expect(await memberByEmail(person.email)).toMatchObject({ name: 'Grace', lastName: 'Hopper' });
    expect((await api.getCurrentUser(sessionTokenOf(finished))).status).toBe(200);
  });

  it('signs the same member in the second time', async () => {
    const person = newPerson();
    const first = await start(person.email);
    await answer('globex', await honestResponse(first, person));
    await finish(first.token);
    const second = await start(person.email);
    await answer('globex', await honestResponse(second, person));
    const finished = await finish(second.token);
    expect(await finished.json()).toMatchObject({ created: false });
  });

  it('finishes only in the browser that asked, and once', async () => {
    const person = newPerson();
    const started = await start(person.email);
    await answer('globex', await honestResponse(started, person));
    const elsewhere = await start(newPerson().email);
    expect((await finish(elsewhere.token)).status).toBe(403);
    expect((await finish(started.token)).status).toBe(200);
    expect((await finish(started.token)).status).toBe(400);
  });

  it('asks an existing member for their password before linking', async () => {
    const person = newPerson();
    await api.createUser({ email: person.email });
    const started = await start(person.email);
    await answer('globex', await honestResponse(started, person));
    const finished = await finish(started.token);
    expect(await finished.json()).toEqual({
      link_required: { email: person.email, company: { name: 'Globex' } },
    });
    const linked = await api.call('POST', '/api/v1/company_sign_in/link', {
      body: { token: started.token, user: { current_password: TEST_PASSWORD } },
    });
    expect(linked.status).toBe(200);
  });

  it('takes the provider’s second step when the company trusts its authentication context', async () => {
    await setPolicy(api.db, api.clock, 'globex', { trustedTwoStepValues: [SECURITY_KEY_CONTEXT] });
    try {
      const person = newPerson();
      const withKey = await start(person.email);
      await answer('globex', await honestResponse(withKey, person, { securityKey: 'yes' }));
      const finished = await finish(withKey.token);
      expect(finished.headers.get('mfa-token')).toMatch(/^[\w-]{43}$/);
      const without = await start(person.email);
      await answer('globex', await honestResponse(without, person));
      expect((await finish(without.token)).headers.get('mfa-token')).toBeNull();
    } finally {
      await setPolicy(api.db, api.clock, 'globex', { trustedTwoStepValues: [] });
    }
  });

  it('serves the portal’s metadata for the company’s administrator', async () => {
    const response = await api.call('GET', '/api/v1/company_sign_in/saml/globex/metadata');
    const { metadata } = (await response.json()) as { metadata: string };
    expect(metadata).toContain(`entityID="${globex.entityId}"`);
    expect(metadata).toContain(`Location="${globex.acsUrl}"`);
    expect((await api.call('GET', '/api/v1/company_sign_in/saml/nobody/metadata')).status).toBe(
      404,
    );
  });
});

describe('a SAML answer the portal refuses', () => {
  async function expectRefused(
    options: Partial<CraftedResponseOptions>,
    slug = 'globex',
  ): Promise<void> {
    const person = newPerson();
    const started = await start(person.email);
    const response = await answer(slug, crafted(started, { nameId: person.email, ...options }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: ErrorMessage.companySignInFailed });
    expect((await finish(started.token)).status).toBe(403);
    expect(await memberByEmail(person.email)).toBeUndefined();
  }

  it('lets an honestly crafted answer in (the checks below are what refuse)', async () => {
    const person = newPerson();
    const started = await start(person.email);
    expect((await answer('globex', crafted(started, { nameId: person.email }))).status).toBe(204);
    expect((await finish(started.token)).status).toBe(200);
  });

  it('refuses an unsigned answer', () =>
    expectRefused({ signAssertion: false, signResponse: false }));
  it('refuses an answer whose assertion alone is signed', () =>
    expectRefused({ signResponse: false }));
  it('refuses an answer signed by another key', () => expectRefused({ signingKey: 'foreign' }));
  it('refuses an answer for another audience', () =>
    expectRefused({ audience: 'https://elsewhere.test/metadata' }));
  it('refuses an expired answer', () =>
    expectRefused({
      issueInstant: new Date(Date.now() - 3_600_000),
      notBefore: new Date(Date.now() - 3_600_000),
      notOnOrAfter: new Date(Date.now() - 1_800_000),
    }));
  it('refuses an answer for another recipient', () =>
    expectRefused({ recipient: 'https://elsewhere.test/acs' }));
  it('refuses an answer for another destination', () =>
    expectRefused({ destination: 'https://elsewhere.test/acs' }));
  it('refuses an answer from another issuer', () =>
    expectRefused({ assertionIssuer: 'https://impostor.test/metadata' }));
  for (const wrap of [
    'extra-unsigned-assertion',
    'evil-with-signed-in-advice',
    'signed-moved-to-extensions',
  ] as const) {
    it(`refuses a wrapped answer (${wrap})`, () =>
      expectRefused({ wrap, evilNameId: 'ceo@globex.test' }));
  }

  it('refuses an answer to a request nobody made', async () => {
    const person = newPerson();
    const response = await answer(
      'globex',
      idp.craftResponse(globex, { inResponseTo: '_never-asked', nameId: person.email }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: ErrorMessage.companySignInExpired });
  });

  it('refuses an answer posted to another company’s assertion consumer', async () => {
    const person = newPerson();
    const started = await start(person.email);
    const response = await answer('initrode', crafted(started, { nameId: person.email }));
    expect(response.status).toBe(403);
  });

  it('refuses the same answer twice, and an assertion used for another request', async () => {
    const person = newPerson();
    const first = await start(person.email);
    const assertionId = `_assertion-${crypto.randomUUID()}`;
    const response = crafted(first, { nameId: person.email, assertionId });
    expect((await answer('globex', response)).status).toBe(204);
    expect((await answer('globex', response)).status).toBe(400);
    const second = await start(person.email);
    const replayed = await answer('globex', crafted(second, { nameId: person.email, assertionId }));
    expect(replayed.status).toBe(403);
  });

  it(
    'takes one of two posts of one answer at the same moment',
    { tags: ['database'] },
    async () => {
      const person = newPerson();
      const started = await start(person.email);
      const response = crafted(started, { nameId: person.email });
      const statuses = await Promise.all([answer('globex', response), answer('globex', response)]);
      const taken = statuses.filter((r) => r.status === 204);
      expect(taken).toHaveLength(1);
      expect(statuses.filter((r) => r.status >= 400)).toHaveLength(1);
    },
  );

  it('refuses an address in a domain the company does not claim', async () => {
    const person = newPerson('initrode.test');
    const started = await start(newPerson().email);
    expect((await answer('globex', crafted(started, { nameId: person.email }))).status).toBe(204);
    expect((await finish(started.token)).status).toBe(403);
    expect(await memberByEmail(person.email)).toBeUndefined();
  });
});
