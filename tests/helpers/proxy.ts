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
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  const sent = targets.map(() => 0);
  let next = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    sent[index]! += 1;
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
