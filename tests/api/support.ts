import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { inject } from 'vitest';
import { createApiApp } from '../../api/app.ts';
import { randomFactorSecrets } from '../../api/services/factors/factor-secrets.ts';
import { createConnectionSecrets } from '../../api/services/company-sign-in/connections.ts';
import {
  createOidcProviders,
  type OidcProvidersOptions,
} from '../../api/services/company-sign-in/oidc.ts';
import type { ApiDependencies } from '../../api/app.ts';
import { openDatabase, type Database, type OpenedDatabase } from '../../api/db/client.ts';
import {
  companies,
  outboxMessages,
  requests,
  requestUpdates,
  users,
  type OutboxMessage,
  type RequestStatus,
  type User,
} from '../../api/db/schema/index.ts';
import { createMovableClock, type MovableClock } from '../../platform/clock.ts';
import { TrustedProxies } from '../../platform/trusted-proxies.ts';
import { hashPassword } from '../../api/services/sign-in/passwords.ts';
import type { FileStorage } from '../../api/services/files/storage/file-storage.ts';
import { LocalFileStorage } from '../../api/services/files/storage/local-storage.ts';
import { databaseUrlNamed, onPostgresServer, scratchFolderParent } from './database-template.ts';

export interface FreshDatabase {
  /** What to pass to openDatabase or startReferenceApi to reach it. */
  options: { databaseUrl: string } | { dataDir: string };
  /** Drops it (PostgreSQL); close every connection to it first. */
  dispose(): Promise<void>;
}

/**
 * An empty database of its own for one test file: PGlite in memory by default; with DATABASE_URL
 * set, a new uniquely named database on that PostgreSQL server, copied from the migrated template
 * of tests/api/database-template.ts.
 */
export async function createFreshDatabase(): Promise<FreshDatabase> {
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) return { options: { dataDir: 'memory://' }, dispose: async () => {} };

  const name = `api_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onPostgresServer(
    serverUrl,
    `CREATE DATABASE "${name}" TEMPLATE "${inject('postgresTemplateDatabase')}"`,
  );
  return {
    options: { databaseUrl: databaseUrlNamed(serverUrl, name) },
    dispose: () => onPostgresServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * A freshly migrated database, dropped again on close: on PostgreSQL see createFreshDatabase; on
 * PGlite a copy of the migrated template folder, removed on close.
 */
export async function openTestDatabase(): Promise<OpenedDatabase> {
  const fresh = process.env['DATABASE_URL']
    ? await createFreshDatabase()
    : await copyOfPgliteTemplate();
  try {
    const opened = await openDatabase(fresh.options);
    return {
      ...opened,
      close: async () => {
        await opened.close();
        await fresh.dispose();
      },
    };
  } catch (error) {
    await fresh.dispose();
    throw error;
  }
}

async function copyOfPgliteTemplate(): Promise<FreshDatabase> {
  const dataDir = await mkdtemp(path.join(scratchFolderParent(), 'api-test-database-'));
  await cp(inject('pgliteTemplateFolder'), dataDir, { recursive: true });
  return {
    options: { dataDir },
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** The public origin the test API builds email links from. */
export const TEST_PUBLIC_ORIGIN = 'https://portal.example.test';

export interface TestUserOptions {
  email?: string;
  password?: string;
  name?: string;
  lastName?: string;
  /** Creates a company of that name for the user. */
  companyName?: string;
  /** Whether that company requires MFA (default false). */
  companyRequiresMfa?: boolean;
  mfaPhone?: string;
  mfaDeclinedAt?: Date;
}

export interface AuthenticatedCallOptions {
  /** The bearer token of the session. */
  token?: string | undefined;
  /** The `mfa-token` header. */
  mfaToken?: string | undefined;
  /** A JSON body (sent with Content-Type: application/json). */
  body?: unknown;
  /** The client address (X-Forwarded-For); a new random one unless given. */
  clientAddress?: string | undefined;
}

export interface TestUser {
  user: User;
  email: string;
  password: string;
}

export interface TestApi {
  app: Hono;
  db: Database;
  clock: MovableClock;
  /** The storage driver: by default the local one, in a temporary directory of its own. */
  storage: FileStorage;
  /** Company sign-in's providers and the key its connections' secrets are sealed with. */
  companySignIn: ApiDependencies['companySignIn'];
  createUser(options?: TestUserOptions): Promise<TestUser>;
  /**
   * POSTs to sign_in. Each call comes from a new client address unless one is given, so that
   * the per-address rate limit only matters to the tests about it.
   */
  signIn(
    credentials: { email: string; password: string },
    options?: { clientAddress?: string },
  ): Promise<Response>;
  /** Signs in and returns the bearer token. */
  signInToken(account: { email: string; password: string }): Promise<string>;
  /** POST /users/sign_up with `{user: fields}`, from a new client address unless one is given. */
  signUp(fields: Record<string, unknown>, options?: { clientAddress?: string }): Promise<Response>;
  /** Any call of the API with a session's headers, e.g. `call('POST', '/api/v1/mfa/skip', …)`. */
  call(method: string, path: string, options?: AuthenticatedCallOptions): Promise<Response>;
  getCurrentUser(token?: string, mfaToken?: string): Promise<Response>;
  signOut(token?: string): Promise<Response>;
  /** POST /users/password, from a new client address unless one is given. */
  requestPasswordReset(email: string, options?: { clientAddress?: string }): Promise<Response>;
  /** PUT /users/password with these top-level fields. */
  resetPassword(body: Record<string, unknown>): Promise<Response>;
  /** POST /users/unlock, from a new client address unless one is given. */
  requestUnlock(email: string, options?: { clientAddress?: string }): Promise<Response>;
  /** GET /users/unlock?unlock_token=… */
  unlock(token: string): Promise<Response>;
  /** The outbox rows addressed to `recipient` (an email address or a phone), oldest first. */
  mailTo(recipient: string): Promise<OutboxMessage[]>;
  close(): Promise<void>;
}

/**
 * The argon2 hash of each password the tests' users are made with, made once per worker: the
 * users stored straight in the database share it (their salt repeats, which no check reads), and
 * every sign-in still verifies it at the production cost. Hashing per account is tested through
 * sign-up, reset and change.
 */
const hashesOfTestPasswords = new Map<string, Promise<string>>();

function hashOf(password: string): Promise<string> {
  let hash = hashesOfTestPasswords.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashesOfTestPasswords.set(password, hash);
  }
  return hash;
}

export function uniqueEmail(): string {
  return `member-${randomUUID()}@example.com`;
}

/**
 * A random address in the IPv6 documentation range (RFC 3849): never a real client. The random
 * part includes the network bits, so that each address falls in a /64 of its own (rate limits
 * count a /64 as one client).
 */
export function randomClientAddress(): string {
  const hex = randomBytes(8).toString('hex');
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}::${hex.slice(8, 12)}:${hex.slice(12)}`;
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export function jsonRequest(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export interface TestApiOptions {
  /**
   * Default {@link TrustedProxies.thisProcess}: the tests call the app in-process, as the web
   * server calls its embedded API, and write the client's address in `X-Forwarded-For`.
   */
  trustedProxies?: TrustedProxies;
  outboxViewer?: boolean;
  /** Another storage driver than the local one. */
  storage?: FileStorage;
  /** Answers for companies' OpenID Connect providers, in place of the network. */
  companySignInFetch?: OidcProvidersOptions['customFetch'];
}

/** Company sign-in's dependencies with a key of their own, as the API builds them. */
export function testCompanySignIn(
  customFetch?: OidcProvidersOptions['customFetch'],
): ApiDependencies['companySignIn'] {
  return {
    oidc: createOidcProviders({ customFetch }),
    connectionSecrets: createConnectionSecrets(randomBytes(32)),
  };
}

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const database = await openTestDatabase();
  const { db } = database;
  const clock = createMovableClock();
  const storageDirectory = await mkdtemp(path.join(tmpdir(), 'api-test-storage-'));
  const storage =
    options.storage ??
    new LocalFileStorage({
      directory: storageDirectory,
      secret: randomBytes(32),
      publicOrigin: TEST_PUBLIC_ORIGIN,
      clock,
    });
  const factorSecrets = randomFactorSecrets();
  const companySignIn = testCompanySignIn(options.companySignInFetch);
  const app = createApiApp({
    db,
    clock,
    trustedProxies: options.trustedProxies ?? TrustedProxies.thisProcess,
    publicOrigin: TEST_PUBLIC_ORIGIN,
    outboxViewer: options.outboxViewer ?? false,
    storage,
    factorSecrets,
    companySignIn,
  });
  const fromAddress = (clientAddress: string | undefined) => ({
    'X-Forwarded-For': clientAddress ?? randomClientAddress(),
  });

  const api: TestApi = {
    app,
    db,
    clock,
    storage,
    companySignIn,
    async createUser(userOptions = {}) {
      const email = userOptions.email ?? uniqueEmail();
      const password = userOptions.password ?? TEST_PASSWORD;
      let companyId: number | null = null;
      if (userOptions.companyName !== undefined) {
        const [company] = await db
          .insert(companies)
          .values({
            name: userOptions.companyName,
            mfaRequired: userOptions.companyRequiresMfa ?? false,
            createdAt: clock.now(),
          })
          .returning();
        companyId = company?.id ?? null;
      }
      const [user] = await db
        .insert(users)
        .values({
          email,
          passwordHash: await hashOf(password),
          name: userOptions.name ?? 'Avery',
          lastName: userOptions.lastName ?? 'Jordan',
          companyId,
          mfaPhone: userOptions.mfaPhone ?? null,
          mfaDeclinedAt: userOptions.mfaDeclinedAt ?? null,
          // A proven address, as the demo accounts have: a reset then keeps the factors.
          emailVerifiedAt: clock.now(),
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning();
      if (!user) throw new Error('The test user was not created.');
      return { user, email, password };
    },
    signIn(credentials, signInOptions = {}) {
      const clientAddress = signInOptions.clientAddress ?? randomClientAddress();
      return Promise.resolve(
        app.request(
          '/api/v1/users/sign_in',
          jsonRequest({ user: credentials }, { 'X-Forwarded-For': clientAddress }),
        ),
      );
    },
    async signInToken(account) {
      const response = await api.signIn(account);
      const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1];
      if (response.status !== 200 || !token) {
        throw new Error(`Signing in failed with status ${response.status}.`);
      }
      return token;
    },
    async signUp(fields, signUpOptions = {}) {
      return app.request(
        '/api/v1/users/sign_up',
        jsonRequest({ user: fields }, fromAddress(signUpOptions.clientAddress)),
      );
    },
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = fromAddress(callOptions.clientAddress);
      if (callOptions.token) Object.assign(headers, bearer(callOptions.token));
      if (callOptions.mfaToken) headers['mfa-token'] = callOptions.mfaToken;
      if (callOptions.body === undefined) return app.request(path, { method, headers });
      headers['Content-Type'] = 'application/json';
      return app.request(path, { method, headers, body: JSON.stringify(callOptions.body) });
    },
    getCurrentUser(token, mfaToken) {
      const headers: Record<string, string> = token ? bearer(token) : {};
      if (mfaToken) headers['mfa-token'] = mfaToken;
      return Promise.resolve(app.request('/api/v1/users/current', { headers }));
    },
    signOut(token) {
      return Promise.resolve(
        app.request('/api/v1/users/sign_out', {
          method: 'DELETE',
          headers: token ? bearer(token) : {},
        }),
      );
    },
    async requestPasswordReset(email, requestOptions = {}) {
      return app.request(
        '/api/v1/users/password',
        jsonRequest({ user: { email } }, fromAddress(requestOptions.clientAddress)),
      );
    },
    async resetPassword(body) {
      return app.request('/api/v1/users/password', {
        ...jsonRequest(body, fromAddress(undefined)),
        method: 'PUT',
      });
    },
    async requestUnlock(email, requestOptions = {}) {
      return app.request(
        '/api/v1/users/unlock',
        jsonRequest({ user: { email } }, fromAddress(requestOptions.clientAddress)),
      );
    },
    async unlock(token) {
      return app.request(`/api/v1/users/unlock?unlock_token=${encodeURIComponent(token)}`);
    },
    mailTo(recipient) {
      return db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, recipient))
        .orderBy(asc(outboxMessages.id));
    },
    close: async () => {
      await database.close();
      await rm(storageDirectory, { recursive: true, force: true });
    },
  };
  return api;
}

/**
 * The token of the first `${TEST_PUBLIC_ORIGIN}/${path}/<token>` link in a text, e.g. the
 * reset link of an email's plain-text part.
 */
export function tokenFromLink(
  text: string,
  path: 'reset-password' | 'unlock' | 'confirm-email',
): string {
  const escapedOrigin = TEST_PUBLIC_ORIGIN.replace(/[.]/g, '\\.');
  const match = new RegExp(`${escapedOrigin}/${path}/([A-Za-z0-9_-]{43})`).exec(text);
  if (!match?.[1]) throw new Error(`No ${path} link in: ${text}`);
  return match[1];
}

/** The code of a text such as "Your Member Concierge code is 123456. It expires in 10 minutes." */
export function codeFromText(text: string): string {
  const code = /\bcode is (\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`No code in: ${text}`);
  return code;
}

/** Reads a user's row again, e.g. to look at its lockout counters. */
export async function reloadUser(db: Database, userId: number): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`User ${userId} is gone.`);
  return user;
}

/** The base64 SHA-256 of a file, as POST /direct_uploads takes it. */
export function sha256Base64(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('base64');
}

export interface TestFile {
  filename?: string;
  contentType?: string;
  content?: Uint8Array | string;
}

/** What POST /direct_uploads answers. */
export interface DirectUploadAnswer {
  id: string;
  filename: string;
  content_type: string;
  byte_size: number;
  direct_upload: { url: string; method: 'PUT'; headers: Record<string, string> };
  expires_at: string;
}

/** The content of a test file as bytes (default: a short text). */
export function testFileBytes(file: TestFile = {}): Uint8Array {
  const content = file.content ?? 'Moving inventory: sofa, table, 25 boxes.';
  return typeof content === 'string' ? new TextEncoder().encode(content) : content;
}

/**
 * POST /direct_uploads for a file (default: a short text file named `inventory.txt`), as the
 * member of `token`; answers the 201 body.
 */
export async function requestDirectUpload(
  api: TestApi,
  token: string,
  file: TestFile = {},
): Promise<DirectUploadAnswer> {
  const bytes = testFileBytes(file);
  const response = await api.call('POST', '/api/v1/direct_uploads', {
    token,
    body: {
      blob: {
        filename: file.filename ?? 'inventory.txt',
        content_type: file.contentType ?? 'text/plain',
        byte_size: bytes.byteLength,
        checksum: sha256Base64(bytes),
      },
    },
  });
  if (response.status !== 201) {
    throw new Error(
      `POST /direct_uploads failed with ${response.status}: ${await response.text()}`,
    );
  }
  return (await response.json()) as DirectUploadAnswer;
}

/** PUTs `body` to a direct upload address with its headers (or `headers` instead). */
export async function putUpload(
  api: TestApi,
  upload: DirectUploadAnswer,
  body: Uint8Array | string,
  headers: Record<string, string> = upload.direct_upload.headers,
): Promise<Response> {
  return api.app.request(upload.direct_upload.url, {
    method: upload.direct_upload.method,
    headers,
    body: typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body),
  });
}

/** Asks for an upload address and uploads the file; answers the file's id (ready to attach). */
export async function uploadFile(
  api: TestApi,
  token: string,
  file: TestFile = {},
): Promise<string> {
  const upload = await requestDirectUpload(api, token, file);
  const response = await putUpload(api, upload, testFileBytes(file));
  if (response.status !== 204) {
    throw new Error(`The upload failed with ${response.status}: ${await response.text()}`);
  }
  return upload.id;
}

export interface StoredRequestOptions {
  categoryId?: string;
  title?: string;
  status?: RequestStatus;
  /** When it was made and last updated (default: the test clock's now). */
  createdAt?: Date;
  updatedAt?: Date;
}

/**
 * Writes a request straight to the database, with its `created` entry and, for any status but
 * `submitted`, a concierge's status change at `updatedAt`: for lists, paging and filters.
 * Answers its id.
 */
export async function storeRequest(
  api: TestApi,
  userId: number,
  options: StoredRequestOptions = {},
): Promise<string> {
  const createdAt = options.createdAt ?? api.clock.now();
  const updatedAt = options.updatedAt ?? createdAt;
  const status = options.status ?? 'submitted';
  const [request] = await api.db
    .insert(requests)
    .values({
      userId,
      categoryId: options.categoryId ?? 'travel',
      title: options.title ?? 'Flights to Denver',
      status,
      createdAt,
      updatedAt,
    })
    .returning({ id: requests.id });
  if (!request) throw new Error('The test request was not stored.');
  await api.db
    .insert(requestUpdates)
    .values({ requestId: request.id, kind: 'created', author: 'member', createdAt });
  if (status !== 'submitted') {
    await addConciergeUpdate(api, request.id, { status, createdAt: updatedAt });
  }
  return request.id;
}

/**
 * What the concierge does (no API route yet): a note, or with `status` a status change, on a
 * request's timeline; moves the request's status and `updated_at` along.
 */
export async function addConciergeUpdate(
  api: TestApi,
  requestId: string,
  update: { status?: RequestStatus; body?: string; createdAt?: Date },
): Promise<void> {
  const createdAt = update.createdAt ?? api.clock.now();
  await api.db.insert(requestUpdates).values({
    requestId,
    kind: update.status ? 'status_changed' : 'note',
    author: 'concierge',
    body: update.body ?? '',
    status: update.status ?? null,
    createdAt,
  });
  await api.db
    .update(requests)
    .set({ updatedAt: createdAt, ...(update.status ? { status: update.status } : {}) })
    .where(eq(requests.id, requestId));
}
