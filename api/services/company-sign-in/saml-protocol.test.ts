import { createPublicKey, randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CraftedResponseOptions,
  PASSWORD_CONTEXT,
  type PostBindingForm,
  SAML_STATUS,
  type SamlAccount,
  SECURITY_KEY_CONTEXT,
  type SamlIdentityProvider,
  readAuthnRequest,
  readPostBindingPage,
  startSamlIdentityProvider,
} from '../../../scripts/identity-providers/saml-identity-provider.ts';
import {
  type SamlConnectionSettings,
  SamlRefusal,
  samlSignInRequest,
  serviceProviderMetadata,
  verifySamlResponse,
} from './saml-protocol.ts';

const sp = {
  entityId: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/metadata',
  acsUrl: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/acs',
};
const ada: SamlAccount = {
  email: 'ada@acme.test',
  password: 'analytical engine 1843',
  givenName: 'Ada',
  familyName: 'Lovelace',
};
const MINUTE_MS = 60_000;

let idp: SamlIdentityProvider;
let assertionOnlyIdp: SamlIdentityProvider;

beforeAll(async () => {
  [idp, assertionOnlyIdp] = await Promise.all([
    startSamlIdentityProvider({ name: 'Acme sign-in', accounts: [ada] }),
    startSamlIdentityProvider({
      name: 'Acme legacy sign-in',
      accounts: [ada],
      signResponse: false,
    }),
  ]);
  idp.addServiceProvider(sp);
  assertionOnlyIdp.addServiceProvider(sp);
});

afterAll(async () => {
  await Promise.all([idp.stop(), assertionOnlyIdp.stop()]);
});

function settingsFor(
  provider: SamlIdentityProvider,
  overrides: Partial<SamlConnectionSettings> = {},
): SamlConnectionSettings {
  return {
    idpEntityId: provider.entityId,
    ssoUrl: provider.ssoUrl,
    idpCertificates: [provider.certificate],
    requireSignedResponse: true,
    spEntityId: sp.entityId,
    acsUrl: sp.acsUrl,
    ...overrides,
  };
}

function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** A response of `idp`'s to a new request: honest unless `options` say otherwise. */
function crafted(options: Partial<CraftedResponseOptions> = {}) {
  const requestId = newRequestId();
  return { requestId, response: idp.craftResponse(sp, { inResponseTo: requestId, ...options }) };
}

async function refusalCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SamlRefusal);
  return (error as SamlRefusal).code;
}

/** A sign-in through the identity provider's pages, as a browser without JavaScript does it. */
async function signInAt(
  provider: SamlIdentityProvider,
  options: { securityKey?: boolean; cancel?: boolean } = {},
): Promise<{ requestId: string; form: PostBindingForm }> {
  const { redirectUrl, requestId } = await samlSignInRequest(settingsFor(provider), 'relay-42');
  const loginPage = await (await fetch(redirectUrl)).text();
  const pending = /name="pending" value="([^"]+)"/.exec(loginPage)?.[1] ?? '';
  const fields = new URLSearchParams({
    pending,
    email: ada.email,
    password: ada.password,
    action: options.cancel ? 'cancel' : 'sign-in',
  });
  if (options.securityKey) fields.set('securityKey', 'yes');
  const answer = await fetch(new URL('/sso/login', provider.ssoUrl), {
    method: 'POST',
    body: fields,
  });
  expect(answer.status).toBe(200);
  return { requestId, form: readPostBindingPage(await answer.text()) };
}

describe('samlSignInRequest', () => {
  it("gives a URL of the identity provider's SSO service carrying the AuthnRequest and RelayState", async () => {
    const settings = settingsFor(idp);
    const { redirectUrl, requestId } = await samlSignInRequest(settings, 'relay-1');

    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('relay-1');
    const xml = inflateRawSync(
      Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64'),
    ).toString('utf8');
    expect(xml).toContain(`ID="${requestId}"`);
    expect(xml).toContain(`AssertionConsumerServiceURL="${sp.acsUrl}"`);
    expect(readAuthnRequest(url)).toEqual({
      id: requestId,
      issuer: sp.entityId,
      acsUrl: sp.acsUrl,
      destination: idp.ssoUrl,
      relayState: 'relay-1',
    });
  });

  it('makes a new request ID each time', async () => {
    const first = await samlSignInRequest(settingsFor(idp), 'relay');
    const second = await samlSignInRequest(settingsFor(idp), 'relay');

    expect(first.requestId).not.toBe(second.requestId);
  });
});

describe('serviceProviderMetadata', () => {
  it('names our entity id and our ACS for the HTTP-POST binding, and wants signed assertions', () => {
    const xml = serviceProviderMetadata(settingsFor(idp));

    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toMatch(
      new RegExp(
        `<AssertionConsumerService [^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${sp.acsUrl}"`,
      ),
    );
    expect(xml).toContain(
      '<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>',
    );
    expect(xml).toContain('AuthnRequestsSigned="false"');
    expect(xml).toContain('WantAssertionsSigned="true"');
  });
});

describe('verifySamlResponse', () => {
  it('accepts an honest response of the identity provider and says who signed in, and how', async () => {
    const before = Date.now();
    const { requestId, form } = await signInAt(idp);

    expect(form.action).toBe(sp.acsUrl);
    expect(form.relayState).toBe('relay-42');
    const identity = await verifySamlResponse(settingsFor(idp), form.samlResponse, requestId);
    expect(identity).toEqual({
      nameId: ada.email,
      email: ada.email,
      givenName: 'Ada',
      familyName: 'Lovelace',
      assertionId: expect.stringMatching(/^_/) as unknown,
      authnContextClassRef: PASSWORD_CONTEXT,
      notOnOrAfter: expect.any(Date) as unknown,
    });
    // The IdP's five minutes, plus the accepted clock skew.
    const remembered = identity.notOnOrAfter?.getTime() ?? 0;
    expect(remembered).toBeGreaterThanOrEqual(before + 6 * MINUTE_MS);
    expect(remembered).toBeLessThanOrEqual(Date.now() + 6 * MINUTE_MS);
  });

  it('reads the stronger AuthnContextClassRef of a sign-in with a security key', async () => {
    const { requestId, form } = await signInAt(idp, { securityKey: true });

    const identity = await verifySamlResponse(settingsFor(idp), form.samlResponse, requestId);
    expect(identity.authnContextClassRef).toBe(SECURITY_KEY_CONTEXT);
  });

  it('refuses with "status" the signed refusal the identity provider sends on Cancel', async () => {
    const { requestId, form } = await signInAt(idp, { cancel: true });

    expect(form.relayState).toBe('relay-42');
    expect(
      await refusalCode(verifySamlResponse(settingsFor(idp), form.samlResponse, requestId)),
    ).toBe('status');
  });

  it('accepts assertion-only signing when the connection does not require a signed response', async () => {
    const { requestId, form } = await signInAt(assertionOnlyIdp);

    const identity = await verifySamlResponse(
      settingsFor(assertionOnlyIdp, { requireSignedResponse: false }),
      form.samlResponse,
      requestId,
    );
    expect(identity.email).toBe(ada.email);
  });

  it('refuses assertion-only signing when the response must be signed', async () => {
    const { requestId, form } = await signInAt(assertionOnlyIdp);

    expect(
      await refusalCode(
        verifySamlResponse(settingsFor(assertionOnlyIdp), form.samlResponse, requestId),
      ),
    ).toBe('signature');
  });

  it('accepts a crafted honest response, the baseline of the refusals below', async () => {
    const { requestId, response } = crafted({ nameId: ada.email });

    const identity = await verifySamlResponse(settingsFor(idp), response, requestId);
    expect(identity.nameId).toBe(ada.email);
    expect(identity.email).toBe(ada.email);
  });

  const now = Date.now();
  it.each<[string, Partial<CraftedResponseOptions>, string]>([
    ['an unsigned response', { signAssertion: false, signResponse: false }, 'signature'],
    ['a signed response whose assertion is not signed', { signAssertion: false }, 'signature'],
    ['assertion-only signing', { signResponse: false }, 'signature'],
    [
      'a response signed by a key the connection does not trust',
      { signingKey: 'foreign' },
      'signature',
    ],
    ['an assertion for another audience', { audience: 'https://other.test/metadata' }, 'audience'],
    ['an expired assertion', { notOnOrAfter: new Date(now - 10 * MINUTE_MS) }, 'expired'],
    ['an assertion not valid yet', { notBefore: new Date(now + 10 * MINUTE_MS) }, 'not_yet_valid'],
    [
      'an assertion issued too long ago',
      { issueInstant: new Date(now - 10 * MINUTE_MS) },
      'expired',
    ],
    [
      'a bearer confirmation for another Recipient',
      { recipient: 'https://evil.test/acs' },
      'recipient',
    ],
    ['a response to another Destination', { destination: 'https://evil.test/acs' }, 'destination'],
    ['a signed response without Destination', { destination: null }, 'destination'],
    ['a response from another Issuer', { issuer: 'https://evil.test/idp' }, 'issuer'],
    ['a signed response without Issuer', { issuer: null }, 'issuer'],
    ['an assertion from another Issuer', { assertionIssuer: 'https://evil.test/idp' }, 'issuer'],
    ['a response to another request', { inResponseTo: '_another-request' }, 'in_response_to'],
    ['an unsolicited response', { inResponseTo: null }, 'in_response_to'],
    [
      'a bearer confirmation answering another request',
      { subjectInResponseTo: '_another-request' },
      'in_response_to',
    ],
    ['a bearer confirmation answering no request', { subjectInResponseTo: null }, 'in_response_to'],
    [
      'a non-Success status beside an assertion',
      { statusCode: SAML_STATUS.responder, withAssertion: true },
      'status',
    ],
    [
      'a signed AuthnFailed',
      { statusCode: SAML_STATUS.responder, subStatusCode: SAML_STATUS.authnFailed },
      'status',
    ],
    [
      'an unsigned AuthnFailed',
      {
        statusCode: SAML_STATUS.responder,
        subStatusCode: SAML_STATUS.authnFailed,
        signResponse: false,
      },
      'signature',
    ],
  ])('refuses %s', async (_name, options, code) => {
    const { requestId, response } = crafted(options);

    expect(await refusalCode(verifySamlResponse(settingsFor(idp), response, requestId))).toBe(code);
  });

  it('refuses a response whose request is not the sign-in it is posted to', async () => {
    const { response } = crafted();

    expect(await refusalCode(verifySamlResponse(settingsFor(idp), response, newRequestId()))).toBe(
      'in_response_to',
    );
  });

  describe('when only the assertion must be signed', () => {
    const settings = () => settingsFor(idp, { requireSignedResponse: false });

    it.each<[string, Partial<CraftedResponseOptions>, string]>([
      ['an unsigned assertion', { signAssertion: false, signResponse: false }, 'signature'],
      ['a foreign key', { signingKey: 'foreign', signResponse: false }, 'signature'],
      [
        'another Recipient',
        { recipient: 'https://evil.test/acs', signResponse: false },
        'recipient',
      ],
      // Unsigned, so never trusted; but when it is there and wrong, the response is refused.
      [
        'another Destination',
        { destination: 'https://evil.test/acs', signResponse: false },
        'destination',
      ],
      [
        'another Issuer of the response',
        { issuer: 'https://evil.test/idp', signResponse: false },
        'issuer',
      ],
      [
        'another Issuer of the assertion',
        { assertionIssuer: 'https://evil.test/idp', signResponse: false },
        'issuer',
      ],
      [
        'a bearer confirmation answering another request',
        { subjectInResponseTo: '_another-request', signResponse: false },
        'in_response_to',
      ],
    ])('refuses %s', async (_name, options, code) => {
      const { requestId, response } = crafted(options);

      expect(await refusalCode(verifySamlResponse(settings(), response, requestId))).toBe(code);
    });

    it('accepts a response without Destination or Issuer: only the assertion vouches', async () => {
      const { requestId, response } = crafted({
        signResponse: false,
        destination: null,
        issuer: null,
      });

      expect((await verifySamlResponse(settings(), response, requestId)).nameId).toBe(
        'member@example.test',
      );
    });
  });

  describe('against signature wrapping', () => {
    it.each([
      ['extra-unsigned-assertion', true],
      ['evil-with-signed-in-advice', true],
      ['signed-moved-to-extensions', true],
      ['extra-unsigned-assertion', false],
      ['evil-with-signed-in-advice', false],
      ['signed-moved-to-extensions', false],
    ] as const)(
      'refuses the signed assertion wrapped as %s (response signed: %s)',
      async (wrap, requireSignedResponse) => {
        const { requestId, response } = crafted({
          nameId: 'attacker@acme.test',
          evilNameId: 'victim@acme.test',
          signResponse: requireSignedResponse,
          wrap,
        });

        expect(
          await refusalCode(
            verifySamlResponse(settingsFor(idp, { requireSignedResponse }), response, requestId),
          ),
        ).toBe('signature');
      },
    );

    it.each([true, false])(
      'reads a NameID with a comment inside whole, not up to the comment (response signed: %s)',
      async (requireSignedResponse) => {
        const { requestId, response } = crafted({
          nameId: 'victim@acme.test.evil.test',
          signResponse: requireSignedResponse,
          // Comments are not signed (exclusive c14n without comments): the signature still holds.
          tamper: (xml) =>
            xml.replace(
              '>victim@acme.test.evil.test</saml:NameID>',
              '>victim@acme.test<!---->.evil.test</saml:NameID>',
            ),
        });
        expect(Buffer.from(response, 'base64').toString()).toContain('<!---->');

        const identity = await verifySamlResponse(
          settingsFor(idp, { requireSignedResponse }),
          response,
          requestId,
        );
        expect(identity.nameId).toBe('victim@acme.test.evil.test');
        expect(identity.email).toBe('victim@acme.test.evil.test');
      },
    );

    it('refuses a signed assertion whose NameID was changed', async () => {
      const { requestId, response } = crafted({
        nameId: 'attacker@acme.test',
        signResponse: false,
        tamper: (xml) => xml.replaceAll('attacker@acme.test', 'victim@acme.test'),
      });

      expect(
        await refusalCode(
          verifySamlResponse(
            settingsFor(idp, { requireSignedResponse: false }),
            response,
            requestId,
          ),
        ),
      ).toBe('signature');
    });
  });

  it.each([
    ['an empty string', ''],
    ['text that is not base64', 'not base64 at all!'],
    ['base64 of text that is not XML', Buffer.from('hello').toString('base64')],
    ['XML that is not a SAML Response', Buffer.from('<foo/>').toString('base64')],
    [
      'a Response with a DOCTYPE',
      Buffer.from(
        '<!DOCTYPE r [<!ENTITY e "x">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
      ).toString('base64'),
    ],
  ])('refuses %s as malformed', async (_name, samlResponse) => {
    expect(
      await refusalCode(verifySamlResponse(settingsFor(idp), samlResponse, newRequestId())),
    ).toBe('malformed');
  });

  it('accepts a response signed by the second of two certificates, as during a rotation', async () => {
    const { requestId, response } = crafted({ signingKey: 'foreign' });

    const identity = await verifySamlResponse(
      settingsFor(idp, { idpCertificates: [idp.certificate, idp.foreignCertificate] }),
      response,
      requestId,
    );
    expect(identity.nameId).toBe('member@example.test');
  });

  it('accepts a PUBLIC KEY PEM in place of a certificate', async () => {
    const { requestId, response } = crafted();
    const publicKey = createPublicKey(idp.certificate).export({ type: 'spki', format: 'pem' });

    const identity = await verifySamlResponse(
      settingsFor(idp, { idpCertificates: [publicKey.toString()] }),
      response,
      requestId,
    );
    expect(identity.nameId).toBe('member@example.test');
  });

  it('takes the email and names from the attributes when the NameID is not an address', async () => {
    const { requestId, response } = crafted({
      nameId: 'c2b1f7a0-persistent',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: {
        'urn:oid:0.9.2342.19200300.100.1.3': 'ada@acme.test',
        'urn:oid:2.5.4.42': 'Ada',
        'urn:oid:2.5.4.4': 'Lovelace',
      },
      authnContextClassRef: null,
    });

    expect(await verifySamlResponse(settingsFor(idp), response, requestId)).toMatchObject({
      nameId: 'c2b1f7a0-persistent',
      email: 'ada@acme.test',
      givenName: 'Ada',
      familyName: 'Lovelace',
      authnContextClassRef: undefined,
    });
  });

  it('has no email when the NameID is not an address and no attribute gives one', async () => {
    const { requestId, response } = crafted({
      nameId: 'c2b1f7a0-persistent',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { mail: ' ', surname: 'Lovelace' },
    });

    expect(await verifySamlResponse(settingsFor(idp), response, requestId)).toMatchObject({
      email: undefined,
      givenName: undefined,
      familyName: 'Lovelace',
    });
  });

  it('remembers an assertion ID until its earliest limit, plus the clock skew', async () => {
    const notOnOrAfter = new Date(Date.now() + 2 * MINUTE_MS);
    const { requestId, response } = crafted({ notOnOrAfter, assertionId: '_assertion-1' });

    const identity = await verifySamlResponse(settingsFor(idp), response, requestId);
    expect(identity.assertionId).toBe('_assertion-1');
    expect(identity.notOnOrAfter).toEqual(new Date(notOnOrAfter.getTime() + MINUTE_MS));
  });

  it('says nothing the response carried in the message of a refusal', async () => {
    const { requestId, response } = crafted({
      nameId: 'secret-person@acme.test',
      audience: 'https://other-audience.test/metadata',
    });

    const error = await verifySamlResponse(settingsFor(idp), response, requestId).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SamlRefusal);
    expect((error as SamlRefusal).message).toBe(
      'SAML response refused (audience): node-saml: SAML assertion audience mismatch',
    );
  });
});
