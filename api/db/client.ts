import { mkdir } from 'node:fs/promises';
import { Socket } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { countDatabaseStatement, logger } from '../../platform/logger.ts';
import { lockDataFolder } from './data-folder-lock.ts';
import * as schema from './schema/index.ts';

/** The drizzle database, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

interface OpenDatabaseOptions {
  /** `postgres://…`: a real PostgreSQL. Without it, an embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory (default `./data/pglite`), or `memory://` for a throw-away one. */
  dataDir?: string | undefined;
}

export interface OpenedDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const DEFAULT_PGLITE_DATA_DIR = './data/pglite';

/** Counts each statement against the request that sent it: a page's cost, in its log line. */
const statementCounter: Logger = { logQuery: countDatabaseStatement };

/**
 * Resolved from the working directory, not from this module: the web server bundles this code
 * with Vite, after which `import.meta.url` no longer points into api/db/.
 */
function migrationsFolder(): string {
  return path.resolve(process.cwd(), 'api/db/migrations');
}

/** Arbitrary but fixed: every API process agrees on it, so only one migrates at a time. */
const MIGRATION_LOCK_ID = 7_310_254_118;

/** Opens the database and applies the committed migrations before returning it. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<OpenedDatabase> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl);
  }
  return openPglite(options.dataDir ?? DEFAULT_PGLITE_DATA_DIR);
}

/**
 * How long opening a connection to PostgreSQL may take, and how long a call may wait for one
 * when all are busy. Past it the call fails as "database unavailable" (503) instead of waiting
 * for a database that does not answer.
 */
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/**
 * A pooled connection on which PostgreSQL has said nothing for this long is given up (closed,
 * and its query failed as "database unavailable"). The API's queries take milliseconds, so this
 * only happens when the database or the network in between vanished without closing the
 * connection; without it such a connection would wait forever and never go back to the pool.
 */
const POSTGRES_SILENCE_TIMEOUT_MS = 15_000;

/** Idle pooled connections are closed sooner than they could fall silent for too long. */
const POSTGRES_IDLE_TIMEOUT_MS = 10_000;

/** A socket for the pool that gives up on a connection silent for POSTGRES_SILENCE_TIMEOUT_MS. */
function socketGivingUpOnSilence(): Socket {
  const socket = new Socket();
  socket.setTimeout(POSTGRES_SILENCE_TIMEOUT_MS, () => {
    const silence = new Error(
      `PostgreSQL said nothing for ${POSTGRES_SILENCE_TIMEOUT_MS / 1000} s; connection closed`,
    ) as Error & { code: string };
    // A network code, so that the API answers 503 (api/db/unavailable.ts).
    silence.code = 'ETIMEDOUT';
    socket.destroy(silence);
  });
  return socket;
}

async function openPostgres(databaseUrl: string): Promise<OpenedDatabase> {
  await migratePostgres(databaseUrl);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: POSTGRES_IDLE_TIMEOUT_MS,
    stream: socketGivingUpOnSilence,
  });
  // An idle connection dropped by the server emits 'error'; unhandled, it would end the process.
  pool.on('error', (error) => {
    logger.error({ err: error }, 'PostgreSQL connection error');
  });
  const db: Database = drizzleNodePostgres({ client: pool, schema, logger: statementCounter });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * Applies the migrations on a connection of its own, outside the pool: waiting for another
 * server's migrations is silence the pool's connections would not tolerate.
 */
async function migratePostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  });
  client.on('error', (error) => {
    logger.error({ err: error }, 'PostgreSQL connection error while migrating');
  });
  await client.connect();
  try {
    // Several servers may start together against one database; the advisory lock makes the
    // second wait for the first one's migrations instead of racing it.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrateNodePostgres(drizzleNodePostgres({ client, schema }), {
        migrationsFolder: migrationsFolder(),
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}

/**
 * Opens PGlite in `dataDir`, which this process then holds alone until `close()`: a second
 * process on the folder gets a DataFolderInUseError (data-folder-lock.ts) instead of a database
 * both would write as if alone.
 */
async function openPglite(dataDir: string): Promise<OpenedDatabase> {
  if (dataDir.startsWith('memory://')) return openPgliteIn(dataDir, () => Promise.resolve());
  // PGlite does not create missing parent directories itself.
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataFolder(dataDir);
  try {
    return await openPgliteIn(dataDir, () => lock.release());
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function openPgliteIn(
  dataDir: string,
  afterClose: () => Promise<void>,
): Promise<OpenedDatabase> {
  const client = await PGlite.create(dataDir);
  const close = async () => {
    try {
      await client.close();
    } finally {
      await afterClose();
    }
  };
  try {
    const pgliteDb = drizzlePglite({ client, schema, logger: statementCounter });
    await migratePglite(pgliteDb, { migrationsFolder: migrationsFolder() });
    const db: Database = pgliteDb;
    return { db, kind: 'pglite', close };
  } catch (error) {
    await client.close();
    throw error;
  }
}
