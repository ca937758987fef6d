import {
  type CacheProvider,
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
} from '@node-saml/node-saml';
import {
  ACCEPTED_CLOCK_SKEW_MS,
  MAX_ASSERTION_AGE_MS,
  assertedIdentity,
} from './saml-assertion.ts';
import { SamlRefusal } from './saml-refusal.ts';
import type { SamlAssertedIdentity, SamlConnectionSettings } from './saml-settings.ts';
import {
  ASSERTION_NS,
  EMAIL_ADDRESS_FORMAT,
  ENTITY_FORMAT,
  PROTOCOL_NS,
  SIGNATURE_NS,
  attribute,
  childElements,
  decodeResponse,
  isElement,
  onlyChild,
  parseXml,
  text,
} from './saml-xml.ts';

/**
 * The SAML 2.0 service provider's side of company sign-in, on @node-saml/node-saml (>= 5.1.0,
 * which reads the assertion only from the bytes whose signature it verified): the AuthnRequest
 * (HTTP-Redirect binding), the check of the Response (HTTP-POST binding), and our metadata.
 *
 * node-saml checks the signatures, the audience, the time window and InResponseTo. It does not
 * check the bearer confirmation's Recipient, the Response's Destination, either Issuer, or the
 * status of a Response that carries an assertion: this module does, on the signed elements only.
 * Nothing here is stored: the caller keeps the request ID on its sign-in row, consumes that row
 * once (which refuses a replayed response) and keeps assertion IDs unique. The signed assertion is
 * read by saml-assertion.ts, the XML by saml-xml.ts.
 */

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

export interface SamlSignInRequest {
  readonly redirectUrl: string;
  readonly requestId: string;
}

/** Defined in saml-refusal.ts, which the checks of saml-assertion.ts and saml-xml.ts share. */
export { SamlRefusal };
export type { SamlAssertedIdentity, SamlConnectionSettings };

/** Builds the HTTP-Redirect binding URL of a new AuthnRequest, RelayState included. */
export async function samlSignInRequest(
  settings: SamlConnectionSettings,
  relayState: string,
): Promise<SamlSignInRequest> {
  let requestId: string | undefined;
  const saml = serviceProvider(settings, {
    saveAsync(key, value) {
      requestId = key;
      return Promise.resolve({ value, createdAt: Date.now() });
    },
    getAsync: () => Promise.resolve(null),
    removeAsync: () => Promise.resolve(null),
  });
  const redirectUrl = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  if (requestId === undefined)
    throw new Error('node-saml made an AuthnRequest without saving its ID');
  return { redirectUrl, requestId };
}

/** The SP metadata XML an IdP's administrator imports. */
export function serviceProviderMetadata(settings: SamlConnectionSettings): string {
  return serviceProvider(settings, unusedCache).generateServiceProviderMetadata(null, null);
}

/**
 * The request a SAMLResponse says it answers, read without any check: only to find the sign-in it
 * belongs to, whose own request ID {@link verifySamlResponse} then holds the response to.
 * Undefined when the response cannot be read or names none.
 */
export function claimedRequestId(samlResponse: string): string | undefined {
  let response;
  try {
    response = parseXml(decodeResponse(samlResponse))?.documentElement;
  } catch {
    return undefined;
  }
  if (!isElement(response, PROTOCOL_NS, 'Response')) return undefined;
  return attribute(response, 'InResponseTo');
}

/**
 * Verifies a base64 SAMLResponse (HTTP-POST binding) sent in answer to `expectedRequestId`.
 * node-saml checks the signatures (reading only the verified bytes), the audience, the time window
 * (60 s of skew, assertions at most 5 minutes old) and InResponseTo; then the bearer
 * SubjectConfirmationData's Recipient must be our ACS URL, the Response's Destination our ACS URL
 * when present (and present when the response is signed), the Response's and the Assertion's
 * Issuer the IdP's entity id, and the status Success. Throws {@link SamlRefusal}.
 */
export async function verifySamlResponse(
  settings: SamlConnectionSettings,
  samlResponse: string,
  expectedRequestId: string,
): Promise<SamlAssertedIdentity> {
  if (expectedRequestId === '') throw new SamlRefusal('in_response_to', 'no request to answer');
  const responseXml = decodeResponse(samlResponse);
  const response = parseXml(responseXml)?.documentElement;
  if (!isElement(response, PROTOCOL_NS, 'Response')) {
    throw new SamlRefusal('malformed', 'not a SAML Response');
  }

  const saml = serviceProvider(settings, {
    saveAsync: () => Promise.resolve(null),
    // Only the request of this sign-in is known; the caller's row says it is still open.
    getAsync: (key) => Promise.resolve(key === expectedRequestId ? new Date().toISOString() : null),
    removeAsync: () => Promise.resolve(null),
  });
  let profile;
  try {
    // The bytes parsed above, so that node-saml and these checks read the same document.
    ({ profile } = await saml.validatePostResponseAsync({
      SAMLResponse: Buffer.from(responseXml, 'utf8').toString('base64'),
    }));
  } catch (error) {
    throw refusalOf(error, response);
  }
  // A signed NoPassive answer: the IdP would not sign in without asking.
  if (!profile)
    throw new SamlRefusal('status', `the identity provider answered ${status(response)}`);
  if (profile.inResponseTo !== expectedRequestId) {
    throw new SamlRefusal('in_response_to', 'the response answers another request');
  }

  // With requireSignedResponse node-saml verified the signature of the root, which covers its
  // attributes and children; otherwise they may have been changed by anyone, and are only refused
  // when wrong, never trusted.
  const responseSigned =
    settings.requireSignedResponse || childElements(response, SIGNATURE_NS, 'Signature').length > 0;
  checkResponseIssuer(response, settings.idpEntityId, responseSigned);
  const destination = attribute(response, 'Destination');
  if (destination !== undefined ? destination !== settings.acsUrl : responseSigned) {
    throw new SamlRefusal('destination', 'the response is not addressed to our ACS URL');
  }
  if (attribute(topStatusCode(response), 'Value') !== SUCCESS) {
    throw new SamlRefusal('status', `the identity provider answered ${status(response)}`);
  }

  // The assertion as node-saml took it from the verified bytes.
  const assertionXml = profile.getAssertionXml?.();
  const assertion =
    assertionXml === undefined ? undefined : parseXml(assertionXml)?.documentElement;
  if (!isElement(assertion, ASSERTION_NS, 'Assertion')) {
    throw new SamlRefusal('malformed', 'the signed assertion cannot be read');
  }
  return assertedIdentity(assertion, settings, expectedRequestId);
}

function serviceProvider(settings: SamlConnectionSettings, cacheProvider: CacheProvider): SAML {
  if (settings.idpCertificates.length === 0) {
    throw new Error('A SAML connection needs at least one certificate of its identity provider');
  }
  return new SAML({
    entryPoint: settings.ssoUrl,
    issuer: settings.spEntityId,
    callbackUrl: settings.acsUrl,
    audience: settings.spEntityId,
    idpCert: [...settings.idpCertificates],
    idpIssuer: settings.idpEntityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: settings.requireSignedResponse,
    validateInResponseTo: ValidateInResponseTo.always,
    // The caller's sign-in row expires the request; node-saml's own limit only has to be longer.
    requestIdExpirationPeriodMs: 60 * 60_000,
    cacheProvider,
    acceptedClockSkewMs: ACCEPTED_CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    identifierFormat: EMAIL_ADDRESS_FORMAT,
    // Else node-saml asks for PasswordProtectedTransport exactly, and IdPs that did more refuse.
    disableRequestedAuthnContext: true,
  });
}

const unusedCache: CacheProvider = {
  saveAsync: () => Promise.resolve(null),
  getAsync: () => Promise.resolve(null),
  removeAsync: () => Promise.resolve(null),
};

function topStatusCode(response: Element): Element | undefined {
  const statusElement = onlyChild(response, PROTOCOL_NS, 'Status');
  return statusElement && onlyChild(statusElement, PROTOCOL_NS, 'StatusCode');
}

/** The top-level status code's last word, with the second level's when there is one. */
function status(response: Element): string {
  const code = topStatusCode(response);
  const subCode = code && onlyChild(code, PROTOCOL_NS, 'StatusCode');
  // Only the standard names: the rest of the status is the IdP's free text.
  const word = (element: Element | undefined) =>
    /^urn:oasis:names:tc:SAML:2\.0:status:([A-Za-z]+)$/.exec(
      attribute(element, 'Value') ?? '',
    )?.[1];
  const top = word(code);
  if (top === undefined) return 'no standard status';
  const second = word(subCode);
  return second === undefined ? top : `${top}/${second}`;
}

function checkResponseIssuer(response: Element, idpEntityId: string, required: boolean): void {
  const issuers = childElements(response, ASSERTION_NS, 'Issuer');
  if (issuers.length === 0 && !required) return;
  const issuer = issuers.length === 1 ? issuers[0] : undefined;
  const format = attribute(issuer, 'Format');
  if (text(issuer) !== idpEntityId || (format !== undefined && format !== ENTITY_FORMAT)) {
    throw new SamlRefusal('issuer', "the response's Issuer is not the identity provider");
  }
}

/**
 * node-saml's refusals by the start of their message: the code, and the words logged (node-saml's
 * own, up to where it would quote the response). The longest matching start wins.
 */
const NODE_SAML_REFUSALS: readonly (readonly [start: string, code: string])[] = [
  ['Invalid document signature', 'signature'],
  ['Invalid signature', 'signature'],
  ['Invalid signature: multiple assertions', 'signature'],
  ['Invalid signature: ID cannot refer to more than one element', 'signature'],
  ["Invalid signature: Referenced node does not refer to it's parent element", 'signature'],
  ['Invalid signature: NoPassive', 'signature'],
  ['Invalid signature: No response found', 'signature'],
  ['Invalid signature, too many transforms', 'signature'],
  ['Invalid signature from encrypted assertion', 'signature'],
  ['Too many signatures found for this element', 'signature'],
  ['Only 1 signed references should be present in signature', 'signature'],
  ['ref URI included quote character', 'signature'],
  ['signature reference uri not found', 'signature'],
  ['Cannot obtain assertion from signed data', 'signature'],
  ['InResponseTo is missing from response', 'in_response_to'],
  ['InResponseTo is not valid', 'in_response_to'],
  ['InResponseTo does not match subjectInResponseTo', 'in_response_to'],
  ['SubjectInResponseTo is not valid', 'in_response_to'],
  ['SAML assertion not yet valid', 'not_yet_valid'],
  ['SAML assertion expired: clocks skewed too much', 'expired'],
  ['SAML assertion expired: assertion too old', 'expired'],
  ['No valid subject confirmation found among those available in the SAML assertion', 'expired'],
  ['SAML assertion has no AudienceRestriction', 'audience'],
  ['SAML assertion AudienceRestriction has no Audience value', 'audience'],
  ['SAML assertion audience mismatch', 'audience'],
  ['No decryption key for encrypted SAML response', 'unsupported'],
  ['Invalid EncryptedAssertion content', 'unsupported'],
  ['Missing SAML assertion', 'malformed'],
  ['Unable to process multiple conditions in SAML assertion', 'malformed'],
  ['Unknown SAML response message', 'malformed'],
  ['Error parsing ', 'malformed'],
  ['Not a valid XML document', 'malformed'],
];

function refusalOf(error: unknown, response: Element): SamlRefusal {
  if (error instanceof SamlRefusal) return error;
  if (error instanceof SamlStatusError) {
    return new SamlRefusal('status', `the identity provider answered ${status(response)}`);
  }
  const message = error instanceof Error ? error.message : '';
  let match: (typeof NODE_SAML_REFUSALS)[number] | undefined;
  for (const refusal of NODE_SAML_REFUSALS) {
    if (message.startsWith(refusal[0]) && refusal[0].length > (match?.[0].length ?? 0)) {
      match = refusal;
    }
  }
  if (!match) {
    const name = error instanceof Error ? error.name : typeof error;
    return new SamlRefusal('invalid', `node-saml refused it with an unexpected ${name}`);
  }
  return new SamlRefusal(match[1], `node-saml: ${match[0].trim()}`);
}
