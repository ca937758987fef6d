/**
 * `npm run dev` opens the embedded API as it starts, as `npm start` does, rather than at the
 * first page that calls it: a data folder another server holds (api/db/data-folder-lock.ts) then
 * stops it at once, in one line, instead of at someone's first sign-in; and the demo accounts are
 * printed before the address, where the README says they are.
 *
 * It also names the server's address as the server says it is ready, `http://localhost:<port>`
 * on loopback (src/server/config.ts, `localAddress`): the one where passkeys work.
 */

/** The module that starts the embedded API once per process, as the pages load it. */
const apiTransportModule = '/src/server/api/transport.ts';

/** @returns {import('astro').AstroIntegration} */
export function embeddedApiAtDevStart() {
  /** @type {import('vite').ViteDevServer | undefined} */
  let viteServer;
  return {
    name: 'embedded-api-at-dev-start',
    hooks: {
      'astro:server:setup': ({ server }) => {
        viteServer = server;
      },
      'astro:server:start': async ({ address }) => {
        if (viteServer === undefined) throw new Error('embedded-api-at-dev-start: no dev server');
        const environment = viteServer.environments['ssr'];
        if (!environment || !('runner' in environment)) {
          throw new Error('embedded-api-at-dev-start: the ssr environment runs no modules');
        }
        /** @type {typeof import('../server/api/transport.ts')} */
        const transport = await environment.runner.import(apiTransportModule);
        /** @type {typeof import('../server/config.ts')} */
        const { localAddress } = await environment.runner.import('/src/server/config.ts');
        // Refuses a data folder in use, says so and ends the process; prints the demo accounts.
        await transport.apiEndpoint();
        if (viteServer.resolvedUrls) {
          viteServer.resolvedUrls.local = [
            `${localAddress({ host: address.address, port: address.port })}/`,
          ];
        }
      },
    },
  };
}
