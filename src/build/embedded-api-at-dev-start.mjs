/**
 * `npm run dev` opens the embedded API as it starts, as `npm start` does, rather than at the
 * first page that calls it: a data folder another server holds (api/db/data-folder-lock.ts) then
 * stops it at once, in one line, instead of at someone's first sign-in; and the demo accounts are
 * printed before the address, where the README says they are.
 *
 * It also names the server's address as the server says it is ready, `http://localhost:<port>`
 * on loopback (src/server/config.ts, `localAddress`): the one where passkeys work.
 */
import { localAddress } from '../server/config.ts';

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
        // The readiness probe opens the embedded API through the pages' own code, as `npm start`
        // asks it before it says it is ready; a folder in use ends the process there.
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        const probeHost = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
        const probe = await fetch(`http://${probeHost}:${address.port}/readyz`);
        await probe.body?.cancel();
        if (viteServer?.resolvedUrls) {
          viteServer.resolvedUrls.local = [
            `${localAddress({ host: address.address, port: address.port })}/`,
          ];
        }
      },
    },
  };
}
