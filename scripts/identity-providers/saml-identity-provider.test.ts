import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthnRequest, readPostBindingPage } from './saml-bindings.ts';
import {
  type SamlAccount,
  type SamlIdentityProvider,
  startSamlIdentityProvider,
} from './saml-identity-provider.ts';
import { createSamlSigningKey } from './saml-signing-keys.ts';
import { PASSWORD_CONTEXT, SAML_STATUS, SECURITY_KEY_CONTEXT } from './saml-vocabulary.ts';

const sp = {
  entityId: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/metadata',
  acsUrl: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/acs',
};
const grace: SamlAccount = {
  email: 'grace@acme.test',
  password: 'cobol compiler 1959',
  givenName: 'Grace',
  familyName: 'Hopper',
};
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SIGNATURE_NS = 'http://www.w3.org/2000/09/xmldsig#';

let idp: SamlIdentityProvider;

beforeAll(async () => {
  idp = await startSamlIdentityProvider({ name: 'Acme sign-in' });
  idp.addAccount(grace);
  idp.addServiceProvider(sp);
});

afterAll(() => idp.stop());

/** The redirect a service provider sends the browser on: an AuthnRequest, deflated, in the query. */
function authnRequestUrl(
  provider: SamlIdentityProvider,
  request: { id?: string; issuer?: string; acsUrl?: string | null } = {},
): URL {
  const acsUrl = request.acsUrl === undefined ? sp.acsUrl : request.acsUrl;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="${PROTOCOL_NS}" ID="${request.id ?? '_request-1'}" Version="2.0"` +
    ` IssueInstant="${new Date().toISOString()}" Destination="${provider.ssoUrl}"` +
    ' ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"' +
    (acsUrl === null ? '' : ` AssertionConsumerServiceURL="${acsUrl}"`) +
    `><saml:Issuer xmlns:saml="${ASSERTION_NS}">${request.issuer ?? sp.entityId}</saml:Issuer>` +
    '</samlp:AuthnRequest>';
  const url = new URL(provider.ssoUrl);
  url.searchParams.set('SAMLRequest', deflateRawSync(xml).toString('base64'));
  url.searchParams.set('RelayState', 'relay-7');
  return url;
}

async function loginPage(provider = idp, request?: Parameters<typeof authnRequestUrl>[1]) {
  const response = await fetch(authnRequestUrl(provider, request));
  const html = await response.text();
  return { response, html, pending: /name="pending" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

function postLogin(fields: Record<string, string>, provider = idp): Promise<Response> {
  return fetch(new URL('/sso/login', provider.ssoUrl), {
    method: 'POST',
    body: new URLSearchParams(fields),
  });
}

function responseDocument(samlResponse: string): Element {
  const document = new DOMParser().parseFromString(
    Buffer.from(samlResponse, 'base64').toString('utf8'),
    'text/xml',
  );
  return document.documentElement;
}

function elements(root: Element, namespace: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(namespace, localName));
}

function children(parent: Element, namespace: string, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).namespaceURI === namespace &&
      (node as Element).localName === localName,
  );
}

describe('the login page', () => {
  it('is a page of its own name, with labelled fields for the email, password and security key', async () => {
    const { response, html } = await loginPage();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Acme sign-in</title>');
    expect(html).toMatch(/<main>\s*<h1>Acme sign-in<\/h1>/);
    expect(html).toContain('<form method="post" action="/sso/login">');
    expect(html).toContain('<label for="email">Email address</label>');
    expect(html).toMatch(
      /<input id="email" name="email" type="email" autocomplete="username" required/,
    );
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<input id="password" name="password" type="password"/);
    expect(html).toContain('<label for="security-key">I also used my security key</label>');
    expect(html).toMatch(/<input id="security-key" name="securityKey" type="checkbox"/);
    expect(html).toMatch(/<button type="submit" name="action" value="sign-in">Sign in<\/button>/);
    expect(html).toMatch(
      /<button type="submit" name="action" value="cancel" formnovalidate>Cancel<\/button>/,
    );
  });

  it('says "Wrong email or password." in an alert, and still signs in after', async () => {
    const { pending } = await loginPage();

    const wrong = await postLogin({
      pending,
      email: grace.email,
      password: 'not it',
      action: 'sign-in',
    });
    const html = await wrong.text();
    expect(wrong.status).toBe(401);
    expect(html).toContain('<p role="alert">Wrong email or password.</p>');
    expect(html).toContain(`value="${grace.email}"`);
    const unknown = await postLogin({
      pending,
      email: 'nobody@acme.test',
      password: grace.password,
      action: 'sign-in',
    });
    expect(await unknown.text()).toContain('<p role="alert">Wrong email or password.</p>');

    const right = await postLogin({
      pending,
      email: grace.email,
      password: grace.password,
      action: 'sign-in',
    });
    expect(right.status).toBe(200);
    expect(readPostBindingPage(await right.text()).action).toBe(sp.acsUrl);
  });

  it.each([
    ['from a service provider it does not know', { issuer: 'https://evil.test/metadata' }],
    ['to an ACS that is not the service provider’s', { acsUrl: 'https://evil.test/acs' }],
  ])('refuses an AuthnRequest %s', async (_name, request) => {
    const { response, html } = await loginPage(idp, request);

    expect(response.status).toBe(400);
    expect(html).toContain('This service is not known here');
    expect(html).not.toContain('<form');
  });

  it('refuses a SAMLRequest that is not a deflated AuthnRequest', async () => {
    const url = new URL(idp.ssoUrl);
    url.searchParams.set('SAMLRequest', Buffer.from('<hello/>').toString('base64'));

    expect((await fetch(url)).status).toBe(400);
  });

  it('answers to the registered ACS when the AuthnRequest names none', async () => {
    const { pending } = await loginPage(idp, { acsUrl: null });

    const answer = await postLogin({
      pending,
      email: grace.email,
      password: grace.password,
      action: 'sign-in',
    });
    expect(readPostBindingPage(await answer.text()).action).toBe(sp.acsUrl);
  });

  it('serves a sign-in once: the same form again is refused', async () => {
    const { pending } = await loginPage();
    const fields = { pending, email: grace.email, password: grace.password, action: 'sign-in' };

    expect((await postLogin(fields)).status).toBe(200);
    expect((await postLogin(fields)).status).toBe(400);
  });

  it('refuses a form over 16 KiB', async () => {
    const { pending } = await loginPage();

    const answer = await postLogin({ pending, email: 'x'.repeat(17 * 1024), action: 'sign-in' });
    expect(answer.status).toBe(413);
  });
});

describe('the answer', () => {
  async function signIn(fields: Record<string, string> = {}, provider = idp) {
    const { pending } = await loginPage(provider, { id: '_request-77' });
    const answer = await postLogin(
      { pending, email: grace.email, password: grace.password, action: 'sign-in', ...fields },
      provider,
    );
    const html = await answer.text();
    return { answer, html, form: readPostBindingPage(html) };
  }

  it('is the HTTP-POST binding: a form to the ACS with the response and RelayState, sent by script or button', async () => {
    const { answer, html, form } = await signIn();

    expect(answer.status).toBe(200);
    expect(form).toEqual({
      action: sp.acsUrl,
      samlResponse: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) as unknown,
      relayState: 'relay-7',
    });
    expect(html).toContain('<button type="submit">Continue</button>');
    expect(html).toContain('<script>document.forms[0].submit()</script>');
    expect(answer.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
  });

  it('asserts who signed in, to whom, for which request, signing the Response and the Assertion', async () => {
    const { form } = await signIn();
    const response = responseDocument(form.samlResponse);

    expect(response.getAttribute('Destination')).toBe(sp.acsUrl);
    expect(response.getAttribute('InResponseTo')).toBe('_request-77');
    expect(children(response, ASSERTION_NS, 'Issuer')[0]?.textContent).toBe(idp.entityId);
    expect(children(response, SIGNATURE_NS, 'Signature')).toHaveLength(1);
    const [assertion] = children(response, ASSERTION_NS, 'Assertion');
    expect(assertion && children(assertion, SIGNATURE_NS, 'Signature')).toHaveLength(1);
    const nameId = elements(response, ASSERTION_NS, 'NameID')[0];
    expect(nameId?.textContent).toBe(grace.email);
    expect(nameId?.getAttribute('Format')).toBe(
      'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    );
    const confirmation = elements(response, ASSERTION_NS, 'SubjectConfirmationData')[0];
    expect(confirmation?.getAttribute('Recipient')).toBe(sp.acsUrl);
    expect(confirmation?.getAttribute('InResponseTo')).toBe('_request-77');
    expect(elements(response, ASSERTION_NS, 'Audience')[0]?.textContent).toBe(sp.entityId);
    const attributes = Object.fromEntries(
      elements(response, ASSERTION_NS, 'Attribute').map((attribute) => [
        attribute.getAttribute('Name') ?? '',
        attribute.textContent,
      ]),
    );
    expect(attributes).toEqual({ email: grace.email, givenName: 'Grace', sn: 'Hopper' });
  });

  it('says a password was used, or a password and a security key when the box is ticked', async () => {
    const classRef = (samlResponse: string) =>
      elements(responseDocument(samlResponse), ASSERTION_NS, 'AuthnContextClassRef')[0]
        ?.textContent;

    expect(classRef((await signIn()).form.samlResponse)).toBe(PASSWORD_CONTEXT);
    expect(classRef((await signIn({ securityKey: 'yes' })).form.samlResponse)).toBe(
      SECURITY_KEY_CONTEXT,
    );
  });

  it('to Cancel is a signed Responder/AuthnFailed response without an assertion', async () => {
    const { form } = await signIn({ action: 'cancel', password: '' });
    const response = responseDocument(form.samlResponse);

    expect(form.relayState).toBe('relay-7');
    const [status] = children(response, PROTOCOL_NS, 'Status');
    const [code] = status ? children(status, PROTOCOL_NS, 'StatusCode') : [];
    expect(code?.getAttribute('Value')).toBe(SAML_STATUS.responder);
    expect(code && children(code, PROTOCOL_NS, 'StatusCode')[0]?.getAttribute('Value')).toBe(
      SAML_STATUS.authnFailed,
    );
    expect(response.getAttribute('InResponseTo')).toBe('_request-77');
    expect(children(response, ASSERTION_NS, 'Assertion')).toHaveLength(0);
    expect(children(response, SIGNATURE_NS, 'Signature')).toHaveLength(1);
  });

  it('signs the Assertion only when the provider is told not to sign the Response', async () => {
    const legacy = await startSamlIdentityProvider({
      name: 'Acme legacy sign-in',
      accounts: [grace],
      signResponse: false,
    });
    try {
      legacy.addServiceProvider(sp);
      const { form } = await signIn({}, legacy);
      const response = responseDocument(form.samlResponse);

      expect(children(response, SIGNATURE_NS, 'Signature')).toHaveLength(0);
      const [assertion] = children(response, ASSERTION_NS, 'Assertion');
      expect(assertion && children(assertion, SIGNATURE_NS, 'Signature')).toHaveLength(1);
    } finally {
      await legacy.stop();
    }
  });
});

describe('the metadata', () => {
  it('is served at the entity id, with the signing certificate and the SSO service', async () => {
    const answer = await fetch(idp.entityId);
    const xml = await answer.text();

    expect(answer.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    expect(xml).toContain(`entityID="${idp.entityId}"`);
    expect(xml).toContain(`Location="${idp.ssoUrl}"`);
    const base64 = idp.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(xml).toContain(base64);
  });
});

describe('readAuthnRequest', () => {
  it('reads the ID, Issuer, ACS, Destination and RelayState of a redirect', () => {
    expect(readAuthnRequest(authnRequestUrl(idp, { id: '_abc' }))).toEqual({
      id: '_abc',
      issuer: sp.entityId,
      acsUrl: sp.acsUrl,
      destination: idp.ssoUrl,
      relayState: 'relay-7',
    });
  });
});

describe('createSamlSigningKey', () => {
  it('makes a self-signed certificate node:crypto reads, of the key it gives', async () => {
    const key = await createSamlSigningKey('Test & Co');
    const certificate = new X509Certificate(key.certificate);

    expect(certificate.subject).toBe('CN=Test & Co');
    expect(certificate.issuer).toBe('CN=Test & Co');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(key.privateKey))).toBe(true);
    expect(createPublicKey(key.certificate).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(new Date(certificate.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(
      Date.now() + 9 * 365 * 24 * 60 * 60_000,
    );
  });
});
