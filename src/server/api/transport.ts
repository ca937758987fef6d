import path from 'node:path';
import { isDataFolderInUse, refuseDataFolderInUse } from '../../../api/db/data-folder-lock.ts';
import {
  demoAccounts,
  demoAccountsShownAtStart,
  demoAccountsText,
  demoEmployeeAccount,
  markDemoAccountsShown,
} from '../../../api/demo/demo-accounts.ts';
import { onShutdown } from '../../../platform/shutdown.ts';
import type { ApiThreadOptions } from '../../../api/embedded-thread-messages.ts';
import type { ReferenceApi } from '../../../api/index.ts';
import type { ApiTransport } from './client';
import { config, productionApiWarning, siteOrigin, type WebConfig } from '../config';
import { factorSecretKey, storageSecret } from '../secret';
import { startDemoIdentityProvider } from './demo-identity-provider';

export interface ApiEndpoint {
  readonly transport: ApiTransport;
  readonly baseUrl: string;
}

/**
 * One endpoint per process, kept on the global object: `astro dev` runs this module again when a
 * file it imports changes, and a second embedded API would open the data folder this process
 * already holds (api/db/data-folder-lock.ts).
 */
const sharedByEveryCopy = globalThis as unknown as Record<symbol, Promise<ApiEndpoint> | undefined>;
const endpointKey = Symbol.for('member-portal.api-endpoint');

/**
 * Where the API is: over HTTP when API_ORIGIN is set, otherwise the embedded
 * reference API, started once per process and called in-process (no network
 * hop, same Request and Response either way).
 */
export function apiEndpoint(): Promise<ApiEndpoint> {
  sharedByEveryCopy[endpointKey] ??= connect();
  return sharedByEveryCopy[endpointKey];
}

/**
 * The embedded reference API: in a worker thread of its own when the production server asked for
 * one (scripts/start.mjs), so that its queries run beside the pages being rendered; otherwise
 * (`astro dev`) in this thread.
 */
async function startEmbeddedApi(options: ApiThreadOptions): Promise<ReferenceApi> {
  const { embeddedApiThreadEntry, startReferenceApiInThread } =
    await import('../../../api/embedded-thread-client.ts');
  const entry = embeddedApiThreadEntry();
  if (entry) return startReferenceApiInThread(entry, options);
  const { startReferenceApi, TrustedProxies } = await import('../../../api/index.ts');
  const { s3, ...settings } = options;
  return startReferenceApi({
    ...settings,
    // The AWS SDK is loaded only when the files go to S3.
    storage: s3
      ? (await import('../../../api/services/files/storage/s3-storage.ts')).createS3Storage(s3)
      : undefined,
    // Only this process calls the embedded API, with no socket between them: it is the one proxy
    // in front, and passes on the visitor's address that scripts/start.mjs worked out.
    trustedProxies: TrustedProxies.thisProcess,
  });
}

async function connect(): Promise<ApiEndpoint> {
  const settings = config();
  if (settings.apiOrigin) {
    const warning = productionApiWarning(settings);
    if (warning) console.warn(`\n${'!'.repeat(72)}\n${warning}\n${'!'.repeat(72)}\n`);
    return { transport: (request) => fetch(request), baseUrl: settings.apiOrigin };
  }

  const options: ApiThreadOptions = {
    ...(settings.databaseUrl
      ? { databaseUrl: settings.databaseUrl }
      : { dataDir: path.resolve(settings.dataDir, 'pglite') }),
    seedDemoData: settings.seedDemoData,
    demoCompanySignIn: settings.demoCompanySignIn
      ? await startDemoIdentityProvider(siteOrigin(settings))
      : undefined,
    publicOrigin: siteOrigin(settings),
    outboxViewer: settings.outboxViewer,
    smtpUrl: settings.smtpUrl,
    mailFrom: settings.mailFrom,
    storageDir: path.resolve(settings.dataDir, 'storage'),
    storageSecret: storageSecret(),
    factorSecretKey: factorSecretKey(),
    s3: settings.s3,
  };
  let api: ReferenceApi;
  try {
    api = await startEmbeddedApi(options);
  } catch (error) {
    // Another process has the data folder (`npm run api` on ./data, say): the server cannot
    // start, and says why in one line, as for a wrong setting (scripts/start.mjs).
    if (!isDataFolderInUse(error)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
  // Its outbox worker finishes the message in flight and the database closes once the last
  // request has been answered.
  onShutdown(() => api.close());
  if (api.demoAccounts.length > 0 && !demoAccountsShownAtStart()) {
    console.log(demoAccountsText(api.demoAccounts));
  }
  return { transport: (request) => api.fetch(request), baseUrl: 'http://embedded-api.internal' };
}

/**
 * `npm run dev` as it starts, as `npm start` does: it refuses a data folder another process holds,
 * in one line, and prints the demo accounts. The embedded API opens the database only at the first
 * page that calls it; opening it here made the editor's saves reach the pages late, so this reads
 * the folder's lock and the accounts' list without opening either. It runs as the configuration
 * loads, whose module loader is closed by then to any later `import()`: what it uses is imported
 * statically.
 */
export async function checkDataFolderAtDevStart(settings: WebConfig): Promise<void> {
  if (settings.apiOrigin) return;
  if (!settings.databaseUrl) {
    try {
      await refuseDataFolderInUse(path.resolve(settings.dataDir, 'pglite'));
    } catch (error) {
      if (!isDataFolderInUse(error)) throw error;
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
  }
  if (settings.seedDemoData) {
    const employee = settings.demoCompanySignIn ? [demoEmployeeAccount()] : [];
    console.log(demoAccountsText([...demoAccounts(), ...employee]));
    markDemoAccountsShown();
  }
}
