import path from 'node:path';
import { serve } from '@hono/node-server';
import { openReferenceApi } from './index.ts';

/**
 * `npm run api`: the reference API alone over HTTP (SPEC.md §7's local server on port 3000), so
 * that the web tier, or anything else, can call it at API_ORIGIN.
 *
 * Environment: API_PORT (3000), DATABASE_URL (unset: PGlite in DATA_DIR/pglite), DATA_DIR
 * (./data), SEED_DEMO_DATA (true), DEMO_PASSWORD (portal-demo-2026), TRUST_PROXY (false).
 */
function booleanSetting(name: string, fallback: boolean): boolean {
  const value = process.env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, not "${value}".`);
}

function portSetting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} must be a port number, not "${value}".`);
  }
  return port;
}

const port = portSetting('API_PORT', 3000);
const databaseUrl = process.env['DATABASE_URL'] || undefined;
const dataDir = path.resolve(process.env['DATA_DIR'] || './data', 'pglite');

const api = await openReferenceApi({
  databaseUrl,
  dataDir,
  seedDemoData: booleanSetting('SEED_DEMO_DATA', true),
  trustProxy: booleanSetting('TRUST_PROXY', false),
});

const server = serve({ fetch: api.app.fetch, port }, (info) => {
  const database = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`;
  console.log(`Reference API listening on http://localhost:${info.port} — database: ${database}`);
  if (api.demoAccounts.length > 0) {
    console.log('Demo accounts (email, password):');
    for (const account of api.demoAccounts) {
      console.log(
        `  ${account.email.padEnd(28)} ${account.password.padEnd(20)} ${account.description}`,
      );
    }
  }
});

function shutDown(signal: string): void {
  console.log(`${signal} received, closing the reference API.`);
  server.close(() => {
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Closing the database failed:', error);
        process.exit(1);
      },
    );
  });
}

process.once('SIGINT', () => {
  shutDown('SIGINT');
});
process.once('SIGTERM', () => {
  shutDown('SIGTERM');
});
