import type { SamlAssertedIdentity, SamlConnectionSettings } from './saml-settings.ts';
import { SamlRefusal } from './saml-refusal.ts';
import {
  ASSERTION_NS,
  EMAIL_ADDRESS_FORMAT,
  ENTITY_FORMAT,
  attribute,
  childElements,
  instant,
  onlyChild,
  text,
} from './saml-xml.ts';

/**
 * The signed assertion of a SAML response, once node-saml has verified it: the checks node-saml
 * leaves out (the assertion's Issuer, the bearer confirmation's Recipient, request and time), and
 * who signed in, and how: the NameID, the email and names from the attributes, the
 * AuthnContextClassRef, and how long the assertion's ID must be remembered.
 */

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** The clock skew accepted, and how old an assertion may be: node-saml's limits and ours. */
export const ACCEPTED_CLOCK_SKEW_MS = 60_000;
export const MAX_ASSERTION_AGE_MS = 5 * 60_000;

/** Attribute names for each field, in order of preference: LDAP names, their OIDs, Microsoft's claims. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const GIVEN_NAME_ATTRIBUTES = [
  'givenName',
  'urn:oid:2.5.4.42',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
];
const FAMILY_NAME_ATTRIBUTES = [
  'sn',
  'surname',
  'urn:oid:2.5.4.4',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
];

/** What the signed assertion says, once the checks node-saml leaves out have passed. */
export function assertedIdentity(
  assertion: Element,
  settings: SamlConnectionSettings,
  expectedRequestId: string,
): SamlAssertedIdentity {
  const now = Date.now();
  const issuer = onlyChild(assertion, ASSERTION_NS, 'Issuer');
  const issuerFormat = attribute(issuer, 'Format');
  if (
    text(issuer) !== settings.idpEntityId ||
    (issuerFormat !== undefined && issuerFormat !== ENTITY_FORMAT)
  ) {
    throw new SamlRefusal('issuer', "the assertion's Issuer is not the identity provider");
  }

  const subject = onlyChild(assertion, ASSERTION_NS, 'Subject');
  const bearers = (subject ? childElements(subject, ASSERTION_NS, 'SubjectConfirmation') : [])
    .filter((confirmation) => attribute(confirmation, 'Method') === BEARER)
    .flatMap((confirmation) => childElements(confirmation, ASSERTION_NS, 'SubjectConfirmationData'))
    .filter((data) => attribute(data, 'Recipient') === settings.acsUrl);
  if (bearers.length === 0) {
    throw new SamlRefusal('recipient', 'no bearer confirmation names our ACS URL as Recipient');
  }
  // Web SSO profile 4.1.4.2: the bearer confirmation answers our request and expires.
  const bearer = bearers.find((data) => attribute(data, 'InResponseTo') === expectedRequestId);
  if (!bearer) {
    throw new SamlRefusal('in_response_to', 'the bearer confirmation answers another request');
  }
  const bearerNotOnOrAfter = instant(attribute(bearer, 'NotOnOrAfter'));
  const bearerNotBefore = instant(attribute(bearer, 'NotBefore'));
  if (bearerNotOnOrAfter === undefined || now - ACCEPTED_CLOCK_SKEW_MS >= bearerNotOnOrAfter) {
    throw new SamlRefusal('expired', 'the bearer confirmation has no future NotOnOrAfter');
  }
  if (bearerNotBefore !== undefined && now + ACCEPTED_CLOCK_SKEW_MS < bearerNotBefore) {
    throw new SamlRefusal('not_yet_valid', 'the bearer confirmation is not valid yet');
  }

  const nameIdElement = subject && onlyChild(subject, ASSERTION_NS, 'NameID');
  const nameId = text(nameIdElement);
  if (nameId === undefined) throw new SamlRefusal('malformed', 'the assertion has no NameID');
  const attributes = attributeValues(assertion);
  const firstOf = (names: readonly string[]) =>
    names.map((name) => attributes.get(name)).find((value) => value !== undefined);
  const email =
    attribute(nameIdElement, 'Format') === EMAIL_ADDRESS_FORMAT
      ? nameId
      : firstOf(EMAIL_ATTRIBUTES);

  const authnStatement = childElements(assertion, ASSERTION_NS, 'AuthnStatement')[0];
  const authnContext = authnStatement && onlyChild(authnStatement, ASSERTION_NS, 'AuthnContext');
  const classRef = authnContext && onlyChild(authnContext, ASSERTION_NS, 'AuthnContextClassRef');

  const conditions = onlyChild(assertion, ASSERTION_NS, 'Conditions');
  const issueInstant = instant(attribute(assertion, 'IssueInstant'));
  const limits = [
    instant(attribute(conditions, 'NotOnOrAfter')),
    bearerNotOnOrAfter,
    issueInstant === undefined ? undefined : issueInstant + MAX_ASSERTION_AGE_MS,
  ].filter((limit) => limit !== undefined);

  const assertionId = attribute(assertion, 'ID');
  if (!assertionId) throw new SamlRefusal('malformed', 'the assertion has no ID');
  return {
    nameId,
    email,
    givenName: firstOf(GIVEN_NAME_ATTRIBUTES),
    familyName: firstOf(FAMILY_NAME_ATTRIBUTES),
    assertionId,
    authnContextClassRef: text(classRef),
    notOnOrAfter:
      limits.length === 0 ? undefined : new Date(Math.min(...limits) + ACCEPTED_CLOCK_SKEW_MS),
  };
}

/** Each attribute's first non-empty value, by Name; the first attribute of a name wins. */
function attributeValues(assertion: Element): Map<string, string> {
  const values = new Map<string, string>();
  for (const statement of childElements(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const element of childElements(statement, ASSERTION_NS, 'Attribute')) {
      const name = attribute(element, 'Name');
      if (!name || values.has(name)) continue;
      const value = childElements(element, ASSERTION_NS, 'AttributeValue')
        .map((element) => text(element))
        .find((candidate) => candidate !== undefined);
      if (value !== undefined) values.set(name, value);
    }
  }
  return values;
}
