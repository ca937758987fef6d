/**
 * `npm run dev` names its address as `http://localhost:<port>` on loopback, as `npm start` does
 * (src/server/config.ts, `localAddress`): the one address where passkeys work.
 */
import { localAddress } from '../server/config.ts';

/** @returns {import('astro').AstroIntegration} */
export function localhostAtDevStart() {
  /** @type {import('vite').ViteDevServer | undefined} */
  let viteServer;
  return {
    name: 'localhost-at-dev-start',
    hooks: {
      'astro:server:setup': ({ server }) => {
        viteServer = server;
      },
      'astro:server:start': ({ address }) => {
        if (viteServer?.resolvedUrls) {
          viteServer.resolvedUrls.local = [
            `${localAddress({ host: address.address, port: address.port })}/`,
          ];
        }
      },
    },
  };
}
