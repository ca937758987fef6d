import { createServer } from 'node:http';
import { listenOnFreePort } from '../scripts/free-port.mjs';

/**
 * The floor of this machine: a page with nothing but a heading, sent with the portal's own
 * headers, which Lighthouse loads like the portal's pages. No page can do better than it on the
 * same machine, so the bench prints it beside them: what a page adds is its difference from the
 * floor.
 */
export const floorPageHtml =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Sign in</title><meta name="description" content="The machine\'s floor."></head>' +
  '<body><main><h1>Sign in</h1></main></body></html>';

/**
 * Headers that describe one answer's body, its connection or its visitor rather than how the
 * browser must treat the page: the floor page sends its own or none.
 */
const notCopied = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'set-cookie',
  'transfer-encoding',
  'vary',
  'x-request-id',
]);

/**
 * The headers of a portal page that change how a browser loads it (the security headers, among
 * them Cross-Origin-Opener-Policy, which puts the page in a process of its own), for the floor
 * page to send too.
 */
export function floorHeaders(pageHeaders: Headers): Record<string, string> {
  const copied: Record<string, string> = {};
  for (const [name, value] of pageHeaders) {
    if (!notCopied.has(name.toLowerCase())) copied[name] = value;
  }
  return copied;
}

/** Serves the floor page on a free loopback port (scripts/free-port.mjs) until `stop()`. */
export async function startFloorPage(
  headers: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
    response.end(floorPageHtml);
  });
  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
