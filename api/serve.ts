import path from 'node:path';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { isDataFolderInUse } from './db/data-folder-lock.ts';
import { demoAccountsText } from './demo/demo-accounts.ts';
import { secretKeptIn } from '../platform/kept-secret.ts';
import { DEFAULT_PUBLIC_ORIGIN, openReferenceApi, type ReferenceApiServer } from './index.ts';
import {
  booleanSetting,
  choiceSetting,
  ConfigurationError,
  hostSetting,
  isLoopbackHost,
  productionConveniencesLine,
  servesProduction,
  originSetting,
  parseSettings,
  portSetting,
  smtpUrlSetting,
  secretKeySetting,
  trustedProxiesSetting,
} from '../platform/settings.ts';
import { logLevels } from '../platform/logger.ts';
import { readS3Settings } from '../platform/s3-settings.ts';

/**
 * `npm run api`: the reference API alone over HTTP (docs/PRODUCT.md §7's local server on port
 * 3000), so that the web tier, or anything else, can call it at API_ORIGIN.
 *
 * Environment (README): API_HOST (127.0.0.1), API_PORT (3000), DATABASE_URL (unset: PGlite in
 * DATA_DIR/pglite), DATA_DIR (./data), SEED_DEMO_DATA (true, but false where PUBLIC_ORIGIN is https or API_HOST
 * is not loopback), DEMO_PASSWORD (portal-demo-2026),
 * TRUSTED_PROXIES (none), PUBLIC_ORIGIN (http://localhost:4321), SMTP_URL (unset: emails stay in the
 * outbox), MAIL_FROM (Member Concierge <no-reply@{public host}>), OUTBOX_VIEWER (false),
 * STORAGE_SECRET (unset: a random one per process; files are kept in DATA_DIR/storage), S3_*
 * (files in an S3-compatible bucket instead), FACTOR_SECRET_KEY (unset: one kept in DATA_DIR).
 */
const settingsSchema = z.object({
  API_HOST: hostSetting('127.0.0.1'),
  API_PORT: portSetting(3000),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional(),
  SEED_DEMO_DATA: booleanSetting(undefined),
  TRUSTED_PROXIES: trustedProxiesSetting,
  PUBLIC_ORIGIN: originSetting(DEFAULT_PUBLIC_ORIGIN),
  SMTP_URL: smtpUrlSetting,
  MAIL_FROM: z.string().optional(),
  OUTBOX_VIEWER: booleanSetting(false),
  STORAGE_SECRET: secretKeySetting,
  FACTOR_SECRET_KEY: secretKeySetting,
  // Read by the logger itself (logger.ts); checked here so that a typo stops the start.
  LOG_LEVEL: choiceSetting(logLevels, undefined),
});

let settings: z.output<typeof settingsSchema>;
let s3Settings: ReturnType<typeof readS3Settings>;
try {
  settings = parseSettings(settingsSchema, process.env);
  s3Settings = readS3Settings(process.env);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(`\n${error.message}\n`);
  process.exit(1);
}

const production = servesProduction(settings.PUBLIC_ORIGIN, settings.API_HOST);
const databaseUrl = settings.DATABASE_URL || undefined;
const dataDir = path.resolve(settings.DATA_DIR || './data', 'pglite');
const storageDir = path.resolve(settings.DATA_DIR || './data', 'storage');

let api: ReferenceApiServer;
try {
  api = await openReferenceApi({
    databaseUrl,
    dataDir,
    seedDemoData: settings.SEED_DEMO_DATA ?? !production,
    trustedProxies: settings.TRUSTED_PROXIES,
    publicOrigin: settings.PUBLIC_ORIGIN,
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM?.trim() || undefined,
    outboxViewer: settings.OUTBOX_VIEWER,
    storageDir,
    storageSecret: settings.STORAGE_SECRET,
    // Unlike file addresses, an app's secret must outlive the process: the key is kept on disk.
    factorSecretKey:
      settings.FACTOR_SECRET_KEY ??
      secretKeptIn(path.resolve(settings.DATA_DIR || './data', 'factor-secret-key')),
    // The AWS SDK is loaded only when the files go to S3.
    storage: s3Settings
      ? (await import('./services/files/storage/s3-storage.ts')).createS3Storage(s3Settings)
      : undefined,
  });
} catch (error) {
  // Another process has the data folder: say so in one line, as for a wrong setting.
  if (!isDataFolderInUse(error)) throw error;
  console.error(`\n${error.message}\n`);
  process.exit(1);
}

const server = serve(
  { fetch: api.app.fetch, port: settings.API_PORT, hostname: settings.API_HOST },
  (info) => {
    const database = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`;
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(`Reference API listening on http://${host}:${info.port} — database: ${database}`);
    console.log(`Emails: ${api.emailDelivery}; links point to ${settings.PUBLIC_ORIGIN}.`);
    console.log(
      s3Settings
        ? `Files: ${api.storage.description}.`
        : `Files: ${api.storage.description}; addresses start with ${settings.PUBLIC_ORIGIN}/storage/.`,
    );
    if (!s3Settings && !settings.STORAGE_SECRET) {
      console.log(
        'STORAGE_SECRET is not set: file addresses are signed with a random key and stop working when this process restarts.',
      );
    }
    if (production) {
      console.log(
        productionConveniencesLine({
          demoData: api.demoAccounts.length > 0,
          outboxViewer: settings.OUTBOX_VIEWER,
        }),
      );
    }
    if (settings.OUTBOX_VIEWER) {
      console.log(`Outbox viewer: http://${host}:${info.port}/api/v1/outbox`);
      if (!isLoopbackHost(settings.API_HOST)) {
        console.warn(
          `WARNING: OUTBOX_VIEWER is on and the API listens on ${settings.API_HOST}: anyone who reaches it can read every reset and unlock link. Turn it off outside development.`,
        );
      }
    }
    if (api.demoAccounts.length > 0) console.log(demoAccountsText(api.demoAccounts));
  },
);

function shutDown(signal: string): void {
  console.log(`${signal} received, closing the reference API.`);
  server.close(() => {
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Closing the reference API failed:', error);
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
