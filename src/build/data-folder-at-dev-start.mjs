/**
 * `npm run dev` as it starts, as `npm start` does: it refuses a data folder another process holds,
 * in one line, and prints the demo accounts. Its embedded API opens the database only at the first
 * page that calls it (src/server/api/transport.ts); opening it here made the editor's saves reach
 * the pages late, so this reads the folder's lock and the accounts' list without opening either.
 */
import path from 'node:path';
import { isDataFolderInUse, refuseDataFolderInUse } from '../../api/db/data-folder-lock.ts';
import {
  demoAccounts,
  demoAccountsText,
  markDemoAccountsShown,
} from '../../api/db/demo-accounts.ts';
import { parseConfig } from '../server/config.ts';

/** @returns {import('astro').AstroIntegration} */
export function dataFolderAtDevStart() {
  return {
    name: 'data-folder-at-dev-start',
    hooks: {
      'astro:config:setup': async ({ command }) => {
        if (command !== 'dev') return;
        const settings = parseConfig(process.env);
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
          console.log(demoAccountsText(demoAccounts()));
          markDemoAccountsShown();
        }
      },
    },
  };
}
