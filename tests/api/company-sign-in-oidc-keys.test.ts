import * as jose from 'jose';
import type { CustomFetchOptions } from 'openid-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorMessage } from '../../contract/error-messages.ts';
import { logger } from '../../platform/logger.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import {
  startOidcIdentityProvider,
  type OidcIdentityProvider,
} from '../../scripts/identity-providers/oidc-identity-provider.ts';
import {
  createOidcSigningKey,
  type OidcSigningKey,
} from '../../scripts/identity-providers/oidc-signing-keys.ts';
import {
  companyWithOidc,
  newPerson,
  OIDC_REDIRECT_URI,
  oidcSignInSteps,
  PORTAL_CLIENT,
} from './company-sign-in-support.ts';
import { startTestApi, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in with OpenID Connect while the company's provider rotates
// the keys it signs ID tokens with, against a real provider on loopback that rotates without
// stopping. The portal keeps the provider's keys with its discovered configuration (openid-client
// does) and fetches them again only once its copy is old enough, so these tests move the clock of
// the process, which both the provider and openid-client read.

let api: TestApi;
const providers: OidcIdentityProvider[] = [];
/** The origins of the providers whose keys the portal fetched, once a fetch. */
const keyFetches: string[] = [];
/**
 * When set, the ID token of the provider's token answer reaches the portal with the same claims,
 * signed with this key instead: what someone who kept a key the provider has removed, standing
 * between the portal and the provider, could send.
 */
let resignWith: OidcSigningKey | undefined;
/** The key id in the header of the last ID token that reached the portal. */
let lastKeyId: string | undefined;

/**
 * The portal's calls to the providers, passed on unchanged but for {@link resignWith}, noting the
 * fetches of keys and the key of each ID token.
 */
async function betweenPortalAndProvider(
  url: string,
  options: CustomFetchOptions,
): Promise<Response> {
  const { origin, pathname } = new URL(url);
  if (pathname === '/jwks') keyFetches.push(origin);
  // openid-client's body type admits views of any buffer, fetch's only of an ArrayBuffer.
  const body = options.body instanceof Uint8Array ? new Uint8Array(options.body) : options.body;
  const response = await fetch(url, { ...options, body: body ?? null });
  if (pathname !== '/token' || !response.ok) return response;
  const tokens = (await response.clone().json()) as { id_token?: string };
  if (tokens.id_token === undefined) throw new Error('The provider answered without an ID token.');
  if (resignWith === undefined) {
    lastKeyId = jose.decodeProtectedHeader(tokens.id_token).kid;
    return response;
  }
  const idToken = await new jose.SignJWT(jose.decodeJwt(tokens.id_token))
    .setProtectedHeader({ alg: 'RS256', kid: resignWith.kid })
    .sign(await jose.importJWK(resignWith, 'RS256'));
  lastKeyId = resignWith.kid;
  return Response.json({ ...tokens, id_token: idToken }, { status: response.status });
}

beforeAll(async () => {
  api = await startTestApi({ companySignInFetch: betweenPortalAndProvider });
});

afterAll(async () => {
  await api.close();
  await Promise.all(providers.map((provider) => provider.stop()));
});

/** The process's clock, stopped so that the age of the portal's copy of the keys is exact. */
let now: number;

beforeEach(() => {
  now = Date.now();
  vi.setSystemTime(now);
  resignWith = undefined;
  lastKeyId = undefined;
});

afterEach(() => {
  vi.useRealTimers();
});

/** Time passes for everyone: the provider, openid-client in the portal, and the API's clock. */
function timePasses(milliseconds: number): void {
  now += milliseconds;
  vi.setSystemTime(now);
  api.clock.advanceBy(milliseconds);
}

const { signInThroughProvider } = oidcSignInSteps(() => api);

/**
 * A company of its own whose provider signs with key A, and one of its people, signed in once:
 * so the portal has discovered the provider and fetched its keys, now.
 */
async function companySignedInOnceWithKeyA() {
  const keyA = await createOidcSigningKey();
  const idp = await startOidcIdentityProvider({
    name: 'Rotating sign-in',
    clients: [{ ...PORTAL_CLIENT, redirectUris: [OIDC_REDIRECT_URI] }],
    signingKeys: [keyA],
  });
  providers.push(idp);
  const id = crypto.randomUUID().slice(0, 8);
  const domain = `rotating-${id}.test`;
  await companyWithOidc(api, { slug: `rotating-${id}`, issuer: idp.issuer, domains: [domain] });
  const person = newPerson(idp, domain);
  expect((await signInThroughProvider(person)).status).toBe(200);
  expect(lastKeyId).toBe(keyA.kid);
  expect(fetchesOfKeys(idp)).toBe(1);
  return { idp, keyA, person };
}

function fetchesOfKeys(idp: OidcIdentityProvider): number {
  return keyFetches.filter((origin) => origin === idp.issuer).length;
}

/**
 * Signs `person` in through the provider and expects the portal to refuse the ID token for the
 * key that signed it, as openid-client finds no key of its copy for the token's key id.
 */
async function expectRefusedForItsKey(person: { email: string; password: string }): Promise<void> {
  const logged = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
  try {
    const response = await signInThroughProvider(person);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: ErrorMessage.companySignInFailed });
    expect(logged).toHaveBeenCalledWith(
      { refusal: 'oidc:OAUTH_KEY_SELECTION_FAILED' },
      'company sign-in refused',
    );
  } finally {
    logged.mockRestore();
  }
}

describe('a company’s OpenID Connect provider rotating its signing keys', () => {
  it('refuses a token under a key it has not seen for a minute after fetching the provider’s keys, asking no sooner', async () => {
    const { idp, person } = await companySignedInOnceWithKeyA();
    const keyB = await createOidcSigningKey();
    idp.rotateSigningKeys([keyB]);
    await expectRefusedForItsKey(person);
    expect(lastKeyId).toBe(keyB.kid);
    timePasses(59 * SECOND);
    await expectRefusedForItsKey(person);
    expect(fetchesOfKeys(idp)).toBe(1);
  });

  it('signs members in under the provider’s new key without a restart once its copy of the keys is a minute old', async () => {
    const { idp, person } = await companySignedInOnceWithKeyA();
    const keyB = await createOidcSigningKey();
    idp.rotateSigningKeys([keyB]);
    timePasses(MINUTE);
    const response = await signInThroughProvider(person);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ created: false });
    expect(lastKeyId).toBe(keyB.kid);
    expect(fetchesOfKeys(idp)).toBe(2);
    expect((await signInThroughProvider(person)).status).toBe(200);
    expect(fetchesOfKeys(idp)).toBe(2);
  });

  it('accepts at once a key the provider published before signing with it, once it has fetched the keys since', async () => {
    const { idp, keyA, person } = await companySignedInOnceWithKeyA();
    const keyB = await createOidcSigningKey();
    idp.rotateSigningKeys([keyA, keyB]);
    // Five minutes on, openid-client fetches the keys again whatever key id a token names.
    timePasses(5 * MINUTE);
    expect((await signInThroughProvider(person)).status).toBe(200);
    expect(lastKeyId).toBe(keyA.kid);
    expect(fetchesOfKeys(idp)).toBe(2);
    idp.rotateSigningKeys([keyB]);
    expect((await signInThroughProvider(person)).status).toBe(200);
    expect(lastKeyId).toBe(keyB.kid);
    expect(fetchesOfKeys(idp)).toBe(2);
  });

  it('trusts a key the provider has removed until its copy of the keys is five minutes old', async () => {
    const { idp, keyA, person } = await companySignedInOnceWithKeyA();
    idp.rotateSigningKeys([await createOidcSigningKey()]);
    resignWith = keyA;
    // openid-client looks a key id up in its copy first, and the copy still has key A.
    timePasses(5 * MINUTE - SECOND);
    expect((await signInThroughProvider(person)).status).toBe(200);
    timePasses(SECOND);
    await expectRefusedForItsKey(person);
    expect(fetchesOfKeys(idp)).toBe(2);
  });

  it('refuses a token under a removed key once a token under the new key has made it fetch the keys again', async () => {
    const { idp, keyA, person } = await companySignedInOnceWithKeyA();
    const keyB = await createOidcSigningKey();
    idp.rotateSigningKeys([keyB]);
    timePasses(MINUTE);
    expect((await signInThroughProvider(person)).status).toBe(200);
    expect(lastKeyId).toBe(keyB.kid);
    expect(fetchesOfKeys(idp)).toBe(2);
    resignWith = keyA;
    await expectRefusedForItsKey(person);
    expect(lastKeyId).toBe(keyA.kid);
  });
});
