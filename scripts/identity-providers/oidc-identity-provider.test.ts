import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdentityProvider, type OidcIdentityProvider } from './oidc-identity-provider.ts';
import {
  Browser,
  ada,
  callbackOf,
  configurationFor,
  idTokenClaims,
  portal,
  recordOutput,
  redirectUri,
  startAcmeProvider,
  startSignInAt,
} from './oidc-identity-provider-test-support.ts';
import { createOidcSigningKey } from './oidc-signing-keys.ts';

// The provider as an OpenID Connect client sees it: discovery, tokens, refusals, clients added
// after start, stopping, and silence on the console. Its login page is oidc-login-pages.test.ts's.

/**
 * Everything written on stdout, stderr and the console from before the provider starts until the
 * last test.
 */
const written: string[] = [];
let stopRecording: () => void;
let idp: OidcIdentityProvider;

beforeAll(async () => {
  stopRecording = recordOutput(written);
  idp = await startAcmeProvider();
});

afterAll(async () => {
  await idp.stop();
  stopRecording();
});

/** Sends the browser to `idp` with a PKCE, state and nonce request, up to the login page. */
function startSignIn(options: Parameters<typeof startSignInAt>[1] = {}) {
  return startSignInAt(idp, options);
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

  it('publishes the public half of the keys it rotates to, signs with the first, and keeps sign-ins under way', async () => {
    const rotating = await startAcmeProvider();
    try {
      const started = await startSignInAt(rotating);
      const keys = [await createOidcSigningKey(), await createOidcSigningKey()];
      rotating.rotateSigningKeys(keys);
      const jwksUri = started.config.serverMetadata().jwks_uri ?? '';
      const published = (await (await fetch(jwksUri)).json()) as { keys: object[] };
      expect(published.keys.map((key) => ('kid' in key ? key.kid : undefined))).toEqual(
        keys.map((key) => key.kid),
      );
      for (const key of published.keys) expect(key).not.toHaveProperty('d');
      const callback = await callbackOf(started, { email: ada.email, password: ada.password });
      const tokens = await client.authorizationCodeGrant(started.config, callback, {
        ...started.checks,
        idTokenExpected: true,
      });
      expect(decodeProtectedHeader(tokens.id_token ?? '').kid).toBe(keys[0]?.kid);
    } finally {
      await rotating.stop();
    }
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
