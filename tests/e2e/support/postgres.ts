import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * For the `beforeAll` of tests that need PostgreSQL: without TEST_DATABASE_URL they fail, saying
 * why, rather than pass unrun. `npm test` starts a PostgreSQL of its own when the variable is not
 * set (scripts/throwaway-postgres.mjs).
 */
export function requireTestPostgres(): void {
  if (!process.env.TEST_DATABASE_URL) {
    throw new Error(
      'These tests need PostgreSQL: run them through `npm test`, which starts one of its own ' +
        "(from Debian's postgresql package), or set TEST_DATABASE_URL (see README).",
    );
  }
}

/** A database of its own on the PostgreSQL of TEST_DATABASE_URL; `drop()` it when done. */
export interface TestDatabase {
  /** The address of the new database, for DATABASE_URL. */
  readonly url: string;
  /** Drops it, closing whatever connections are still open to it. Safe to repeat. */
  drop(): Promise<void>;
}

/** Creates an empty database named `<prefix>_<random>` on the server `serverUrl` points to. */
export async function createTestDatabase(serverUrl: string, prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Runs one query on a database and returns its rows. */
export async function queryDatabase<Row extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  await queryDatabase(serverUrl, statement);
}
