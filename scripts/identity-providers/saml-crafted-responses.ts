import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import type { SamlServiceProviderEndpoints } from './saml-vocabulary.ts';
import type { SamlSigningKey } from './saml-signing-keys.ts';
import {
  ASSERTION_NS,
  BASIC_ATTRIBUTE_FORMAT,
  BEARER,
  EMAIL_ADDRESS_FORMAT,
  PASSWORD_CONTEXT,
  PROTOCOL_NS,
  SAML_STATUS,
  SIGNATURE_NS,
  childElement,
  samlId,
} from './saml-vocabulary.ts';

/**
 * Responses of the test SAML identity provider crafted by hand, for the attack tests and for the
 * provider's own refusals: the XML is written here and signed with xml-crypto (not by samlify,
 * which makes the honest answers), so that every field can be wrong, either signature left out or
 * made with a foreign key, and the signed assertion wrapped as signature-wrapping attacks do.
 */

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const FIVE_MINUTES_MS = 5 * 60_000;

/** What {@link craftSamlResponse} signs with. */
export interface SamlIssuerKeys {
  readonly entityId: string;
  /** The key the service provider trusts. */
  readonly own: SamlSigningKey;
  /** Another key: an attacker's, or the next key of a rotation the service provider trusts too. */
  readonly foreign: SamlSigningKey;
}

export type SamlWrapping =
  | 'none'
  /** An unsigned assertion naming someone else, beside the signed one. */
  | 'extra-unsigned-assertion'
  /** The signed assertion put in the Advice of an unsigned one of the same ID, naming someone else. */
  | 'evil-with-signed-in-advice'
  /** The signed assertion moved into the Response's Extensions, an unsigned one in its place. */
  | 'signed-moved-to-extensions';

/**
 * A Response as an attacker or a broken provider would send it. Everything defaults to an honest
 * answer to `inResponseTo`: signed Response and Assertion, for the service provider given.
 */
export interface CraftedResponseOptions {
  /** The AuthnRequest's ID, on the Response and on the bearer confirmation; null: left out. */
  readonly inResponseTo: string | null;
  /** The bearer confirmation's InResponseTo, when it must differ from the Response's. */
  readonly subjectInResponseTo?: string | null;
  /** The Response's Issuer; null: left out. */
  readonly issuer?: string | null;
  readonly assertionIssuer?: string;
  /** The Response's Destination; null: left out. */
  readonly destination?: string | null;
  readonly recipient?: string;
  readonly audience?: string;
  readonly nameId?: string;
  readonly nameIdFormat?: string;
  /** Attribute name to value; `{ email: nameId }` unless given. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Of the Response and the Assertion. */
  readonly issueInstant?: Date;
  readonly notBefore?: Date;
  /** Of the Conditions, and of the bearer confirmation unless `subjectNotOnOrAfter` is given. */
  readonly notOnOrAfter?: Date;
  readonly subjectNotOnOrAfter?: Date;
  /** null: no AuthnStatement. */
  readonly authnContextClassRef?: string | null;
  readonly statusCode?: string;
  readonly subStatusCode?: string;
  /** Whether an Assertion is sent at all; by default only with a Success status. */
  readonly withAssertion?: boolean;
  readonly assertionId?: string;
  readonly signAssertion?: boolean;
  readonly signResponse?: boolean;
  readonly signingKey?: 'own' | 'foreign';
  /** Applied after signing, as an attacker holding a genuine response would. */
  readonly wrap?: SamlWrapping;
  /** Whom the unsigned assertion of a wrapping names. */
  readonly evilNameId?: string;
  /** Edits the final XML (after signing and wrapping). */
  readonly tamper?: (xml: string) => string;
}

/**
 * A Response (base64, as the HTTP-POST binding carries it) for the attack tests: every field can
 * be wrong, either signature left out or made with a foreign key, and the signed assertion wrapped
 * the ways signature-wrapping attacks do. Also the identity provider's own refusals (Cancel).
 */
export function craftSamlResponse(
  issuer: SamlIssuerKeys,
  sp: SamlServiceProviderEndpoints,
  options: CraftedResponseOptions,
): string {
  const now = Date.now();
  const issueInstant = options.issueInstant ?? new Date(now);
  const notOnOrAfter = options.notOnOrAfter ?? new Date(now + FIVE_MINUTES_MS);
  const key = options.signingKey === 'foreign' ? issuer.foreign : issuer.own;
  const statusCode = options.statusCode ?? SAML_STATUS.success;
  const withAssertion = options.withAssertion ?? statusCode === SAML_STATUS.success;
  const nameId = options.nameId ?? 'member@example.test';
  const assertionId = options.assertionId ?? samlId();

  const assertionFields: AssertionFields = {
    id: assertionId,
    issuer: options.assertionIssuer ?? issuer.entityId,
    issueInstant,
    nameId,
    nameIdFormat: options.nameIdFormat ?? EMAIL_ADDRESS_FORMAT,
    inResponseTo:
      options.subjectInResponseTo === undefined
        ? options.inResponseTo
        : options.subjectInResponseTo,
    recipient: options.recipient ?? sp.acsUrl,
    subjectNotOnOrAfter: options.subjectNotOnOrAfter ?? notOnOrAfter,
    notBefore: options.notBefore ?? new Date(now),
    notOnOrAfter,
    audience: options.audience ?? sp.entityId,
    authnContextClassRef:
      options.authnContextClassRef === undefined ? PASSWORD_CONTEXT : options.authnContextClassRef,
    attributes: options.attributes ?? { email: nameId },
  };
  let assertion = '';
  if (withAssertion) {
    assertion = assertionXml(assertionFields);
    if (options.signAssertion ?? true) assertion = signed(assertion, key);
  }

  const responseIssuer = options.issuer === undefined ? issuer.entityId : options.issuer;
  const destination = options.destination === undefined ? sp.acsUrl : options.destination;
  const subStatus = options.subStatusCode
    ? `<samlp:StatusCode Value="${escapeXml(options.subStatusCode)}"/>`
    : '';
  let response =
    `<samlp:Response xmlns:samlp="${PROTOCOL_NS}" xmlns:saml="${ASSERTION_NS}" ID="${samlId()}"` +
    ` Version="2.0" IssueInstant="${issueInstant.toISOString()}"` +
    optionalAttribute('Destination', destination) +
    optionalAttribute('InResponseTo', options.inResponseTo) +
    '>' +
    (responseIssuer === null ? '' : `<saml:Issuer>${escapeXml(responseIssuer)}</saml:Issuer>`) +
    `<samlp:Status><samlp:StatusCode Value="${escapeXml(statusCode)}">${subStatus}` +
    '</samlp:StatusCode></samlp:Status>' +
    assertion +
    '</samlp:Response>';
  if (options.signResponse ?? true) response = signed(response, key);

  const wrap = options.wrap ?? 'none';
  if (wrap !== 'none') {
    response = wrapped(response, wrap, (id) =>
      assertionXml({
        ...assertionFields,
        id,
        nameId: options.evilNameId ?? 'victim@example.test',
        attributes: { email: options.evilNameId ?? 'victim@example.test' },
      }),
    );
  }
  if (options.tamper) response = options.tamper(response);
  return Buffer.from(response, 'utf8').toString('base64');
}

interface AssertionFields {
  readonly id: string;
  readonly issuer: string;
  readonly issueInstant: Date;
  readonly nameId: string;
  readonly nameIdFormat: string;
  readonly inResponseTo: string | null;
  readonly recipient: string;
  readonly subjectNotOnOrAfter: Date;
  readonly notBefore: Date;
  readonly notOnOrAfter: Date;
  readonly audience: string;
  readonly authnContextClassRef: string | null;
  readonly attributes: Readonly<Record<string, string>>;
}

function assertionXml(fields: AssertionFields): string {
  const attributes = Object.entries(fields.attributes);
  return (
    `<saml:Assertion xmlns:saml="${ASSERTION_NS}" ID="${escapeXml(fields.id)}" Version="2.0"` +
    ` IssueInstant="${fields.issueInstant.toISOString()}">` +
    `<saml:Issuer>${escapeXml(fields.issuer)}</saml:Issuer>` +
    '<saml:Subject>' +
    `<saml:NameID Format="${escapeXml(fields.nameIdFormat)}">${escapeXml(fields.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${BEARER}"><saml:SubjectConfirmationData` +
    optionalAttribute('InResponseTo', fields.inResponseTo) +
    ` NotOnOrAfter="${fields.subjectNotOnOrAfter.toISOString()}"` +
    ` Recipient="${escapeXml(fields.recipient)}"/></saml:SubjectConfirmation>` +
    '</saml:Subject>' +
    `<saml:Conditions NotBefore="${fields.notBefore.toISOString()}"` +
    ` NotOnOrAfter="${fields.notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(fields.audience)}</saml:Audience>` +
    '</saml:AudienceRestriction></saml:Conditions>' +
    (fields.authnContextClassRef === null
      ? ''
      : `<saml:AuthnStatement AuthnInstant="${fields.issueInstant.toISOString()}"` +
        ` SessionIndex="${samlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>` +
        `${escapeXml(fields.authnContextClassRef)}</saml:AuthnContextClassRef>` +
        '</saml:AuthnContext></saml:AuthnStatement>') +
    (attributes.length === 0
      ? ''
      : '<saml:AttributeStatement>' +
        attributes
          .map(
            ([name, value]) =>
              `<saml:Attribute Name="${escapeXml(name)}" NameFormat="${BASIC_ATTRIBUTE_FORMAT}">` +
              `<saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
          )
          .join('') +
        '</saml:AttributeStatement>') +
    '</saml:Assertion>'
  );
}

/** The document's root signed (enveloped, exclusive c14n, RSA-SHA256), after its Issuer. */
function signed(xml: string, key: SamlSigningKey): string {
  const signature = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXCLUSIVE_C14N,
  });
  signature.addReference({
    xpath: '/*',
    transforms: [ENVELOPED_SIGNATURE, EXCLUSIVE_C14N],
    digestAlgorithm: SHA256,
  });
  const hasIssuer = /^<[^>]*>\s*<saml:Issuer>/.test(xml);
  signature.computeSignature(xml, {
    prefix: 'ds',
    location: hasIssuer
      ? { reference: "/*/*[local-name(.)='Issuer']", action: 'after' }
      : { reference: '/*', action: 'prepend' },
  });
  return signature.getSignedXml();
}

/** The signed assertion of `responseXml` moved or joined as a wrapping attack does. */
function wrapped(
  responseXml: string,
  wrap: Exclude<SamlWrapping, 'none'>,
  evilAssertion: (id: string) => string,
): string {
  const document = new DOMParser().parseFromString(responseXml, 'text/xml');
  // xmldom's documentElement is null when there is no element, whatever the types say.
  const response = document.documentElement as Element | null;
  const genuine = childElement(response, ASSERTION_NS, 'Assertion');
  if (!response || !genuine) throw new Error('Only a response with an assertion can be wrapped');
  const evil = (id: string, withCopiedSignature: boolean) => {
    const element = document.importNode(
      new DOMParser().parseFromString(evilAssertion(id), 'text/xml').documentElement,
      true,
    );
    const signature = childElement(genuine, SIGNATURE_NS, 'Signature');
    const issuer = childElement(element, ASSERTION_NS, 'Issuer');
    // A signature copied beside the evil content, as XSW attacks do, so that a verifier looking
    // for "a signature on this assertion" finds one.
    if (withCopiedSignature && signature && issuer) {
      element.insertBefore(signature.cloneNode(true), issuer.nextSibling);
    }
    return element;
  };
  const genuineId = genuine.getAttribute('ID') ?? '';
  if (wrap === 'extra-unsigned-assertion') {
    response.insertBefore(evil(samlId(), false), genuine);
  } else if (wrap === 'evil-with-signed-in-advice') {
    const element = evil(genuineId, true);
    response.replaceChild(element, genuine);
    const advice = document.createElementNS(ASSERTION_NS, 'saml:Advice');
    advice.appendChild(genuine);
    element.insertBefore(advice, childElement(element, ASSERTION_NS, 'AuthnStatement'));
  } else {
    const element = evil(samlId(), true);
    response.replaceChild(element, genuine);
    const extensions = document.createElementNS(PROTOCOL_NS, 'samlp:Extensions');
    extensions.appendChild(genuine);
    response.insertBefore(extensions, childElement(response, PROTOCOL_NS, 'Status'));
  }
  return new XMLSerializer().serializeToString(document);
}

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function optionalAttribute(name: string, value: string | null): string {
  return value === null ? '' : ` ${name}="${escapeXml(value)}"`;
}
