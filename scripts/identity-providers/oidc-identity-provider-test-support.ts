import { format } from 'node:util';
import * as client from 'openid-client';
import { expect, vi, type MockInstance } from 'vitest';
import {
  startOidcIdentityProvider,
  type OidcAccount,
  type OidcIdentityProvider,
} from './oidc-identity-provider.ts';
import { ProviderVisitor } from '../../tests/support/identity-provider-visitor.ts';

/**
 * What the tests of the OpenID Connect provider share (oidc-identity-provider.test.ts,
 * oidc-login-pages.test.ts): the client and the person they sign in with, a record of what is
 * written on the console, and a browser without JavaScript driven through the provider's pages.
 */

export const redirectUri = 'http://localhost:9/callback';
export const portal = {
  clientId: 'portal',
  clientSecret: 'portal-secret-of-at-least-32-characters',
};
export const ada: OidcAccount = {
  email: 'ada@acme.test',
  password: 'correct horse battery staple',
  subject: 'acme-0001',
  givenName: 'Ada',
  familyName: 'Lovelace',
};

/**
 * Records into `written` everything written on stdout, stderr and the console from now until the
 * function returned is called. Recorded by implementations, as vitest clears the calls of mocks
 * before each test.
 */
export function recordOutput(written: string[]): () => void {
  const spies: MockInstance[] = [];
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
  return () => {
    for (const spy of spies) spy.mockRestore();
  };
}

/** Acme's provider, which knows Ada and the portal. */
export function startAcmeProvider(): Promise<OidcIdentityProvider> {
  return startOidcIdentityProvider({
    name: 'Acme sign-in',
    accounts: [ada],
    clients: [{ ...portal, redirectUris: [redirectUri] }],
  });
}

/** A browser without JavaScript: follows nothing by itself, keeps the provider's cookies. */
export class Browser extends ProviderVisitor {
  constructor() {
    super(redirectUri);
  }
}

export interface Started {
  readonly config: client.Configuration;
  readonly browser: Browser;
  readonly checks: { pkceCodeVerifier: string; expectedState: string; expectedNonce: string };
  readonly nonce: string;
  /** The login page the authorization request led to. */
  readonly page: Response;
  readonly pageUrl: string;
}

export async function configurationFor(
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

/** Sends the browser to `provider` with a PKCE, state and nonce request, up to the login page. */
export async function startSignInAt(
  provider: OidcIdentityProvider,
  options: {
    registration?: { clientId: string; clientSecret: string };
    loginHint?: string;
  } = {},
): Promise<Started> {
  const config = await configurationFor(provider, options.registration);
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
export async function submitLogin(
  started: Started,
  form: { email: string; password: string; second_step?: string },
): Promise<{ callback: URL } | { page: Response; url: string }> {
  const action = `${started.pageUrl}/login`;
  return started.browser.follow(await started.browser.post(action, form), action);
}

export async function callbackOf(
  started: Started,
  form: { email: string; password: string; second_step?: string },
): Promise<URL> {
  const reached = await submitLogin(started, form);
  if (!('callback' in reached)) {
    throw new Error(`Expected the redirect URI, got a page: ${await reached.page.text()}`);
  }
  return reached.callback;
}

export async function idTokenClaims(
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
export function attributesOf(html: string, id: string): Record<string, string> {
  const tag = new RegExp(`<(?:input|p|button)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (tag === undefined) throw new Error(`No element with id ${id}`);
  return Object.fromEntries(
    [...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)]
      .slice(1)
      .map(([, key = '', value = '']) => [key, value]),
  );
}
