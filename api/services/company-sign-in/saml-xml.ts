import { DOMParser } from '@xmldom/xmldom';
import { SamlRefusal } from './saml-refusal.ts';

/**
 * Reading SAML messages as XML, for the service provider's checks (saml-protocol.ts,
 * saml-assertion.ts): the namespaces and name formats they name, the base64 of the HTTP-POST
 * binding, a namespace-aware parse that refuses DOCTYPEs, and small readers of elements,
 * attributes, text and instants that never trust xmldom's defaults for what is absent.
 */

export const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SIGNATURE_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const EMAIL_ADDRESS_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const ENTITY_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:entity';

/** Far more than any IdP's response (a few KiB, tens with many attributes and certificates). */
const MAX_RESPONSE_BYTES = 256 * 1024;

/** The XML of a base64 SAMLResponse; refuses as `malformed` what is not base64 of a reasonable size. */
export function decodeResponse(samlResponse: string): string {
  // Base64, possibly broken into lines by the IdP.
  const base64 = samlResponse.replace(/\s+/g, '');
  if (
    base64.length === 0 ||
    base64.length > (MAX_RESPONSE_BYTES * 4) / 3 + 4 ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)
  ) {
    throw new SamlRefusal('malformed', 'the response is not base64 of a reasonable size');
  }
  return Buffer.from(base64, 'base64').toString('utf8');
}

/** A namespace-aware DOM, or undefined when the XML is not well-formed or has a DOCTYPE. */
export function parseXml(xml: string): Document | undefined {
  const failures: string[] = [];
  const onError = (message: string) => failures.push(message);
  const document = new DOMParser({
    errorHandler: { warning: onError, error: onError, fatalError: onError },
  }).parseFromString(xml, 'text/xml');
  // No SAML message needs a DTD, and entities are where XML parsers' troubles live.
  const hasDoctype = Array.from(document.childNodes).some((node) => node.nodeType === 10);
  return failures.length > 0 || hasDoctype ? undefined : document;
}

export function isElement(
  node: Element | null | undefined,
  namespace: string,
  localName: string,
): node is Element {
  return !!node && node.namespaceURI === namespace && node.localName === localName;
}

export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 && isElement(node as Element, namespace, localName),
  );
}

/** The only child of that name, or undefined when there is none or more than one. */
export function onlyChild(
  parent: Element,
  namespace: string,
  localName: string,
): Element | undefined {
  const children = childElements(parent, namespace, localName);
  return children.length === 1 ? children[0] : undefined;
}

/** An attribute's value; undefined when absent (xmldom's getAttribute gives '' then). */
export function attribute(element: Element | undefined, name: string): string | undefined {
  return element?.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

export function text(element: Element | undefined): string | undefined {
  const value = element?.textContent.trim();
  return value ? value : undefined;
}

/** The instant of an xs:dateTime, in milliseconds; undefined when absent or unreadable. */
export function instant(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
