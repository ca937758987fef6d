import {
  type KeyObject,
  createHash,
  generateKeyPair,
  randomBytes,
  randomUUID,
  sign,
} from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as samlify from 'samlify';
import { SignedXml } from 'xml-crypto';
import { listenOnFreePort } from '../free-port.mjs';

/**
 * A SAML 2.0 identity provider for the tests and the demo of company sign-in: a plain HTTP server
 * on 127.0.0.1 that reads a service provider's AuthnRequest (HTTP-Redirect binding), shows a login
 * page, and answers with a signed Response (HTTP-POST binding: a page whose form posts it to the
 * service provider's assertion consumer service).
 *
 * Honest answers are built and signed by samlify's IdentityProvider, an implementation other than
 * the service provider's (node-saml), so that a mistake shared by our code and one library does
 * not go unseen. Forged and broken answers for the attack tests come from
 * {@link craftSamlResponse}, which writes the XML itself and signs it with xml-crypto. Keys and
 * their self-signed certificates are made when the provider starts: nothing secret is stored.
 */

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SIGNATURE_NS = 'http://www.w3.org/2000/09/xmldsig#';
const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_ADDRESS_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BASIC_ATTRIBUTE_FORMAT = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';

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

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const FIVE_MINUTES_MS = 5 * 60_000;
/** The largest login form read; the fields are a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;
/** The largest inflated AuthnRequest read (node-saml's are under 1 KiB). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** Sign-ins shown and not finished that are kept; the oldest are forgotten first. */
const MAX_PENDING = 1000;
const AUTO_SUBMIT = 'document.forms[0].submit()';
const AUTO_SUBMIT_HASH = createHash('sha256').update(AUTO_SUBMIT).digest('base64');

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

/** A signing key and its self-signed certificate, both PEM. */
export interface SamlSigningKey {
  readonly privateKey: string;
  readonly certificate: string;
}

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

export interface SamlIdentityProvider {
  /** `http://127.0.0.1:<port>/metadata`, where the provider's metadata is served. */
  readonly entityId: string;
  /** `http://127.0.0.1:<port>/sso`, the SingleSignOnService (HTTP-Redirect binding). */
  readonly ssoUrl: string;
  /** PEM of the signing certificate: what the service provider is configured with. */
  readonly certificate: string;
  /** PEM of the certificate of the key `signingKey: 'foreign'` signs with. */
  readonly foreignCertificate: string;
  readonly name: string;
  addAccount(account: SamlAccount): void;
  /** The service provider it serves; AuthnRequests from any other, or to another ACS, are refused. */
  addServiceProvider(sp: SamlServiceProviderEndpoints): void;
  /** A Response of this provider's, made to measure: see {@link craftSamlResponse}. Base64. */
  craftResponse(sp: SamlServiceProviderEndpoints, options: CraftedResponseOptions): string;
  stop(): Promise<void>;
}

export interface SamlIdentityProviderOptions {
  /** Shown as the login page's title and heading. */
  readonly name: string;
  readonly accounts?: readonly SamlAccount[];
  /** The system's choice (of TEST_PORT_RANGE when set) unless given. */
  readonly port?: number;
  /** True (the default): the Response and the Assertion are signed; false: the Assertion only. */
  readonly signResponse?: boolean;
}

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

interface PendingSignIn {
  readonly request: ReadAuthnRequest;
  readonly sp: SamlServiceProviderEndpoints;
}

export async function startSamlIdentityProvider(
  options: SamlIdentityProviderOptions,
): Promise<SamlIdentityProvider> {
  const signResponse = options.signResponse ?? true;
  const [own, foreign] = await Promise.all([
    createSamlSigningKey(`${options.name} (test identity provider)`),
    createSamlSigningKey(`${options.name} (foreign key)`),
  ]);
  const accounts = new Map<string, SamlAccount>();
  const serviceProviders = new Map<string, SamlServiceProviderEndpoints>();
  const pending = new Map<string, PendingSignIn>();
  for (const account of options.accounts ?? []) accounts.set(account.email.toLowerCase(), account);

  // The handlers below use the addresses, keys and samlify IdP made once the port is known:
  // they run only after that.
  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      console.error('The SAML identity provider failed to answer:', error);
      if (!response.headersSent)
        send(response, 500, page(options.name, '<p>Something failed.</p>'));
      else response.destroy();
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/sso') {
      showLogin(url, response);
    } else if (request.method === 'POST' && url.pathname === '/sso/login') {
      await login(request, response);
    } else if (request.method === 'GET' && url.pathname === '/metadata') {
      response.writeHead(200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
      response.end(honest.metadata());
    } else {
      send(response, 404, page(options.name, '<p>There is no such page.</p>'));
    }
  }

  function showLogin(url: URL, response: ServerResponse): void {
    let request: ReadAuthnRequest;
    try {
      request = readAuthnRequestQuery(url.searchParams);
    } catch {
      send(response, 400, page(options.name, '<p>This sign-in request cannot be read.</p>'));
      return;
    }
    const sp = serviceProviders.get(request.issuer);
    const acsUrl = request.acsUrl ?? sp?.acsUrl;
    if (
      !sp ||
      acsUrl !== sp.acsUrl ||
      (request.destination !== undefined && request.destination !== ssoUrl)
    ) {
      send(
        response,
        400,
        page(options.name, '<p>This service is not known here: the sign-in was refused.</p>'),
      );
      return;
    }
    const pendingId = randomUUID();
    pending.set(pendingId, { request, sp });
    for (const oldest of pending.keys()) {
      if (pending.size <= MAX_PENDING) break;
      pending.delete(oldest);
    }
    send(response, 200, loginPage(options.name, pendingId, undefined, ''));
  }

  async function login(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      send(response, 415, page(options.name, '<p>This form cannot be read.</p>'));
      return;
    }
    const form = await readForm(request);
    if (!form) {
      send(response, 413, page(options.name, '<p>This form is too large.</p>'));
      return;
    }
    const pendingId = form.get('pending') ?? '';
    const signIn = pending.get(pendingId);
    if (!signIn) {
      send(response, 400, page(options.name, '<p>This sign-in expired. Please start again.</p>'));
      return;
    }
    const { request: authnRequest, sp } = signIn;
    if (form.get('action') === 'cancel') {
      pending.delete(pendingId);
      const refusal = craftSamlResponse(keys, sp, {
        inResponseTo: authnRequest.id,
        statusCode: SAML_STATUS.responder,
        subStatusCode: SAML_STATUS.authnFailed,
      });
      send(response, 200, postBindingPage(options.name, sp.acsUrl, refusal, authnRequest), {
        autoSubmit: true,
      });
      return;
    }
    const email = form.get('email') ?? '';
    const account = accounts.get(email.toLowerCase());
    if (!account || account.password !== (form.get('password') ?? '')) {
      send(
        response,
        401,
        loginPage(options.name, pendingId, 'Wrong email or password.', email.slice(0, 254)),
      );
      return;
    }
    pending.delete(pendingId);
    const samlResponse = await honest.response(sp, authnRequest.id, account, {
      securityKey: form.get('securityKey') !== null,
    });
    send(response, 200, postBindingPage(options.name, sp.acsUrl, samlResponse, authnRequest), {
      autoSubmit: true,
    });
  }

  const port =
    options.port === undefined
      ? await listenOnFreePort(server)
      : await listen(server, options.port);
  const origin = `http://127.0.0.1:${String(port)}`;
  const entityId = `${origin}/metadata`;
  const ssoUrl = `${origin}/sso`;
  const keys: SamlIssuerKeys = { entityId, own, foreign };
  const honest = honestResponses(entityId, ssoUrl, own, signResponse);

  let stopping: Promise<void> | undefined;
  return {
    entityId,
    ssoUrl,
    certificate: own.certificate,
    foreignCertificate: foreign.certificate,
    name: options.name,
    addAccount(account) {
      accounts.set(account.email.toLowerCase(), account);
    },
    addServiceProvider(sp) {
      serviceProviders.set(sp.entityId, { entityId: sp.entityId, acsUrl: sp.acsUrl });
    },
    craftResponse(sp, craftOptions) {
      return craftSamlResponse(keys, sp, craftOptions);
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        // Browsers and fetch keep connections alive; the server is gone only once they are too.
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve(port);
    });
  });
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even when too large, so that the client gets the 413 rather than a reset.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_FORM_BYTES) chunks.push(chunk);
  }
  return size > MAX_FORM_BYTES
    ? undefined
    : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

// ---------------------------------------------------------------------------------------------
// Honest responses, by samlify

interface HonestResponses {
  response(
    sp: SamlServiceProviderEndpoints,
    requestId: string,
    account: SamlAccount,
    options: { securityKey: boolean },
  ): Promise<string>;
  metadata(): string;
}

/**
 * samlify's default template has no AuthnStatement ({AuthnStatement} is always replaced by
 * nothing) and its attributes are filled only by a `customTagReplacement`: both are added here,
 * the rest (structure, escaping, signatures and their placement) is samlify's own. Only the
 * sending half of samlify is used, which needs no schema validator (`setSchemaValidator` is for
 * parsing).
 */
function honestResponses(
  entityId: string,
  ssoUrl: string,
  key: SamlSigningKey,
  signResponse: boolean,
): HonestResponses {
  const defaultTemplate = samlify.SamlLib.defaultLoginResponseTemplate.context;
  if (!defaultTemplate.includes('{AuthnStatement}')) {
    throw new Error("samlify's login response template has no {AuthnStatement} any more");
  }
  const template = defaultTemplate.replace(
    '{AuthnStatement}',
    '<saml:AuthnStatement AuthnInstant="{AuthnInstant}" SessionIndex="{SessionIndex}">' +
      '<saml:AuthnContext><saml:AuthnContextClassRef>{AuthnContextClassRef}' +
      '</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>',
  );
  const attribute = (name: string) => ({
    name,
    valueTag: name,
    nameFormat: BASIC_ATTRIBUTE_FORMAT,
    valueXsiType: 'xs:string',
  });
  // samlify warns on the console of metadata without a SingleLogoutService: this provider has
  // none on purpose (company sign-in never logs out at the provider).
  const warn = console.warn;
  console.warn = () => undefined;
  let idp: samlify.IdentityProviderInstance;
  try {
    idp = samlify.IdentityProvider({
      entityID: entityId,
      privateKey: key.privateKey,
      signingCert: key.certificate,
      isAssertionEncrypted: false,
      wantAuthnRequestsSigned: false,
      nameIDFormat: [EMAIL_ADDRESS_FORMAT],
      singleSignOnService: [{ Binding: HTTP_REDIRECT, Location: ssoUrl }],
      loginResponseTemplate: {
        context: template,
        attributes: [attribute('email'), attribute('givenName'), attribute('sn')],
      },
    });
  } finally {
    console.warn = warn;
  }
  const serviceProviders = new Map<string, samlify.ServiceProviderInstance>();

  return {
    async response(sp, requestId, account, { securityKey }) {
      const spKey = `${sp.entityId} ${sp.acsUrl}`;
      let entity = serviceProviders.get(spKey);
      if (!entity) {
        // wantMessageSigned: without it samlify signs the assertion only.
        entity = samlify.ServiceProvider({
          entityID: sp.entityId,
          assertionConsumerService: [{ Binding: HTTP_POST, Location: sp.acsUrl }],
          wantAssertionsSigned: true,
          wantMessageSigned: signResponse,
        });
        serviceProviders.set(spKey, entity);
      }
      const now = new Date();
      const later = new Date(now.getTime() + FIVE_MINUTES_MS).toISOString();
      const id = samlId();
      const values: Record<string, string> = {
        ID: id,
        AssertionID: samlId(),
        Destination: sp.acsUrl,
        Audience: sp.entityId,
        SubjectRecipient: sp.acsUrl,
        Issuer: entityId,
        IssueInstant: now.toISOString(),
        StatusCode: SAML_STATUS.success,
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: EMAIL_ADDRESS_FORMAT,
        NameID: account.email,
        InResponseTo: requestId,
        AuthnInstant: now.toISOString(),
        SessionIndex: samlId(),
        AuthnContextClassRef: securityKey ? SECURITY_KEY_CONTEXT : PASSWORD_CONTEXT,
        attrEmail: account.email,
        attrGivenName: account.givenName,
        attrSn: account.familyName,
      };
      const answer = await idp.createLoginResponse(
        entity,
        { extract: { request: { id: requestId } } },
        'post',
        { email: account.email },
        {
          customTagReplacement: (raw) => ({
            id,
            context: samlify.SamlLib.replaceTagsByValue(raw, values),
          }),
        },
      );
      return answer.context;
    },
    metadata() {
      return idp.getMetadata();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Crafted responses, by hand and xml-crypto

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

function childElement(
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

// ---------------------------------------------------------------------------------------------
// Reading what the browser carries

/** The AuthnRequest of a redirect to the provider (an SP's sign-in URL). */
export function readAuthnRequest(redirectUrl: string | URL): ReadAuthnRequest {
  return readAuthnRequestQuery(new URL(redirectUrl).searchParams);
}

function readAuthnRequestQuery(query: URLSearchParams): ReadAuthnRequest {
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

// ---------------------------------------------------------------------------------------------
// Pages

function page(title: string, body: string, after = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${after}</body>
</html>
`;
}

function loginPage(
  name: string,
  pendingId: string,
  error: string | undefined,
  email: string,
): string {
  return page(
    name,
    `${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>\n`}<form method="post" action="/sso/login">
<input type="hidden" name="pending" value="${escapeHtml(pendingId)}">
<p><label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><input id="security-key" name="securityKey" type="checkbox" value="yes">
<label for="security-key">I also used my security key</label></p>
<p><button type="submit" name="action" value="sign-in">Sign in</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></p>
</form>`,
  );
}

/** The HTTP-POST binding: a form to the ACS, sent by script, or by its button without one. */
function postBindingPage(
  name: string,
  acsUrl: string,
  samlResponse: string,
  request: ReadAuthnRequest,
): string {
  const relayState =
    request.relayState === undefined
      ? ''
      : `<input type="hidden" name="RelayState" value="${escapeHtml(request.relayState)}">\n`;
  return page(
    name,
    `<p>Taking you back to the service…</p>
<form method="post" action="${escapeHtml(acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
${relayState}<button type="submit">Continue</button>
</form>`,
    `<script>${AUTO_SUBMIT}</script>\n`,
  );
}

function send(
  response: ServerResponse,
  status: number,
  html: string,
  options: { autoSubmit?: boolean } = {},
): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    // form-action stays open on the POST binding's page: its form goes to the service provider.
    'content-security-policy': options.autoSubmit
      ? `default-src 'none'; script-src 'sha256-${AUTO_SUBMIT_HASH}'; base-uri 'none'; frame-ancestors 'none'`
      : "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  });
  response.end(html);
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
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

/** An xs:ID: must not start with a digit. */
function samlId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// Keys and self-signed certificates

/**
 * A 2048-bit RSA key and a self-signed X.509 certificate of it (samlify's metadata and KeyInfo
 * want a certificate, not a bare public key). The certificate is built here in DER: node:crypto
 * reads certificates but does not make them, and no fixture has to be kept.
 */
export async function createSamlSigningKey(commonName: string): Promise<SamlSigningKey> {
  const { publicKey, privateKey } = await new Promise<{
    publicKey: KeyObject;
    privateKey: KeyObject;
  }>((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) => {
      if (error) reject(error);
      else resolve({ publicKey, privateKey });
    });
  });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: selfSignedCertificate(commonName, publicKey, privateKey),
  };
}

const DAY_MS = 24 * 60 * 60_000;
const SHA256_WITH_RSA_OID = Buffer.from('06092a864886f70d01010b', 'hex');
const COMMON_NAME_OID = Buffer.from('0603550403', 'hex');
const DER_NULL = Buffer.from('0500', 'hex');

function selfSignedCertificate(
  commonName: string,
  publicKey: KeyObject,
  privateKey: KeyObject,
): string {
  const algorithm = der(0x30, SHA256_WITH_RSA_OID, DER_NULL);
  const name = der(
    0x30,
    der(0x31, der(0x30, COMMON_NAME_OID, der(0x0c, Buffer.from(commonName, 'utf8')))),
  );
  // A positive serial number of 16 bytes, first byte not zero.
  const serial = randomBytes(16);
  serial.writeUInt8((serial.readUInt8(0) & 0x7f) | 0x40, 0);
  const now = Date.now();
  const toBeSigned = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, serial),
    algorithm,
    name,
    der(0x30, derTime(new Date(now - DAY_MS)), derTime(new Date(now + 10 * 365 * DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', toBeSigned, privateKey);
  const certificate = der(0x30, toBeSigned, algorithm, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** A DER value: tag, length, contents. */
function der(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  let length: Buffer;
  if (body.length < 0x80) {
    length = Buffer.from([body.length]);
  } else {
    const bytes: number[] = [];
    for (let rest = body.length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function derTime(date: Date): Buffer {
  const digits = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'))
    : der(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}
