import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { listenOnFreePort } from '../../../scripts/free-port.mjs';

/**
 * A loopback TCP proxy the test can cut and restore, to make what is behind it (a database)
 * unreachable for a while:
 * - `cut()` drops every connection and refuses new ones (the database is down: the client hears
 *   so at once);
 * - `silence()` keeps every connection open but carries nothing either way, and takes new ones
 *   that never hear back (the database's host or the network vanished: the client hears nothing);
 * - `restore()` carries new connections again. Connections silenced stay silent until the other
 *   side gives up on them, as when the database came back on another host.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  silence(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Link {
  readonly client: Socket;
  readonly upstream: Socket | undefined;
}

/** Stops a link carrying anything, for good; the sockets stay open and read what comes. */
function silenceLink({ client, upstream }: Link): void {
  client.unpipe();
  upstream?.unpipe();
  // Read and drop, so that nothing flows back through a buffer either.
  client.on('data', () => undefined);
  upstream?.on('data', () => undefined);
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let silent = false;
  const track = (link: Link): void => {
    links.add(link);
    const forget = () => links.delete(link);
    link.client.once('close', forget);
    link.upstream?.once('close', forget);
  };
  const newServer = (): Server =>
    createServer((client) => {
      client.on('error', () => undefined);
      if (silent) {
        const link = { client, upstream: undefined };
        track(link);
        silenceLink(link);
        return;
      }
      const upstream = connect(target.port, target.host);
      track({ client, upstream });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        resolve((server.address() as AddressInfo).port);
      });
    });

  let server: Server | undefined = newServer();
  const port = await listenOnFreePort(server);
  const cut = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    for (const { client, upstream } of links) {
      client.destroy();
      upstream?.destroy();
    }
    links.clear();
    if (closing)
      await new Promise<void>((resolve) =>
        closing.close(() => {
          resolve();
        }),
      );
  };
  return {
    port,
    cut,
    silence: () => {
      silent = true;
      for (const link of links) silenceLink(link);
    },
    restore: async () => {
      // Whatever was silenced stays so; only new connections are carried again.
      silent = false;
      if (server) return;
      server = newServer();
      await listen(server, port);
    },
    close: async () => {
      silent = false;
      await cut();
    },
  };
}
