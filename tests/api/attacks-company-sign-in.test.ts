import { eq } from 'drizzle-orm';
import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../platform/logger.ts';
import { users } from '../../api/db/schema/index.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import {
  companyWithOidc,
  finishOidc,
  PORTAL_CLIENT,
  startCompanySignIn,
} from './company-sign-in-support.ts';
import { startTestApi, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: every way a forged or replayed answer of a company's OpenID Connect
// provider is refused. A real provider never signs a wrong token, so here the provider is a forger
// that answers the API's calls (discovery, keys, token) with whatever the test made.

const issuer = 'https://login.forged.test';
const otherIssuer = 'https://login.globex.test';

let api: TestApi;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let publicJwk: jose.JWK;
/** What the token endpoint answers next, for the code it is given. */
let tokenAnswer: (code: string) => Response;
const spentCodes = new Set<string>();

function forgedProvider(url: string, options: { body?: unknown }): Promise<Response> {
  return Promise.resolve(forgedAnswer(url, options));
}

function forgedAnswer(url: string, options: { body?: unknown }): Response {
  const { origin, pathname } = new URL(url);
  const base = origin === otherIssuer ? otherIssuer : issuer;
  if (pathname === '/.well-known/openid-configuration') {
    return Response.json({
      issuer: base,
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
    });
  }
  if (pathname === '/jwks') return Response.json({ keys: [publicJwk] });
  if (pathname === '/token') {
    const code = new URLSearchParams(String(options.body)).get('code') ?? '';
    if (spentCodes.has(code)) return Response.json({ error: 'invalid_grant' }, { status: 400 });
    spentCodes.add(code);
    return tokenAnswer(code);
  }
  return new Response('not found', { status: 404 });
}

beforeAll(async () => {
  api = await startTestApi({ companySignInFetch: forgedProvider });
  const pair = await jose.generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  strangerKey = (await jose.generateKeyPair('RS256')).privateKey;
  publicJwk = { ...(await jose.exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256' };
  await companyWithOidc(api, { slug: 'forged', issuer, domains: ['forged.test'] });
  await companyWithOidc(api, {
    slug: 'globex-forged',
    issuer: otherIssuer,
    domains: ['globex.test'],
  });
});

afterAll(async () => {
  await api.close();
});

interface Claims {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  nonce?: string;
  email?: string;
  email_verified?: boolean;
  exp?: number;
  iat?: number;
}

/** An ID token as a provider signs one; `header` and `key` let a test forge it. */
async function idToken(
  claims: Claims,
  options: { key?: CryptoKey; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({ email_verified: true, iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1' })
    .sign(options.key ?? signingKey);
}

/** An unsigned token (`alg: none`), which no provider may send. */
function unsignedToken(claims: Claims): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ email_verified: true, iat: now, exp: now + 300, ...claims })}.`;
}

function answerWith(token: string): void {
  tokenAnswer = () =>
    Response.json({ access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: token });
}

interface Started {
  token: string;
  state: string;
  nonce: string;
  email: string;
}

async function start(): Promise<Started> {
  const email = `member-${crypto.randomUUID().slice(0, 8)}@forged.test`;
  const started = await startCompanySignIn(api, { email });
  const url = new URL(started.redirectUrl);
  return {
    token: started.token,
    state: url.searchParams.get('state') ?? '',
    nonce: url.searchParams.get('nonce') ?? '',
    email,
  };
}

/** The claims an honest provider would sign for this sign-in. */
function honestClaims(started: Started): Claims {
  return {
    iss: issuer,
    aud: PORTAL_CLIENT.clientId,
    sub: `sub-${started.email}`,
    nonce: started.nonce,
    email: started.email,
  };
}

async function answer(started: Started, query: Record<string, string>): Promise<Response> {
  return finishOidc(api, started.token, new URLSearchParams(query).toString());
}

async function expectRefused(response: Response, started: Started): Promise<void> {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ error: ErrorMessage.companySignInFailed });
  const created = await api.db.select().from(users).where(eq(users.email, started.email));
  expect(created).toEqual([]);
}

beforeEach(() => {
  tokenAnswer = () => Response.json({ error: 'server_error' }, { status: 500 });
});

describe('a forged answer of a company’s OpenID Connect provider', () => {
  it('lets an honest answer in (the forger can sign like the provider: the checks below are what refuse)', async () => {
    const started = await start();
    answerWith(await idToken(honestClaims(started)));
    const response = await answer(started, { code: 'honest', state: started.state });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong state', async () => {
    const started = await start();
    answerWith(await idToken(honestClaims(started)));
    await expectRefused(await answer(started, { code: 'c1', state: 'another-state' }), started);
  });

  it('refuses a missing state', async () => {
    const started = await start();
    answerWith(await idToken(honestClaims(started)));
    await expectRefused(await answer(started, { code: 'c2' }), started);
  });

  it('refuses a code the provider already spent', async () => {
    const first = await start();
    answerWith(await idToken(honestClaims(first)));
    expect((await answer(first, { code: 'spent', state: first.state })).status).toBe(200);
    const second = await start();
    answerWith(await idToken(honestClaims(second)));
    await expectRefused(await answer(second, { code: 'spent', state: second.state }), second);
  });

  it('refuses a token of another issuer', async () => {
    const started = await start();
    answerWith(await idToken({ ...honestClaims(started), iss: otherIssuer }));
    await expectRefused(await answer(started, { code: 'c3', state: started.state }), started);
  });

  it('refuses a token meant for another client, or for another one too', async () => {
    for (const aud of ['someone-else', [PORTAL_CLIENT.clientId, 'someone-else']]) {
      const started = await start();
      answerWith(await idToken({ ...honestClaims(started), aud }));
      await expectRefused(
        await answer(started, { code: `aud-${String(aud)}`, state: started.state }),
        started,
      );
    }
  });

  it('refuses an expired token', async () => {
    const started = await start();
    const past = Math.floor(Date.now() / 1000) - 3600;
    answerWith(await idToken({ ...honestClaims(started), iat: past - 300, exp: past }));
    await expectRefused(await answer(started, { code: 'c4', state: started.state }), started);
  });

  it('refuses an unsigned token', async () => {
    const started = await start();
    answerWith(unsignedToken(honestClaims(started)));
    await expectRefused(await answer(started, { code: 'c5', state: started.state }), started);
  });

  it('refuses a token signed by a stranger’s key under the provider’s key id', async () => {
    const started = await start();
    answerWith(await idToken(honestClaims(started), { key: strangerKey }));
    await expectRefused(await answer(started, { code: 'c6', state: started.state }), started);
  });

  it('refuses a token signed by a key the provider does not publish', async () => {
    const started = await start();
    answerWith(await idToken(honestClaims(started), { key: strangerKey, kid: 'key-9' }));
    await expectRefused(await answer(started, { code: 'c7', state: started.state }), started);
  });

  it('refuses a token for another sign-in (a nonce that is not this one’s)', async () => {
    const started = await start();
    answerWith(await idToken({ ...honestClaims(started), nonce: 'someone-elses-nonce' }));
    await expectRefused(await answer(started, { code: 'c8', state: started.state }), started);
  });

  it('refuses a token without a nonce', async () => {
    const started = await start();
    const claims = honestClaims(started);
    delete claims.nonce;
    answerWith(await idToken(claims));
    await expectRefused(await answer(started, { code: 'c9', state: started.state }), started);
  });

  it('refuses a token from another company’s provider, vouching for this company’s address', async () => {
    // Globex's provider (a real one of the portal's companies) signs for a forged.test address.
    const started = await start();
    answerWith(await idToken({ ...honestClaims(started), iss: otherIssuer }));
    await expectRefused(await answer(started, { code: 'c10', state: started.state }), started);
  });

  it('says the provider is away, without a stack, when it does not answer', async () => {
    const started = await start();
    tokenAnswer = () => {
      throw new TypeError('fetch failed');
    };
    const response = await answer(started, { code: 'c11', state: started.state });
    expect(response.status).toBe(424);
    expect(await response.json()).toEqual({ error: ErrorMessage.companySignInUnavailable });
  });

  it('writes nothing the provider sent into the log', async () => {
    const started = await start();
    const token = await idToken({ ...honestClaims(started), aud: 'someone-else' });
    answerWith(token);
    const logged = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      await answer(started, { code: 'c12-the-code', state: started.state });
      expect(logged).toHaveBeenCalledWith(
        { refusal: 'oidc:OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
        'company sign-in refused',
      );
    } finally {
      logged.mockRestore();
    }
    const log = JSON.stringify(logged.mock.calls);
    for (const secret of [token.slice(0, 40), 'c12-the-code', started.state, started.email]) {
      expect(log).not.toContain(secret);
    }
  });
});
