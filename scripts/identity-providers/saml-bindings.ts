import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { ASSERTION_NS, HTTP_POST, PROTOCOL_NS, childElement } from './saml-vocabulary.ts';

/**
 * What the browser carries between a service provider and the test SAML identity provider, read:
 * the AuthnRequest of the HTTP-Redirect binding (a URL's query) and the form of the HTTP-POST
 * binding's page (the SAMLResponse it posts to the assertion consumer service).
 */

/** The largest inflated AuthnRequest read (node-saml's are under 1 KiB). */
const MAX_REQUEST_BYTES = 64 * 1024;

/** An AuthnRequest as the provider reads it from the HTTP-Redirect binding's query. */
export interface ReadAuthnRequest {
  readonly id: string;
  readonly issuer: string;
  /** Undefined when the request leaves the ACS to the service provider's metadata. */
  readonly acsUrl: string | undefined;
  readonly destination: string | undefined;
  readonly relayState: string | undefined;
}

/** The HTTP-POST binding's page, read: where its form posts, and what. */
export interface PostBindingForm {
  readonly action: string;
  readonly samlResponse: string;
  readonly relayState: string | undefined;
}

/** The AuthnRequest of a redirect to the provider (an SP's sign-in URL). */
export function readAuthnRequest(redirectUrl: string | URL): ReadAuthnRequest {
  return readAuthnRequestQuery(new URL(redirectUrl).searchParams);
}

/** The AuthnRequest of the HTTP-Redirect binding, from its query; throws when it is not one. */
export function readAuthnRequestQuery(query: URLSearchParams): ReadAuthnRequest {
  const encoded = query.get('SAMLRequest');
  if (!encoded) throw new Error('No SAMLRequest');
  const xml = inflateRawSync(Buffer.from(encoded, 'base64'), {
    maxOutputLength: MAX_REQUEST_BYTES,
  }).toString('utf8');
  const failures: string[] = [];
  const failed = (message: string) => failures.push(message);
  const document = new DOMParser({
    errorHandler: { warning: failed, error: failed, fatalError: failed },
  }).parseFromString(xml, 'text/xml');
  const request = document.documentElement as Element | null;
  if (
    failures.length > 0 ||
    !request ||
    request.namespaceURI !== PROTOCOL_NS ||
    request.localName !== 'AuthnRequest'
  ) {
    throw new Error('Not an AuthnRequest');
  }
  // xmldom's getAttribute gives '' for an absent attribute.
  const attribute = (name: string) =>
    request.hasAttribute(name) ? (request.getAttribute(name) ?? undefined) : undefined;
  const id = attribute('ID');
  const issuer = childElement(request, ASSERTION_NS, 'Issuer')?.textContent.trim();
  const binding = attribute('ProtocolBinding');
  if (!id || !issuer || (binding !== undefined && binding !== HTTP_POST))
    throw new Error('Not an AuthnRequest');
  return {
    id,
    issuer,
    acsUrl: attribute('AssertionConsumerServiceURL'),
    destination: attribute('Destination'),
    relayState: query.get('RelayState') ?? undefined,
  };
}

/** The HTTP-POST binding page's form: its action, SAMLResponse and RelayState. */
export function readPostBindingPage(html: string): PostBindingForm {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  const samlResponse = /<input type="hidden" name="SAMLResponse" value="([^"]*)"/.exec(html)?.[1];
  const relayState = /<input type="hidden" name="RelayState" value="([^"]*)"/.exec(html)?.[1];
  if (action === undefined || samlResponse === undefined) {
    throw new Error('Not an HTTP-POST binding page');
  }
  return {
    action: unescapeHtml(action),
    samlResponse: unescapeHtml(samlResponse),
    relayState: relayState === undefined ? undefined : unescapeHtml(relayState),
  };
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
