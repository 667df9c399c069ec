/**
 * A round-robin HTTP proxy in front of several app instances, as a load balancer would be:
 * each request goes to the next instance in turn, bodies streamed both ways (uploads, the
 * live event stream), so consecutive requests of one page land on different instances.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests sent to each target so far, in the order of `targets`. */
  sent: number[];
  /**
   * Silences the live event streams as a network that keeps connections but delivers nothing
   * would (`true`), or lets them through again (`false`): the bytes of the open streams are
   * not passed on, and new stream requests wait, until then. Everything else goes through.
   */
  silenceEventStreams(silent: boolean): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  const sent = targets.map(() => 0);
  let next = 0;
  let silent = false;
  let held: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    if (silent && req.url?.startsWith('/v1/events')) {
      held.push(() => req.socket.destroyed || server.emit('request', req, res));
      return;
    }
    const index = next;
    next = (next + 1) % targets.length;
    sent[index]! += 1;
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (!String(answer.headers['content-type']).startsWith('text/event-stream')) {
        answer.pipe(res);
        return;
      }
      // What arrives while silenced is dropped: the client gives such a stream up anyway.
      answer.on('data', (chunk: Buffer) => silent || res.write(chunk));
      answer.on('end', () => res.end());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // A client that goes away (a closed page's event stream) ends its upstream request too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    silenceEventStreams(on) {
      silent = on;
      if (on) return;
      const waiting = held;
      held = [];
      for (const resume of waiting) resume();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
