import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy the test can cut and restore, to make what is behind it (a database)
 * unreachable for a while: `cut()` drops every connection and refuses new ones, `restore()`
 * listens again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const newServer = (): Server =>
    createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        resolve((server.address() as AddressInfo).port);
      });
    });

  let server: Server | undefined = newServer();
  const port = await listen(server, 0);
  const cut = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
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
    restore: async () => {
      if (server) return;
      server = newServer();
      await listen(server, port);
    },
    close: cut,
  };
}
