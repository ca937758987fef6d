import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcIdentityProvider } from './oidc-identity-provider.ts';
import {
  ada,
  attributesOf,
  callbackOf,
  idTokenClaims,
  recordOutput,
  startAcmeProvider,
  startSignInAt,
  submitLogin,
} from './oidc-identity-provider-test-support.ts';

// The provider's login page (oidc-login-pages.ts): its form, the login_hint, wrong passwords, and
// a page that has expired. Its protocol is oidc-identity-provider.test.ts's.

/** Everything written on stdout, stderr and the console while the provider runs. */
const written: string[] = [];
let stopRecording: () => void;
let idp: OidcIdentityProvider;

beforeAll(async () => {
  stopRecording = recordOutput(written);
  idp = await startAcmeProvider();
});

afterAll(async () => {
  // The tests of this file are held to what the last test of oidc-identity-provider.test.ts asks
  // of its own: the provider writes nothing on stdout, stderr or the console.
  const writtenByTests = [...written];
  await idp.stop();
  stopRecording();
  expect(writtenByTests).toEqual([]);
});

/** Sends the browser to `idp` with a PKCE, state and nonce request, up to the login page. */
function startSignIn(options: Parameters<typeof startSignInAt>[1] = {}) {
  return startSignInAt(idp, options);
}

describe('the OpenID Connect identity provider', () => {
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

  it('tells a browser that comes back to a finished sign-in that the page expired', async () => {
    const started = await startSignIn();
    await callbackOf(started, { email: ada.email, password: ada.password });
    const response = await started.browser.get(started.pageUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This sign-in page has expired.');
  });
});
