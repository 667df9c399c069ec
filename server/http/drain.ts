/**
 * Stopping an HTTP server without failing a request: the listening socket closes (new
 * connections are refused, so a proxy sends them to another instance), the requests in
 * progress finish, each answered with `Connection: close` where its headers are still to be
 * sent (so its client sends nothing more on that connection), idle connections are closed, and
 * a connection whose answer had already promised keep-alive (a stream) is closed when that
 * answer ends. What is still running when the time is up is cut.
 */
import type { Server, ServerResponse } from 'node:http';

export interface HttpDrain {
  /**
   * Stops accepting connections and waits up to `timeoutMs` for the requests in progress;
   * answers how many were still running then (and were cut).
   */
  drain(timeoutMs: number): Promise<{ cut: number }>;
}

/** Follows the requests of `server` from now on, so that `drain` can let them finish. */
export function trackRequests(server: Server): HttpDrain {
  const active = new Set<ServerResponse>();
  let draining = false;
  // Before the app's handler, which may write its headers as soon as it runs.
  server.prependListener('request', (_request, response: ServerResponse) => {
    active.add(response);
    response.once('close', () => active.delete(response));
    if (draining) response.shouldKeepAlive = false;
  });
  return {
    async drain(timeoutMs) {
      draining = true;
      for (const response of active) {
        if (!response.headersSent) {
          // Not answered yet (a slow upload): its answer says `Connection: close`.
          response.shouldKeepAlive = false;
        } else if (response.shouldKeepAlive) {
          const { socket } = response;
          if (response.writableFinished) socket?.end();
          else response.once('finish', () => socket?.end());
        }
      }
      // Also closes the connections idle now (Node 19 and later).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeUp = new Promise<'time up'>((resolve) => {
        timer = setTimeout(() => resolve('time up'), timeoutMs);
      });
      try {
        if ((await Promise.race([closed, timeUp])) !== 'time up') return { cut: 0 };
        const cut = active.size;
        server.closeAllConnections();
        await closed;
        return { cut };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
