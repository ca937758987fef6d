import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../api/db/client.ts';

/**
 * Global setup of the `api` project: one database migrated once, that every test file's fresh
 * database is a copy of, instead of migrating its own (seconds each, times every file). On
 * PostgreSQL (DATABASE_URL set) it is a template database (`CREATE DATABASE … TEMPLATE`); on
 * PGlite a data folder, copied to a folder of the test's own.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder, never opened by a test: copy it. */
    pgliteTemplateFolder: string;
    /** The name of a migrated PostgreSQL database on DATABASE_URL's server, to copy. */
    postgresTemplateDatabase: string;
  }
}

/** In memory where the machine has a tmpfs there, as PGlite's `memory://` would be. */
export function scratchFolderParent(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

export async function onPostgresServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export function databaseUrlNamed(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env['DATABASE_URL'];
  if (serverUrl) {
    const name = `api_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await onPostgresServer(serverUrl, `CREATE DATABASE "${name}"`);
    const migrated = await openDatabase({ databaseUrl: databaseUrlNamed(serverUrl, name) });
    await migrated.close();
    project.provide('postgresTemplateDatabase', name);
    project.provide('pgliteTemplateFolder', '');
    return () => onPostgresServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const folder = await mkdtemp(path.join(scratchFolderParent(), 'api-test-template-'));
  const migrated = await openDatabase({ dataDir: folder });
  await migrated.close();
  project.provide('pgliteTemplateFolder', folder);
  project.provide('postgresTemplateDatabase', '');
  return () => rm(folder, { recursive: true, force: true });
}
