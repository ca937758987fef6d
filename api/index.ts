import type { Hono } from 'hono';
import { createApiApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { seedDemoData, type DemoAccount } from './db/seed.ts';
import { systemClock, type Clock } from './services/clock.ts';

export type { DemoAccount } from './db/seed.ts';
export type { Clock } from './services/clock.ts';

export interface ReferenceApiOptions {
  /** `postgres://…` for a real PostgreSQL; without it, an embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** The PGlite data directory (default `./data/pglite`; `memory://` keeps nothing). */
  dataDir?: string | undefined;
  /** Create the demo companies and accounts (default false). */
  seedDemoData?: boolean | undefined;
  clock?: Clock | undefined;
  /**
   * How many proxies the operator runs in front of the API, each appending to `X-Forwarded-For`
   * (default 0: the socket address is the client's). The web server calling the embedded API
   * in-process is one.
   */
  trustedProxies?: number | undefined;
}

/** The reference API, running in this process. */
export interface ReferenceApi {
  /** Answers one API request, exactly as the API would over HTTP. */
  fetch(request: Request): Promise<Response>;
  /** The seeded demo accounts; empty unless `seedDemoData` was set. */
  demoAccounts: DemoAccount[];
  /** Closes the database. */
  close(): Promise<void>;
}

/** {@link ReferenceApi} plus the Hono app itself, for serving it with a Node HTTP server. */
export interface ReferenceApiServer extends ReferenceApi {
  app: Hono;
}

/**
 * Opens (and migrates) the database, seeds the demo data if asked, and builds the app. Open it
 * once at start-up: the first start of PGlite in an empty directory takes a few seconds.
 */
export async function openReferenceApi(
  options: ReferenceApiOptions = {},
): Promise<ReferenceApiServer> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
  });
  try {
    const demoAccounts = options.seedDemoData ? await seedDemoData(database.db, clock) : [];
    const app = createApiApp({
      db: database.db,
      clock,
      trustedProxies: options.trustedProxies ?? 0,
    });
    return {
      app,
      fetch: async (request) => app.fetch(request),
      demoAccounts,
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
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
