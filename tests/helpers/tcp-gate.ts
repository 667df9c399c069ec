/**
 * A TCP pass-through in front of a service (the bucket, the database) that a test can stop
 * and start again on the same port, as the service itself going down and coming back: while
 * closed, open connections are cut and new ones refused.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpGate {
  /** host:port clients connect to instead of the target. */
  host: string;
  port: number;
  /** Cuts every connection and refuses new ones. */
  close(): Promise<void>;
  /** Accepts connections again on the same port. */
  open(): Promise<void>;
  /**
   * Cuts every connection, then takes new ones and never answers (`true`), as a hung service
   * or a network that drops its packets; `false` passes them on again.
   */
  hang(on: boolean): void;
  /** Closes for good. */
  stop(): Promise<void>;
}

export async function startTcpGate(target: { host: string; port: number }): Promise<TcpGate> {
  const sockets = new Set<Socket>();
  let hung = false;
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const next = createServer((client) => {
      if (hung) {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => client.destroy());
        return;
      }
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as { port: number }).port;
    server = next;
  };
  const close = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  return {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    close,
    open: async () => {
      if (!server) await listen();
    },
    hang(on) {
      hung = on;
      for (const socket of sockets) socket.destroy();
    },
    stop: close,
  };
}
