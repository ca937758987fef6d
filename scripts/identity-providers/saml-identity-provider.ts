import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { listenOnFreePort } from '../free-port.mjs';
import { type ReadAuthnRequest, readAuthnRequestQuery } from './saml-bindings.ts';
import {
  type CraftedResponseOptions,
  type SamlIssuerKeys,
  craftSamlResponse,
} from './saml-crafted-responses.ts';
import { honestResponses } from './saml-honest-responses.ts';
import { loginPage, page, postBindingPage, send } from './saml-login-pages.ts';
import { createSamlSigningKey } from './saml-signing-keys.ts';
import {
  SAML_STATUS,
  type SamlAccount,
  type SamlServiceProviderEndpoints,
} from './saml-vocabulary.ts';

export type { SamlAccount, SamlServiceProviderEndpoints };

/**
 * A SAML 2.0 identity provider for the tests and the demo of company sign-in: a plain HTTP server
 * on 127.0.0.1 that reads a service provider's AuthnRequest (HTTP-Redirect binding), shows a login
 * page, and answers with a signed Response (HTTP-POST binding: a page whose form posts it to the
 * service provider's assertion consumer service).
 *
 * Honest answers are built and signed by samlify's IdentityProvider (saml-honest-responses.ts), an
 * implementation other than the service provider's (node-saml), so that a mistake shared by our
 * code and one library does not go unseen. Forged and broken answers for the attack tests come from
 * {@link craftSamlResponse} (saml-crafted-responses.ts), which writes the XML itself and signs it
 * with xml-crypto. Keys and their self-signed certificates are made when the provider starts
 * (saml-signing-keys.ts): nothing secret is stored. What the browser carries is read by
 * saml-bindings.ts, the pages are saml-login-pages.ts's, and the SAML names saml-vocabulary.ts's.
 */

/** The largest login form read; the fields are a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;
/** Sign-ins shown and not finished that are kept; the oldest are forgotten first. */
const MAX_PENDING = 1000;

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
