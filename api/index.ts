import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApiApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { demoEmployeeAccount, type DemoAccount } from './demo/demo-accounts.ts';
import { seedDemoRequests } from './demo/seed-requests.ts';
import { seedDemoData } from './demo/seed.ts';
import { seedDemoCompanySignIn, type DemoCompanySignIn } from './demo/seed-company-sign-in.ts';
import { systemClock, type Clock } from '../platform/clock.ts';
import {
  createSmtpEmailProvider,
  defaultMailFrom,
  keepInOutboxEmailProvider,
  keepInOutboxTextProvider,
} from './services/messages/mail-providers.ts';
import {
  createOutboxWorker,
  type EmailProvider,
  type OutboxWorker,
  type TextProvider,
} from './services/messages/outbox.ts';
import {
  DEFAULT_STORAGE_DIR,
  LocalFileStorage,
  randomStorageSecret,
} from './services/files/storage/local-storage.ts';
import type { FileStorage } from './services/files/storage/file-storage.ts';
import {
  createSecurityEventSweeper,
  type SecurityEventSweeper,
} from './services/jobs/security-event-sweeper.ts';
import {
  createUnattachedFileSweeper,
  type UnattachedFileSweeper,
} from './services/jobs/unattached-file-sweeper.ts';
import { TrustedProxies } from '../platform/trusted-proxies.ts';
import { parseOrigin } from '../platform/settings.ts';
import { passwordEstimator } from './services/sign-in/password-strength.ts';
import { createFactorSecrets } from './services/factors/factor-secrets.ts';
import { createConnectionSecrets } from './services/company-sign-in/connections.ts';
import { createOidcProviders, type OidcProvidersOptions } from './services/company-sign-in/oidc.ts';
import { randomBytes } from 'node:crypto';

export type { DemoAccount } from './demo/demo-accounts.ts';
export type { Clock } from '../platform/clock.ts';
export type { EmailProvider, OutboxWorker, TextProvider } from './services/messages/outbox.ts';
export type { FileStorage } from './services/files/storage/file-storage.ts';
export type { UnattachedFileSweeper } from './services/jobs/unattached-file-sweeper.ts';
export type { SecurityEventSweeper } from './services/jobs/security-event-sweeper.ts';
export { TrustedProxies } from '../platform/trusted-proxies.ts';

/** Where the site is when nobody says: the web server's default address. */
export const DEFAULT_PUBLIC_ORIGIN = 'http://localhost:4321';

/** The shortest storage secret accepted: 32 characters, as for SESSION_SECRET. */
const MIN_STORAGE_SECRET_LENGTH = 32;

export interface ReferenceApiOptions {
  /** `postgres://…` for a real PostgreSQL; without it, an embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** The PGlite data directory (default `./data/pglite`; `memory://` keeps nothing). */
  dataDir?: string | undefined;
  /** Create the demo companies and accounts (default false). */
  seedDemoData?: boolean | undefined;
  /**
   * The development provider the demo company signs in through, started by the server for this
   * run (`npm start`, `npm run dev`); unset, the demo company's sign-in is off.
   */
  demoCompanySignIn?: DemoCompanySignIn | undefined;
  clock?: Clock | undefined;
  /**
   * The proxies whose `X-Forwarded-For` and `X-Request-Id` are believed (default none: the socket
   * address is the client's). The web server calling the embedded API in-process trusts
   * {@link TrustedProxies.thisProcess}.
   */
  trustedProxies?: TrustedProxies | undefined;
  /**
   * The site's public address, e.g. `https://portal.example.com` (default
   * {@link DEFAULT_PUBLIC_ORIGIN}). Links in emails point there; the request's Host header is
   * never used for them.
   */
  publicOrigin?: string | undefined;
  /**
   * Serve GET /api/v1/outbox, which lists every email and text with its links (default false).
   * Development and browser tests only: never in production.
   */
  outboxViewer?: boolean | undefined;
  /**
   * Run the outbox worker in this process, delivering emails and texts every 2 seconds (default
   * true). Tests turn it off and deliver by hand.
   */
  deliverOutbox?: boolean | undefined;
  /**
   * Send emails over SMTP, e.g. `smtp://user:pass@smtp.example.com:587`. Without it (and without
   * `emailProvider`), emails stay in the outbox, readable in the outbox viewer.
   */
  smtpUrl?: string | undefined;
  /** The From header of emails (default `Member Concierge <no-reply@{public host}>`). */
  mailFrom?: string | undefined;
  /** Delivers emails instead of SMTP or the outbox, e.g. a provider's HTTP API. */
  emailProvider?: EmailProvider | undefined;
  /** Delivers texts (default: they stay in the outbox). */
  textProvider?: TextProvider | undefined;
  /**
   * Where members' files live: any {@link FileStorage} (e.g. the S3 driver). Default: the local
   * disk driver in `storageDir`, whose signed addresses start with `publicOrigin` and are served
   * by this API under `/storage/…` (the web server forwards those paths to it).
   */
  storage?: FileStorage | undefined;
  /**
   * The local driver's directory, outside any web root (default `./data/storage`; with a
   * `memory://` dataDir, a temporary directory removed on close).
   */
  storageDir?: string | undefined;
  /**
   * Signs the local driver's upload and download addresses (at least 32 characters). Without
   * it, a random secret per process: addresses then stop working when the process restarts, and
   * servers sharing one storage directory must all be given the same secret (`STORAGE_SECRET`).
   */
  storageSecret?: string | undefined;
  /**
   * Seals the secrets of second factors kept in the database (at least 32 characters). Without
   * it, a random key per process: fine for a database that goes with the process, but an app set
   * up on a kept database stops working when the process restarts (`npm run api` and the web
   * server always pass one, set or kept in the data directory).
   */
  factorSecretKey?: string | undefined;
  /**
   * Replaces `fetch` towards companies' OpenID Connect providers: the attack tests answer as a
   * forged provider would.
   */
  companySignInFetch?: OidcProvidersOptions['customFetch'];
  /**
   * Remove, every 10 minutes in this process, the files nobody attached within an hour of asking
   * for their upload address (default true). Tests turn it off and call `removeDue()` by hand.
   */
  sweepUnattachedFiles?: boolean | undefined;
  /**
   * Delete, every hour in this process, the security events older than 90 days (default true).
   * Tests turn it off and call `removeDue()` by hand.
   */
  sweepSecurityEvents?: boolean | undefined;
}

/** The reference API, running in this process. */
export interface ReferenceApi {
  /** Answers one API request, exactly as the API would over HTTP. */
  fetch(request: Request): Promise<Response>;
  /** The seeded demo accounts; empty unless `seedDemoData` was set. */
  demoAccounts: DemoAccount[];
  /**
   * Stops the outbox worker and the sweepers (waiting for a pass in flight),
   * then closes the database.
   */
  close(): Promise<void>;
}

/** {@link ReferenceApi} plus the Hono app itself, for serving it with a Node HTTP server. */
export interface ReferenceApiServer extends ReferenceApi {
  app: Hono;
  /** The outbox worker (started only with `deliverOutbox`); `deliverDue()` runs one pass. */
  outbox: OutboxWorker;
  /** Where emails go, for the start-up log, e.g. `SMTP smtp.example.com:587`. */
  emailDelivery: string;
  /** Where files go: the chosen driver. */
  storage: FileStorage;
  /** Removes unattached files (started only with `sweepUnattachedFiles`). */
  unattachedFiles: UnattachedFileSweeper;
  /** Deletes security events past their 90 days (started only with `sweepSecurityEvents`). */
  securityEvents: SecurityEventSweeper;
}

/**
 * Opens (and migrates) the database, seeds the demo data if asked, builds the app and starts the
 * outbox worker. Open it once at start-up: the first start of PGlite in an empty directory takes
 * a few seconds.
 */
export async function openReferenceApi(
  options: ReferenceApiOptions = {},
): Promise<ReferenceApiServer> {
  const clock = options.clock ?? systemClock;
  const publicOrigin = parseOrigin(options.publicOrigin ?? DEFAULT_PUBLIC_ORIGIN);
  if (publicOrigin === undefined) {
    throw new Error(
      `publicOrigin must be an http or https origin such as https://portal.example.com, not "${options.publicOrigin ?? ''}".`,
    );
  }
  const emailProvider =
    options.emailProvider ??
    (options.smtpUrl
      ? createSmtpEmailProvider({
          url: options.smtpUrl,
          from: options.mailFrom ?? defaultMailFrom(publicOrigin),
        })
      : keepInOutboxEmailProvider);
  const textProvider = options.textProvider ?? keepInOutboxTextProvider;
  if (
    options.storageSecret !== undefined &&
    options.storageSecret.length < MIN_STORAGE_SECRET_LENGTH
  ) {
    throw new Error(`storageSecret must be at least ${MIN_STORAGE_SECRET_LENGTH} characters long.`);
  }
  // The password dictionaries load while the database opens, so no sign-up waits for them; a
  // failed load is tried again by the first check that needs them.
  passwordEstimator().catch(() => undefined);
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
  });
  let throwAwayStorageDir: string | undefined;
  try {
    // A database kept in memory keeps its files in a directory that goes with it.
    throwAwayStorageDir =
      options.storage === undefined &&
      options.storageDir === undefined &&
      options.dataDir?.startsWith('memory://')
        ? await mkdtemp(path.join(tmpdir(), 'reference-api-storage-'))
        : undefined;
    const storage =
      options.storage ??
      new LocalFileStorage({
        directory: options.storageDir ?? throwAwayStorageDir ?? DEFAULT_STORAGE_DIR,
        secret:
          options.storageSecret === undefined
            ? randomStorageSecret()
            : Buffer.from(options.storageSecret, 'utf8'),
        publicOrigin,
        clock,
      });
    // Without a key, one for this process: what it seals lives as long as the database does.
    const secretKey = options.factorSecretKey ?? randomBytes(32);
    const connectionSecrets = createConnectionSecrets(secretKey);
    let demoAccounts: DemoAccount[] = [];
    if (options.seedDemoData) {
      const members = await seedDemoData(database.db, clock);
      await seedDemoRequests(database.db, clock, storage);
      await seedDemoCompanySignIn(database.db, clock, connectionSecrets, options.demoCompanySignIn);
      demoAccounts = options.demoCompanySignIn ? [...members, demoEmployeeAccount()] : members;
    }
    const app = createApiApp({
      db: database.db,
      clock,
      trustedProxies: options.trustedProxies ?? TrustedProxies.none,
      publicOrigin,
      outboxViewer: options.outboxViewer ?? false,
      storage,
      factorSecrets: createFactorSecrets(secretKey),
      companySignIn: {
        oidc: createOidcProviders({ customFetch: options.companySignInFetch }),
        connectionSecrets,
      },
    });
    const outbox = createOutboxWorker({
      db: database.db,
      clock,
      email: emailProvider,
      text: textProvider,
    });
    if (options.deliverOutbox ?? true) outbox.start();
    const unattachedFiles = createUnattachedFileSweeper({ db: database.db, clock, storage });
    if (options.sweepUnattachedFiles ?? true) unattachedFiles.start();
    const securityEvents = createSecurityEventSweeper({ db: database.db, clock });
    if (options.sweepSecurityEvents ?? true) securityEvents.start();
    return {
      app,
      outbox,
      emailDelivery: emailProvider.description,
      storage,
      unattachedFiles,
      securityEvents,
      fetch: async (request) => app.fetch(request),
      demoAccounts,
      close: async () => {
        try {
          await Promise.all([outbox.stop(), unattachedFiles.stop(), securityEvents.stop()]);
          await emailProvider.close?.();
          await textProvider.close?.();
        } finally {
          await database.close();
          if (throwAwayStorageDir) await rm(throwAwayStorageDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await database.close();
    if (throwAwayStorageDir) await rm(throwAwayStorageDir, { recursive: true, force: true });
    throw error;
  }
}

/** Starts the reference API for in-process calls, e.g. by the web server. */
export async function startReferenceApi(options: ReferenceApiOptions = {}): Promise<ReferenceApi> {
  const server = await openReferenceApi(options);
  return {
    fetch: (request) => server.fetch(request),
    demoAccounts: server.demoAccounts,
    close: () => server.close(),
  };
}
