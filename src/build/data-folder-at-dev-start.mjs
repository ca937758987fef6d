import { parseConfig } from '../server/config.ts';
import { checkDataFolderAtDevStart } from '../server/api/transport.ts';

/**
 * `npm run dev` checks its data folder and prints the demo accounts as it starts, as `npm start`
 * does (src/server/api/transport.ts).
 * @returns {import('astro').AstroIntegration}
 */
export function dataFolderAtDevStart() {
  return {
    name: 'data-folder-at-dev-start',
    hooks: {
      'astro:config:setup': async ({ command }) => {
        if (command === 'dev') await checkDataFolderAtDevStart(parseConfig(process.env));
      },
    },
  };
}
