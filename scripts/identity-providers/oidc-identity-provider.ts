/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, standing in for an employer's
 * identity provider in the tests and in the demo of `npm start`. Never for production: accounts,
 * clients, keys and sessions live in memory and are lost when it stops.
 *
 * Authorization code flow with PKCE (S256) only. The sign-in page is served here, without
 * JavaScript (oidc-login-pages.ts); consent is given with the sign-in, so there is no consent page.
 * Its storage is oidc-memory-adapter.ts, its signing keys oidc-signing-keys.ts, and what it uses
 * of oidc-provider oidc-provider-typed.ts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnFreePort } from '../free-port.mjs';
import {
  escapeHtml,
  loginPage,
  page,
  readForm,
  sendPage,
  setPageHeaders,
} from './oidc-login-pages.ts';
import { InMemoryAdapter, type StoredEntry } from './oidc-memory-adapter.ts';
import {
  type ErrorPageContext,
  type Interaction,
  Provider,
  errors,
} from './oidc-provider-typed.ts';
import { createOidcSigningKey, type OidcSigningKey } from './oidc-signing-keys.ts';

export interface OidcAccount {
  /** What the person types on the login page (an email address), case-insensitive. */
  readonly email: string;
  readonly password: string;
  /** The `sub` claim; stable. */
  readonly subject: string;
  readonly givenName: string;
  readonly familyName: string;
  /** Defaults to true. */
  readonly emailVerified?: boolean;
}

export interface OidcClientRegistration {
  readonly clientId: string;
  readonly clientSecret: string; // at least 32 characters
  readonly redirectUris: readonly string[];
}

export interface OidcIdentityProvider {
  /** `http://127.0.0.1:<port>`, exactly the issuer string in discovery (no trailing slash). */
  readonly issuer: string;
  /** Human name shown as the page heading, e.g. "Acme sign-in". */
  readonly name: string;
  /** Adds or replaces an account (tests add accounts after start). */
  addAccount(account: OidcAccount): void;
  /** Adds a client after start (the portal's redirect URI may only be known later). */
  addClient(client: OidcClientRegistration): void;
  /**
   * Publishes `keys` from now on in place of the keys it had, and signs with the first: a key
   * rotation, done without stopping, so sign-ins under way go on.
   */
  rotateSigningKeys(keys: readonly OidcSigningKey[]): void;
  stop(): Promise<void>;
}

/** The `acr` of a sign-in with the password alone, and of one with a security key too. */
const passwordAcr = 'urn:example:acr:pwd';
const securityKeyAcr = 'urn:example:acr:mfa';
const grantedScope = 'openid email profile';
const grantedClaims = ['email', 'email_verified', 'given_name', 'family_name'];

export async function startOidcIdentityProvider(options: {
  name: string;
  accounts?: readonly OidcAccount[];
  clients?: readonly OidcClientRegistration[];
  port?: number; // default 0 (any free port)
  signingKeys?: readonly OidcSigningKey[]; // default: one new key
}): Promise<OidcIdentityProvider> {
  const { name } = options;
  const accounts = new Map<string, OidcAccount>();
  const store = new Map<string, StoredEntry>();
  const signingKeys = options.signingKeys ?? [await createOidcSigningKey()];

  const server = createServer();
  const port =
    options.port === undefined || options.port === 0
      ? await listenOnFreePort(server)
      : await listenOnPort(server, options.port);
  const issuer = `http://127.0.0.1:${port}`;

  const configuration = {
    adapter: (model: string) => new InMemoryAdapter(model, store),
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      // Cookies do not tell ports apart: another provider, or the portal, on 127.0.0.1 would
      // otherwise share (and overwrite) oidc-provider's default names `_session`, `_interaction`.
      names: {
        session: `idp-${port}-session`,
        interaction: `idp-${port}-interaction`,
        resume: `idp-${port}-resume`,
      },
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: {
      url: (_context: unknown, interaction: Interaction) => `/interaction/${interaction.uid}`,
    },
    pkce: { required: () => true },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_post'],
    scopes: ['openid', 'email', 'profile'],
    // Without `acr` and `amr` among the claims of a scope, oidc-provider puts `amr` into no ID
    // token, and `acr` only into those whose request asked for acr_values.
    claims: {
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    acrValues: [passwordAcr, securityKeyAcr],
    conformIdTokenClaims: false,
    ttl: {
      AccessToken: 10 * 60,
      AuthorizationCode: 60,
      IdToken: 10 * 60,
      Interaction: 30 * 60,
      Session: 8 * 60 * 60,
      Grant: 8 * 60 * 60,
    },
    clientBasedCORS: () => false,
    findAccount: (_context: unknown, subject: string) => {
      const account = [...accounts.values()].find((each) => each.subject === subject);
      if (account === undefined) return undefined;
      return {
        accountId: subject,
        claims: () => ({
          sub: subject,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          given_name: account.givenName,
          family_name: account.familyName,
        }),
      };
    },
    renderError: (context: ErrorPageContext, out: Record<string, unknown>) => {
      setPageHeaders((field, value) => {
        context.set(field, value);
      });
      context.type = 'html';
      const error = typeof out['error'] === 'string' ? out['error'] : 'server_error';
      const description =
        typeof out['error_description'] === 'string' ? out['error_description'] : '';
      context.body = page(
        name,
        `<p>This sign-in request cannot go on.</p>
      <p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>`,
      );
    },
  };

  // oidc-provider takes its keys once, when made. A rotation makes another on the same storage
  // and cookie keys, so that clients, sessions and codes outlive it.
  function providerSigningWith(keys: readonly OidcSigningKey[]) {
    const made = new Provider(issuer, { ...configuration, jwks: { keys: [...keys] } });
    made.on('server_error', (_context, error) => {
      console.error(`${name} (OpenID Connect provider at ${issuer}) failed:`, error);
    });
    return made;
  }
  let provider = providerSigningWith(signingKeys);
  let providerCallback = provider.callback();

  function rotateSigningKeys(keys: readonly OidcSigningKey[]): void {
    provider = providerSigningWith(keys);
    providerCallback = provider.callback();
  }

  function addAccount(account: OidcAccount): void {
    const email = normalizeEmail(account.email);
    for (const [key, existing] of accounts) {
      if (existing.subject === account.subject) accounts.delete(key);
    }
    accounts.set(email, account);
  }

  function addClient(client: OidcClientRegistration): void {
    if (client.clientSecret.length < 32) {
      throw new Error(`The secret of client ${client.clientId} must have at least 32 characters`);
    }
    const metadata = {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [...client.redirectUris],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      // What openid-client uses when given a client secret; oidc-provider takes one method a client.
      token_endpoint_auth_method: 'client_secret_post',
    };
    try {
      new provider.Client(metadata);
    } catch (error) {
      if (error instanceof errors.InvalidClientMetadata) {
        throw new Error(`Client ${client.clientId}: ${error.error_description ?? error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
    store.set(`Client:${client.clientId}`, { payload: metadata, expiresAt: undefined });
  }

  try {
    for (const account of options.accounts ?? []) addAccount(account);
    for (const client of options.clients ?? []) addClient(client);
  } catch (error) {
    server.close();
    throw error;
  }

  function accountSignedInWith(email: string, password: string): OidcAccount | undefined {
    const account = accounts.get(normalizeEmail(email));
    return account !== undefined && samePassword(account.password, password) ? account : undefined;
  }

  async function grantConsent(interaction: Interaction, accountId: string): Promise<string> {
    const clientId = interaction.params['client_id'];
    if (typeof clientId !== 'string') throw new Error('The interaction names no client');
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(grantedScope);
    grant.addOIDCClaims(grantedClaims);
    return grant.save();
  }

  /** The interaction of the browser's cookie, if it is the one of the URL; or answers why not. */
  async function findInteraction(
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
  ): Promise<Interaction | undefined> {
    let interaction: Interaction | undefined;
    try {
      interaction = await provider.interactionDetails(request, response);
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    if (interaction?.uid === uid) return interaction;
    sendPage(
      response,
      400,
      page(
        name,
        '<p>This sign-in page has expired. Go back to the site you came from and sign in again.</p>',
      ),
    );
    return undefined;
  }

  async function showInteraction(
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
  ): Promise<void> {
    const interaction = await findInteraction(request, response, uid);
    if (interaction === undefined) return;
    const signedIn = interaction.session?.accountId;
    if (interaction.prompt.name !== 'login' && signedIn !== undefined) {
      // Signed in already, and a client asks for the first time: consent needs no page either.
      const grantId = await grantConsent(interaction, signedIn);
      await provider.interactionFinished(
        request,
        response,
        { consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const loginHint = interaction.params['login_hint'];
    sendPage(response, 200, loginPage(name, uid, typeof loginHint === 'string' ? loginHint : ''));
  }

  async function signIn(
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
  ): Promise<void> {
    const interaction = await findInteraction(request, response, uid);
    if (interaction === undefined) return;
    const form = await readForm(request, response);
    if (form === undefined) return;
    const email = form.get('email') ?? '';
    const account = accountSignedInWith(email, form.get('password') ?? '');
    if (account === undefined) {
      sendPage(response, 200, loginPage(name, uid, email, 'Wrong email or password.'));
      return;
    }
    const withSecurityKey = form.has('second_step');
    const grantId = await grantConsent(interaction, account.subject);
    await provider.interactionFinished(
      request,
      response,
      {
        login: {
          accountId: account.subject,
          amr: withSecurityKey ? ['pwd', 'hwk'] : ['pwd'],
          acr: withSecurityKey ? securityKeyAcr : passwordAcr,
        },
        consent: { grantId },
      },
      { mergeWithLastSubmission: false },
    );
  }

  async function cancel(
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
  ): Promise<void> {
    const interaction = await findInteraction(request, response, uid);
    if (interaction === undefined) return;
    if ((await readForm(request, response)) === undefined) return;
    await provider.interactionFinished(
      request,
      response,
      { error: 'access_denied', error_description: 'The person cancelled the sign-in.' },
      { mergeWithLastSubmission: false },
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { pathname } = new URL(request.url ?? '/', issuer);
    const match = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(pathname);
    if (match === null) {
      await providerCallback(request, response);
      return;
    }
    const [, uid = '', action] = match;
    const method = action === undefined ? 'GET' : 'POST';
    if (request.method !== method) {
      response.writeHead(405, { allow: method, 'content-length': '0' });
      response.end();
      return;
    }
    if (action === undefined) await showInteraction(request, response, uid);
    else if (action === 'login') await signIn(request, response, uid);
    else await cancel(request, response, uid);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      console.error(`${name} (OpenID Connect provider at ${issuer}) failed:`, error);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      sendPage(response, 500, page(name, '<p>Something went wrong. Try again later.</p>'));
    });
  });

  let stopping: Promise<void> | undefined;
  return {
    issuer,
    name,
    addAccount,
    addClient,
    rotateSigningKeys,
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

function listenOnPort(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve(port);
    });
  });
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function samePassword(expected: string, typed: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(typed));
}
