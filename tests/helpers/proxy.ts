/**
 * A round-robin HTTP proxy in front of several app instances, as a load balancer would be:
 * each request goes to the next instance in turn, bodies streamed both ways (uploads, the
 * live event stream), so consecutive requests of one page land on different instances.
 *
 * An instance that refuses the connection (stopped, or not started yet) is passed over for the
 * next, as nginx's proxy_next_upstream and HAProxy's redispatch do: nothing was sent, so trying
 * elsewhere is safe whatever the method. Any other failure answers 502. Each request opens its
 * own upstream connection (nginx's default): a kept-alive one that an instance closes as it
 * stops would fail a request already written to it, which no proxy may resend.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests sent to each target so far (connections it took), in the order of `targets`. */
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
    const forward = (index: number, tries: number) => {
      const target = new URL(req.url ?? '/', targets[index]);
      const headers = { method: req.method, headers: req.headers, agent: false };
      const upstream = request(target, headers, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!String(answer.headers['content-type']).startsWith('text/event-stream')) {
          answer.pipe(res);
          return;
        }
        // What arrives while silenced is dropped: the client gives such a stream up anyway.
        answer.on('data', (chunk: Buffer) => silent || res.write(chunk));
        answer.on('end', () => res.end());
      });
      let connected = false;
      // The body is read only once a connection is had, so a refused one leaves it for the next.
      upstream.on('socket', (socket) =>
        socket.once('connect', () => {
          connected = true;
          sent[index]! += 1;
          req.pipe(upstream);
        }),
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === 'ECONNREFUSED' && tries < targets.length) {
          res.off('close', cancel);
          forward((index + 1) % targets.length, tries + 1);
        } else if (!res.headersSent) {
          // The failure in the body, for the message of a test that meets it.
          res.writeHead(502).end(`${error.code ?? error.message} (connected: ${connected})`);
        } else res.destroy();
      });
      // A client that goes away (a closed page's event stream) ends its upstream request too.
      const cancel = () => upstream.destroy();
      res.on('close', cancel);
    };
    const first = next;
    next = (next + 1) % targets.length;
    forward(first, 1);
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
