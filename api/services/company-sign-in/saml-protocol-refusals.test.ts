import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CraftedResponseOptions } from '../../../scripts/identity-providers/saml-crafted-responses.ts';
import {
  type SamlIdentityProvider,
  startSamlIdentityProvider,
} from '../../../scripts/identity-providers/saml-identity-provider.ts';
import { SAML_STATUS } from '../../../scripts/identity-providers/saml-vocabulary.ts';
import { SamlRefusal, verifySamlResponse } from './saml-protocol.ts';
import {
  MINUTE_MS,
  ada,
  craftedBy,
  newRequestId,
  refusalCode,
  settingsFor,
  sp,
} from './saml-protocol-test-support.ts';

// What verifySamlResponse refuses, of responses crafted by a test identity provider: every field
// wrong in turn, signatures missing or foreign, signature wrapping, and what is not a Response.

let idp: SamlIdentityProvider;

beforeAll(async () => {
  idp = await startSamlIdentityProvider({ name: 'Acme sign-in', accounts: [ada] });
  idp.addServiceProvider(sp);
});

afterAll(async () => {
  await idp.stop();
});

/** A response of `idp`'s to a new request: honest unless `options` say otherwise. */
function crafted(options: Partial<CraftedResponseOptions> = {}) {
  return craftedBy(idp, options);
}

describe('verifySamlResponse', () => {
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
