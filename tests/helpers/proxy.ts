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
 *
 * With `healthCheck`, each instance's path (`/readyz`) is asked every `intervalMs`, as a load
 * balancer's health check does: an instance that answers anything but 200, or none within 3 s,
 * gets no new request until it answers 200 again (unless none does).
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

export async function startRoundRobinProxy(
  targets: string[],
  options: { healthCheck?: { path: string; intervalMs: number } } = {},
): Promise<RoundRobinProxy> {
  const sent = targets.map(() => 0);
  const healthy = targets.map(() => true);
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
    // The next healthy instance in turn, or the next one when none is.
    let first = next;
    for (let i = 0; i < targets.length && !healthy[first]!; i += 1) {
      first = (first + 1) % targets.length;
    }
    if (!healthy[first]) first = next;
    next = (first + 1) % targets.length;
    forward(first, 1);
  });
  let checks: ReturnType<typeof setInterval> | undefined;
  if (options.healthCheck) {
    const { path, intervalMs } = options.healthCheck;
    const probing = targets.map(() => false);
    const probe = (index: number) => {
      if (probing[index]) return;
      probing[index] = true;
      const done = (ok: boolean) => {
        healthy[index] = ok;
        probing[index] = false;
      };
      const ask = request(new URL(path, targets[index]), { agent: false }, (answer) => {
        answer.resume();
        done(answer.statusCode === 200);
      });
      // Longer than /readyz's own limit on its checks: a slow answer still counts.
      ask.setTimeout(3000, () => ask.destroy());
      ask.on('error', () => done(false));
      ask.end();
    };
    checks = setInterval(() => targets.forEach((_, index) => probe(index)), intervalMs);
  }
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
        clearInterval(checks);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
