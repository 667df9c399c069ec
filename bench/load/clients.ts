/**
 * The load bench's clients: the mix run for a phase, by autocannon in a closed loop (`load`) or
 * as clients that pause between their actions (`thinkLoad`), and the open event streams.
 */
import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import {
  headersFor,
  MIX,
  requestsOf,
  type Context,
  type Data,
  type Req,
  type Work,
} from './actions';

/** A stream per tab; one user may hold 10 per server (routes/events.ts). */
export const MAX_STREAMS = 16;

interface KindFigures {
  ms: number[];
  statuses: Map<number, number>;
}

/** What one phase of load measured, by kind of call. */
export interface Phase {
  seconds: number;
  kinds: Map<string, KindFigures>;
  /** Requests that got no answer (timeouts, broken connections), by kind of work. */
  failures: Map<string, number>;
}

/** Runs the mix over `url` for `seconds` with `clients` connections in all. */
export async function load(
  url: string,
  data: Data,
  clients: number,
  seconds: number,
): Promise<Phase> {
  const phase: Phase = { seconds, kinds: new Map(), failures: new Map() };
  const works = Object.entries(MIX) as [Work, number][];
  await Promise.all(
    works.map(async ([work, share]) => {
      const connections = Math.max(1, Math.round(clients * share));
      const requests = requestsOf(work, data);
      // The request just answered, named by onResponse before autocannon's 'response' event.
      let answered: { kind: string; status: number } | undefined;
      for (const request of requests) {
        const after = request.onResponse;
        request.onResponse = (status, body, context, headers) => {
          if (typeof after === 'function') after(status, body, context, headers);
          answered = { kind: request.kind, status };
        };
      }
      let instance: autocannon.Instance | undefined;
      const done = new Promise<autocannon.Result>((resolveRun, reject) => {
        const options = { url, connections, duration: seconds, timeout: 30, requests };
        instance = autocannon(options, (error, result) =>
          error ? reject(error as Error) : resolveRun(result),
        );
      });
      instance!.on('response', (_client, _status, _bytes, ms) => {
        if (!answered) return;
        const figures = phase.kinds.get(answered.kind) ?? {
          ms: [],
          statuses: new Map<number, number>(),
        };
        phase.kinds.set(answered.kind, figures);
        figures.ms.push(ms);
        figures.statuses.set(answered.status, (figures.statuses.get(answered.status) ?? 0) + 1);
        answered = undefined;
      });
      const result = await done;
      // Connection errors, timeouts included.
      phase.failures.set(work, result.errors);
    }),
  );
  return phase;
}

/**
 * Runs the mix over `url` for `seconds` with `clients` clients in all, each pausing between two
 * of its requests for a random time, uniform between 0.5 and 1.5 times `thinkMs` (and once
 * before its first, uniform up to `thinkMs`, so they do not start in step), as an admin reads
 * a page before the next click. The same requests as `load`'s, sent over keep-alive
 * connections, one per client.
 */
export async function thinkLoad(
  url: string,
  data: Data,
  clients: number,
  seconds: number,
  thinkMs: number,
): Promise<Phase> {
  const phase: Phase = { seconds, kinds: new Map(), failures: new Map() };
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const target = new URL(url);
  const ends = performance.now() + seconds * 1000;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const send = (req: autocannon.Request) =>
    new Promise<{ status: number; headers: Record<string, string> }>((resolveSend, reject) => {
      const outgoing = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.path,
          headers: req.headers,
          timeout: 30_000,
        },
        (response) => {
          response.resume();
          response.once('end', () =>
            resolveSend({
              status: response.statusCode ?? 0,
              headers: response.headers as Record<string, string>,
            }),
          );
          response.once('error', reject);
        },
      );
      outgoing.once('timeout', () => outgoing.destroy(new Error('timed out')));
      outgoing.once('error', reject);
      outgoing.end(req.body);
    });
  const client = async (work: Work, requests: Req[]) => {
    await pause(Math.random() * thinkMs);
    while (performance.now() < ends) {
      // A new context each round, as autocannon gives its connections.
      const context: Context = {};
      for (const request of requests) {
        const base: autocannon.Request = { method: request.method };
        const setup = request.setupRequest as
          ((req: autocannon.Request, context: Context) => autocannon.Request | null) | undefined;
        const req = setup ? setup(base, context) : base;
        if (!req) break;
        const began = performance.now();
        try {
          const { status, headers } = await send(req);
          if (performance.now() > ends) return;
          const ms = performance.now() - began;
          if (typeof request.onResponse === 'function') {
            request.onResponse(status, '', context, headers);
          }
          const figures = phase.kinds.get(request.kind) ?? {
            ms: [],
            statuses: new Map<number, number>(),
          };
          phase.kinds.set(request.kind, figures);
          figures.ms.push(ms);
          figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
        } catch {
          phase.failures.set(work, (phase.failures.get(work) ?? 0) + 1);
        }
        await pause(thinkMs * (0.5 + Math.random()));
        if (performance.now() > ends) return;
      }
    }
  };
  const running: Promise<void>[] = [];
  for (const [work, share] of Object.entries(MIX) as [Work, number][]) {
    const connections = Math.max(1, Math.round(clients * share));
    const requests = requestsOf(work, data);
    for (let i = 0; i < connections; i++) running.push(client(work, requests));
  }
  await Promise.all(running);
  agent.destroy();
  return phase;
}

export interface Streams {
  wanted: number;
  open: number;
  events: number;
  refused: number;
  dropped: number;
  close(): void;
}

/** Holds `count` live event streams open through `url`, counting what they receive. */
export function openStreams(url: string, data: Data, count: number): Streams {
  const stop = new AbortController();
  const streams: Streams = {
    wanted: count,
    open: 0,
    events: 0,
    refused: 0,
    dropped: 0,
    close: () => stop.abort(),
  };
  for (let i = 0; i < count; i++) {
    void (async () => {
      try {
        const response = await fetch(`${url}/v1/events`, {
          headers: headersFor(data, { accept: 'text/event-stream' }),
          signal: stop.signal,
        });
        if (response.status !== 200 || !response.body) {
          streams.refused += 1;
          return;
        }
        streams.open += 1;
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          const text = decoder.decode(chunk, { stream: true });
          streams.events += text.match(/^id: /gm)?.length ?? 0;
        }
        streams.open -= 1;
        streams.dropped += 1;
      } catch {
        if (!stop.signal.aborted) streams.dropped += 1;
        else streams.open -= 1;
      }
    })();
  }
  return streams;
}
