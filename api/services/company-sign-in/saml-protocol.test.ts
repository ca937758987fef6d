import { createPublicKey } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthnRequest } from '../../../scripts/identity-providers/saml-bindings.ts';
import type { CraftedResponseOptions } from '../../../scripts/identity-providers/saml-crafted-responses.ts';
import {
  type SamlIdentityProvider,
  startSamlIdentityProvider,
} from '../../../scripts/identity-providers/saml-identity-provider.ts';
import {
  PASSWORD_CONTEXT,
  SECURITY_KEY_CONTEXT,
} from '../../../scripts/identity-providers/saml-vocabulary.ts';
import { samlSignInRequest, serviceProviderMetadata, verifySamlResponse } from './saml-protocol.ts';
import {
  MINUTE_MS,
  ada,
  craftedBy,
  refusalCode,
  settingsFor,
  signInAt,
  sp,
} from './saml-protocol-test-support.ts';

// The AuthnRequest, our metadata, and verifySamlResponse on sign-ins through a test identity
// provider's pages and on what it reads of responses crafted to measure. Its refusals of crafted
// responses are in saml-protocol-refusals.test.ts.

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

/** A response of `idp`'s to a new request: honest unless `options` say otherwise. */
function crafted(options: Partial<CraftedResponseOptions> = {}) {
  return craftedBy(idp, options);
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
});
