import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { companies, securityEvents, users } from '../../api/db/schema/index.ts';
import {
  setOidcConnection,
  setPolicy,
  type CompanySignInPolicy,
} from '../../api/services/company-sign-in/connection-admin.ts';
import {
  startOidcIdentityProvider,
  type OidcIdentityProvider,
} from '../../scripts/identity-providers/oidc-identity-provider.ts';
import { signInAtOidcProvider, type OidcLoginForm } from '../support/identity-provider-visitor.ts';
import { startTestApi, TEST_PUBLIC_ORIGIN, type TestApi } from './support.ts';

/** Where the portal's callback is, as the API builds it from the public origin. */
export const OIDC_REDIRECT_URI = `${TEST_PUBLIC_ORIGIN}/sign-in/company/callback`;

/** The portal's registration at the tests' providers. */
export const PORTAL_CLIENT = {
  clientId: 'member-portal',
  clientSecret: 'the-portal-client-secret-of-32-characters',
};

/** Creates a company with its own OpenID Connect sign-in at `issuer`, claiming `domains`. */
export async function companyWithOidc(
  api: TestApi,
  options: {
    slug: string;
    name?: string;
    issuer: string;
    domains: readonly string[];
    policy?: CompanySignInPolicy;
    mfaRequired?: boolean;
    clientSecret?: string;
  },
): Promise<{ companyId: number }> {
  const [company] = await api.db
    .insert(companies)
    .values({
      name: options.name ?? 'Acme',
      slug: options.slug,
      mfaRequired: options.mfaRequired ?? false,
      createdAt: api.clock.now(),
    })
    .returning();
  if (!company) throw new Error('The test company was not created.');
  await setOidcConnection(api.db, api.clock, api.companySignIn.connectionSecrets, {
    companySlug: options.slug,
    issuer: options.issuer,
    clientId: PORTAL_CLIENT.clientId,
    clientSecret: options.clientSecret ?? PORTAL_CLIENT.clientSecret,
    domains: options.domains,
  });
  if (options.policy) await setPolicy(api.db, api.clock, options.slug, options.policy);
  return { companyId: company.id };
}

/** A company sign-in started through the API, as the portal starts one. */
export interface StartedCompanySignIn {
  readonly token: string;
  readonly redirectUrl: string;
  readonly companyName: string;
}

export async function startCompanySignIn(
  api: TestApi,
  by: { email: string } | { company_slug: string },
  clientAddress?: string,
): Promise<StartedCompanySignIn> {
  const response = await api.call('POST', '/api/v1/company_sign_in/start', {
    body: by,
    ...(clientAddress === undefined ? {} : { clientAddress }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    company_sign_in: { token: string; redirect_url: string; company: { name: string } } | null;
  };
  if (!body.company_sign_in) throw new Error('No company signs this address in.');
  return {
    token: body.company_sign_in.token,
    redirectUrl: body.company_sign_in.redirect_url,
    companyName: body.company_sign_in.company.name,
  };
}

/** The query string the provider sends the browser back to the portal with, once signed in. */
export async function callbackQueryAfterSignIn(
  started: Pick<StartedCompanySignIn, 'redirectUrl'>,
  form: OidcLoginForm,
): Promise<string> {
  const callback = await signInAtOidcProvider(started.redirectUrl, OIDC_REDIRECT_URI, form);
  return callback.search.slice(1);
}

/** POST /company_sign_in/callback, as the portal's callback page hands the answer on. */
export function finishOidc(
  api: TestApi,
  token: string,
  callbackQuery: string,
  clientAddress?: string,
): Promise<Response> {
  return api.call('POST', '/api/v1/company_sign_in/callback', {
    body: { token, callback_query: callbackQuery },
    ...(clientAddress === undefined ? {} : { clientAddress }),
  });
}

/** The session token of a sign-in answer. */
export function sessionTokenOf(response: Response): string {
  const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1];
  if (!token) throw new Error(`No session in an answer of status ${String(response.status)}.`);
  return token;
}

/**
 * A test API whose companies Acme (acme.test, acme-labs.test) and Globex (globex.test) sign their
 * people in with OpenID Connect, each at a provider of its own on loopback. Ada is one of Acme's.
 */
export async function startApiWithOidcCompanies(): Promise<{
  api: TestApi;
  acmeIdp: OidcIdentityProvider;
  globexIdp: OidcIdentityProvider;
}> {
  const ada = {
    email: 'ada@acme.test',
    password: 'ada-at-the-provider',
    subject: 'acme-0001',
    givenName: 'Ada',
    familyName: 'Lovelace',
  };
  const api = await startTestApi();
  const acmeIdp = await startOidcIdentityProvider({
    name: 'Acme sign-in',
    accounts: [ada],
    clients: [{ ...PORTAL_CLIENT, redirectUris: [OIDC_REDIRECT_URI] }],
  });
  const globexIdp = await startOidcIdentityProvider({
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
  return { api, acmeIdp, globexIdp };
}

/** A new person at a provider, with an address nobody has used here. */
export function newPerson(
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

/**
 * A whole sign-in through the company's provider, and look-ups of the members it makes, on the
 * API `api()` gives: a test file's, which its `beforeAll` starts.
 */
export function oidcSignInSteps(api: () => TestApi) {
  async function signInThroughProvider(
    person: { email: string; password: string },
    options: { secondStep?: boolean } = {},
  ): Promise<Response> {
    const started = await startCompanySignIn(api(), { email: person.email });
    const query = await callbackQueryAfterSignIn(started, {
      email: person.email,
      password: person.password,
      ...(options.secondStep ? { second_step: 'on' } : {}),
    });
    return finishOidc(api(), started.token, query);
  }

  async function memberByEmail(email: string) {
    const [user] = await api().db.select().from(users).where(eq(users.email, email));
    return user;
  }

  async function eventKinds(userId: number): Promise<string[]> {
    const rows = await api()
      .db.select({ kind: securityEvents.kind })
      .from(securityEvents)
      .where(eq(securityEvents.userId, userId));
    return rows.map((row) => row.kind);
  }

  return { signInThroughProvider, memberByEmail, eventKinds };
}
