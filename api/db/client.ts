import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { logger } from '../logger.ts';
import * as schema from './schema.ts';

/** The drizzle database, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabaseOptions {
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

export const DEFAULT_PGLITE_DATA_DIR = './data/pglite';

/**
 * Resolved from the working directory, not from this module: the web server bundles this code
 * with Vite, after which `import.meta.url` no longer points into api/db/.
 */
export function migrationsFolder(): string {
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

async function openPostgres(databaseUrl: string): Promise<OpenedDatabase> {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  // An idle connection dropped by the server emits 'error'; unhandled, it would end the process.
  pool.on('error', (error) => {
    logger.error({ err: error }, 'PostgreSQL connection error');
  });
  try {
    // Several servers may start together against one database; the advisory lock makes the
    // second wait for the first one's migrations instead of racing it.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await migrateNodePostgres(drizzleNodePostgres({ client, schema }), {
          migrationsFolder: migrationsFolder(),
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db: Database = drizzleNodePostgres({ client: pool, schema });
  return { db, kind: 'postgres', close: () => pool.end() };
}

async function openPglite(dataDir: string): Promise<OpenedDatabase> {
  if (!dataDir.startsWith('memory://')) {
    // PGlite does not create missing parent directories itself.
    await mkdir(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir);
  try {
    const pgliteDb = drizzlePglite({ client, schema });
    await migratePglite(pgliteDb, { migrationsFolder: migrationsFolder() });
    const db: Database = pgliteDb;
    return { db, kind: 'pglite', close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
