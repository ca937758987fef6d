import { format } from 'node:util';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  startOidcIdentityProvider,
  type OidcAccount,
  type OidcIdentityProvider,
} from './oidc-identity-provider.ts';
import { ProviderVisitor } from '../../tests/support/identity-provider-visitor.ts';

const redirectUri = 'http://localhost:9/callback';
const portal = { clientId: 'portal', clientSecret: 'portal-secret-of-at-least-32-characters' };
const ada: OidcAccount = {
  email: 'ada@acme.test',
  password: 'correct horse battery staple',
  subject: 'acme-0001',
  givenName: 'Ada',
  familyName: 'Lovelace',
};

/**
 * Everything written on stdout, stderr and the console from before the provider starts until the
 * last test. Recorded by implementations, as vitest clears the calls of mocks before each test.
 */
const written: string[] = [];
const spies: MockInstance[] = [];
let idp: OidcIdentityProvider;

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    spies.push(
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return write(chunk);
      }),
    );
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    spies.push(
      vi.spyOn(console, method).mockImplementation((...data: unknown[]) => {
        written.push(format(...data));
        original(...data);
      }),
    );
  }
  idp = await startOidcIdentityProvider({
    name: 'Acme sign-in',
    accounts: [ada],
    clients: [{ ...portal, redirectUris: [redirectUri] }],
  });
});

afterAll(async () => {
  await idp.stop();
  for (const spy of spies) spy.mockRestore();
});

/** A browser without JavaScript: follows nothing by itself, keeps the provider's cookies. */
class Browser extends ProviderVisitor {
  constructor() {
    super(redirectUri);
  }
}

interface Started {
  readonly config: client.Configuration;
  readonly browser: Browser;
  readonly checks: { pkceCodeVerifier: string; expectedState: string; expectedNonce: string };
  readonly nonce: string;
  /** The login page the authorization request led to. */
  readonly page: Response;
  readonly pageUrl: string;
}

async function configurationFor(
  provider: OidcIdentityProvider,
  registration: { clientId: string; clientSecret: string } = portal,
): Promise<client.Configuration> {
  const config = await client.discovery(
    new URL(provider.issuer),
    registration.clientId,
    registration.clientSecret,
    undefined,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the provider speaks plain HTTP on loopback.
    { execute: [client.allowInsecureRequests] },
  );
  client.enableNonRepudiationChecks(config);
  return config;
}

/** Sends the browser to the provider with a PKCE, state and nonce request, up to the login page. */
async function startSignIn(
  options: {
    provider?: OidcIdentityProvider;
    registration?: { clientId: string; clientSecret: string };
    loginHint?: string;
  } = {},
): Promise<Started> {
  const config = await configurationFor(options.provider ?? idp, options.registration);
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(options.loginHint === undefined ? {} : { login_hint: options.loginHint }),
  });
  const browser = new Browser();
  const reached = await browser.follow(await browser.get(url.href), url.href);
  if (!('page' in reached))
    throw new Error(`Expected the login page, went to ${reached.callback.href}`);
  expect(reached.page.status).toBe(200);
  return {
    config,
    browser,
    checks: { pkceCodeVerifier, expectedState: state, expectedNonce: nonce },
    nonce,
    page: reached.page,
    pageUrl: reached.url,
  };
}

/** Submits the login form and follows the redirects to the redirect URI. */
async function submitLogin(
  started: Started,
  form: { email: string; password: string; second_step?: string },
): Promise<{ callback: URL } | { page: Response; url: string }> {
  const action = `${started.pageUrl}/login`;
  return started.browser.follow(await started.browser.post(action, form), action);
}

async function callbackOf(
  started: Started,
  form: { email: string; password: string; second_step?: string },
): Promise<URL> {
  const reached = await submitLogin(started, form);
  if (!('callback' in reached)) {
    throw new Error(`Expected the redirect URI, got a page: ${await reached.page.text()}`);
  }
  return reached.callback;
}

async function idTokenClaims(
  started: Started,
  callback: URL,
): Promise<NonNullable<ReturnType<client.TokenEndpointResponseHelpers['claims']>>> {
  const tokens = await client.authorizationCodeGrant(started.config, callback, {
    ...started.checks,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (claims === undefined) throw new Error('No ID token');
  return claims;
}

/** The attributes of the element of `html` whose id is `id`. */
function attributesOf(html: string, id: string): Record<string, string> {
  const tag = new RegExp(`<(?:input|p|button)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (tag === undefined) throw new Error(`No element with id ${id}`);
  return Object.fromEntries(
    [...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)]
      .slice(1)
      .map(([, key = '', value = '']) => [key, value]),
  );
}

describe('the OpenID Connect identity provider', () => {
  it('announces its issuer in discovery exactly as it reports it', async () => {
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata['issuer']).toBe(idp.issuer);
    expect(metadata['response_types_supported']).toEqual(['code']);
    expect(metadata['code_challenge_methods_supported']).toEqual(['S256']);
  });

  it('signs a person in and puts their email and name into the ID token', async () => {
    const started = await startSignIn();
    const callback = await callbackOf(started, { email: ada.email, password: ada.password });
    const claims = await idTokenClaims(started, callback);
    expect(claims).toMatchObject({
      iss: idp.issuer,
      aud: portal.clientId,
      sub: ada.subject,
      nonce: started.nonce,
      email: ada.email,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(typeof claims.exp).toBe('number');
    expect(typeof claims.iat).toBe('number');
  });

  it('serves a login page with a title, a heading and labelled fields', async () => {
    const html = await (await startSignIn()).page.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<title>Acme sign-in</title>');
    expect(html).toMatch(/<main>\s*<h1>Acme sign-in<\/h1>/);
    expect(html).toContain('<label for="email">Email address</label>');
    expect(attributesOf(html, 'email')).toMatchObject({
      type: 'email',
      name: 'email',
      autocomplete: 'username',
    });
    expect(html).toContain('<label for="password">Password</label>');
    expect(attributesOf(html, 'password')).toMatchObject({ type: 'password', name: 'password' });
    expect(html).toContain('<label for="second_step">I also used my security key</label>');
    expect(attributesOf(html, 'second_step')).toMatchObject({
      type: 'checkbox',
      name: 'second_step',
    });
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).toMatch(
      /action="\/interaction\/[\w-]+\/abort">\s*<p><button type="submit">Cancel/,
    );
    expect(html).not.toContain('<script');
  });

  it('prefills the email address with the login_hint of the authorization request', async () => {
    const started = await startSignIn({ loginHint: 'ada@acme.test' });
    expect(attributesOf(await started.page.text(), 'email')['value']).toBe('ada@acme.test');
  });

  it('escapes the login_hint it prefills', async () => {
    const started = await startSignIn({ loginHint: '"><script>alert(1)</script>' });
    const html = await started.page.text();
    expect(html).not.toContain('<script>');
    expect(attributesOf(html, 'email')['value']).toBe(
      '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    );
  });

  it('shows an error and keeps the email typed when the password is wrong', async () => {
    const started = await startSignIn();
    const reached = await submitLogin(started, { email: ada.email, password: 'wrong' });
    if (!('page' in reached)) throw new Error('Expected to stay on the login page');
    expect(reached.page.status).toBe(200);
    const html = await reached.page.text();
    expect(html).toContain('<p role="alert">Wrong email or password.</p>');
    expect(attributesOf(html, 'email')['value']).toBe(ada.email);
  });

  it('shows the same error for an email address it does not know', async () => {
    const started = await startSignIn();
    const reached = await submitLogin(started, { email: 'nobody@acme.test', password: 'x' });
    if (!('page' in reached)) throw new Error('Expected to stay on the login page');
    expect(await reached.page.text()).toContain('<p role="alert">Wrong email or password.</p>');
  });

  it('signs in after a wrong password when the right one follows', async () => {
    const started = await startSignIn();
    await submitLogin(started, { email: ada.email, password: 'wrong' });
    const callback = await callbackOf(started, { email: ada.email, password: ada.password });
    expect((await idTokenClaims(started, callback)).sub).toBe(ada.subject);
  });

  it('finds the account whatever the case of the email address typed', async () => {
    const started = await startSignIn();
    const callback = await callbackOf(started, {
      email: ' ADA@Acme.TEST ',
      password: ada.password,
    });
    expect((await idTokenClaims(started, callback)).email).toBe(ada.email);
  });

  it('puts amr and acr of a sign-in with a security key into the ID token', async () => {
    const started = await startSignIn();
    const callback = await callbackOf(started, {
      email: ada.email,
      password: ada.password,
      second_step: 'yes',
    });
    expect(await idTokenClaims(started, callback)).toMatchObject({
      amr: ['pwd', 'hwk'],
      acr: 'urn:example:acr:mfa',
    });
  });

  it('puts amr and acr of a sign-in with the password alone into the ID token', async () => {
    const started = await startSignIn();
    const callback = await callbackOf(started, { email: ada.email, password: ada.password });
    expect(await idTokenClaims(started, callback)).toMatchObject({
      amr: ['pwd'],
      acr: 'urn:example:acr:pwd',
    });
  });

  it('sends access_denied to the redirect URI when the person cancels', async () => {
    const started = await startSignIn();
    const action = `${started.pageUrl}/abort`;
    const reached = await started.browser.follow(await started.browser.post(action, {}), action);
    if (!('callback' in reached)) throw new Error('Expected the redirect URI');
    expect(reached.callback.searchParams.get('error')).toBe('access_denied');
    expect(reached.callback.searchParams.get('error_description')).toBe(
      'The person cancelled the sign-in.',
    );
    expect(reached.callback.searchParams.get('state')).toBe(started.checks.expectedState);
  });

  it('refuses an authorization code used a second time', async () => {
    const started = await startSignIn();
    const callback = await callbackOf(started, { email: ada.email, password: ada.password });
    await idTokenClaims(started, callback);
    await expect(idTokenClaims(started, callback)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses an authorization request without PKCE with invalid_request', async () => {
    const config = await configurationFor(idp);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: client.randomState(),
      nonce: client.randomNonce(),
    });
    const browser = new Browser();
    const reached = await browser.follow(await browser.get(url.href), url.href);
    if (!('callback' in reached)) throw new Error('Expected the redirect URI');
    expect(reached.callback.searchParams.get('error')).toBe('invalid_request');
    expect(reached.callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('tells a browser that comes back to a finished sign-in that the page expired', async () => {
    const started = await startSignIn();
    await callbackOf(started, { email: ada.email, password: ada.password });
    const response = await started.browser.get(started.pageUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This sign-in page has expired.');
  });

  it('signs in through a client added after start, with an account added after start', async () => {
    const later = { clientId: 'later', clientSecret: 'another-secret-of-at-least-32-characters' };
    idp.addClient({ ...later, redirectUris: [redirectUri] });
    idp.addAccount({
      email: 'grace@acme.test',
      password: 'another long password',
      subject: 'acme-0002',
      givenName: 'Grace',
      familyName: 'Hopper',
      emailVerified: false,
    });
    const started = await startSignIn({ registration: later });
    const callback = await callbackOf(started, {
      email: 'grace@acme.test',
      password: 'another long password',
    });
    expect(await idTokenClaims(started, callback)).toMatchObject({
      aud: 'later',
      sub: 'acme-0002',
      email_verified: false,
      given_name: 'Grace',
    });
  });

  it('signs a person in to a second client without asking again', async () => {
    const second = { clientId: 'second', clientSecret: 'a-third-secret-of-at-least-32-characters' };
    idp.addClient({ ...second, redirectUris: [redirectUri] });
    const first = await startSignIn();
    await callbackOf(first, { email: ada.email, password: ada.password, second_step: 'yes' });

    const config = await configurationFor(idp, second);
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state: 'second-state',
      nonce: 'second-nonce',
    });
    const reached = await first.browser.follow(await first.browser.get(url.href), url.href);
    if (!('callback' in reached)) throw new Error('Expected the redirect URI without a page');
    const tokens = await client.authorizationCodeGrant(config, reached.callback, {
      pkceCodeVerifier,
      expectedState: 'second-state',
      expectedNonce: 'second-nonce',
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({
      aud: 'second',
      sub: ada.subject,
      email: ada.email,
      amr: ['pwd', 'hwk'],
      acr: 'urn:example:acr:mfa',
    });
  });

  it('answers an unknown client with an error page of its own, not a redirect', async () => {
    const url = new URL('/auth', idp.issuer);
    url.search = new URLSearchParams({
      client_id: 'unknown',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
    }).toString();
    const response = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<title>Acme sign-in</title>');
    expect(html).toContain('<code>invalid_client</code>');
  });

  it('refuses a client whose secret is shorter than 32 characters', () => {
    expect(() => {
      idp.addClient({ clientId: 'short', clientSecret: 'too short', redirectUris: [redirectUri] });
    }).toThrow(/at least 32 characters/);
  });

  it('stops listening and closes the connections kept alive', async () => {
    const provider = await startOidcIdentityProvider({ name: 'Short-lived sign-in' });
    expect((await fetch(`${provider.issuer}/.well-known/openid-configuration`)).status).toBe(200);
    await provider.stop();
    await expect(fetch(`${provider.issuer}/.well-known/openid-configuration`)).rejects.toThrow();
  });

  // Last: it checks what all the tests above wrote.
  it('writes nothing on stdout, stderr or the console', () => {
    expect(written).toEqual([]);
  });
});
