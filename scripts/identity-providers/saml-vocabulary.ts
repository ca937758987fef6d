import { randomBytes } from 'node:crypto';

/**
 * The SAML 2.0 vocabulary of the test identity provider (saml-identity-provider.ts and the modules
 * it is made of): namespaces, bindings, formats, status codes, the authentication contexts its
 * login page offers, the form of its IDs, and how a child element is found by name.
 */

export const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SIGNATURE_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const EMAIL_ADDRESS_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const BASIC_ATTRIBUTE_FORMAT = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';

/** Status codes of a Response (SAML core 3.2.2.2). */
export const SAML_STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  authnFailed: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed',
} as const;

/** The AuthnContextClassRef of a password alone, and of a password and a security key. */
export const PASSWORD_CONTEXT = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
export const SECURITY_KEY_CONTEXT = 'urn:example:ac:mfa';

/** An xs:ID: must not start with a digit. */
export function samlId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** The first child element of that namespace and local name, or null. */
export function childElement(
  parent: Element | null | undefined,
  namespace: string,
  localName: string,
): Element | null {
  for (let node = parent?.firstChild ?? null; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === namespace && element.localName === localName) return element;
  }
  return null;
}

/** A person the identity provider signs in. */
export interface SamlAccount {
  readonly email: string;
  readonly password: string;
  readonly givenName: string;
  readonly familyName: string;
}

/** A service provider as the identity provider knows it: from its metadata. */
export interface SamlServiceProviderEndpoints {
  readonly entityId: string;
  readonly acsUrl: string;
}
