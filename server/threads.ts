/**
 * Heavy model work (the glTF validator, the morph) off the event loop: each job runs in a
 * worker thread with a heap cap (`resourceLimits`) and a wall-clock limit, after which the
 * thread is terminated, so one hostile model can neither block the server's requests nor take
 * the process down. At most MAX_THREADS jobs run at once (the server has 2 cores); the rest
 * wait their turn. A thread that answered is kept a minute for the next job of its file, since
 * loading one (tsx, the validator) takes about a second. docs/api.md "Limits".
 *
 * Callers name the TypeScript worker file. Run from source (tests, `npm run dev`, scripts), the
 * thread starts with a small module that loads it with tsx's `tsImport` (on Node 20 a worker
 * does not take `--import tsx` from `execArgv`). In the compiled server (dist-server/, built by
 * scripts/build-server.ts, where this module is itself JavaScript) the thread runs the worker's
 * compiled `.js` beside it, without tsx.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/** Threads running at once, across the validator and the morph. */
export const MAX_THREADS = 2;

export interface ThreadLimits {
  /** Wall-clock time from the thread's start (its loading included) to its answer. */
  timeoutMs: number;
  /** The thread's V8 heap (old generation), MB. Typed arrays live outside it: the declared-size limits of core/files/gltf-limits.ts bound those. */
  heapMb: number;
}

/** A job that ran out of time or memory, or whose thread died; its thread is gone. */
export class ThreadLimitError extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'crash',
    message: string,
  ) {
    super(message);
    this.name = 'ThreadLimitError';
  }
}

/** An error the job threw on purpose, passed on by name and message (e.g. MorphError). */
export interface ThreadFailure {
  name: string;
  message: string;
}

type Reply<T> = { ok: true; value: T } | { ok: false; error: ThreadFailure };

/** Whether this is the compiled server, whose worker files are JavaScript. */
const COMPILED = !import.meta.url.endsWith('.ts');

/** tsx's ESM API (its `import` condition: the CommonJS one cannot load ES modules). */
const tsxApi = () =>
  new URL(
    'dist/esm/api/index.mjs',
    pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json')),
  ).href;

/**
 * The thread's first module: the compiled worker file, or one that loads the TypeScript worker
 * file at `url` through tsx.
 */
const bootstrap = (url: URL) =>
  COMPILED
    ? new URL(url.href.replace(/\.ts$/, '.js'))
    : new URL(
        `data:text/javascript,${encodeURIComponent(
          `import { tsImport } from ${JSON.stringify(tsxApi())};\n` +
            `await tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)});`,
        )}`,
      );

let running = 0;
const waiting: (() => void)[] = [];

/** Waits for one of the MAX_THREADS slots; call the answer to give it back. */
async function takeSlot(): Promise<() => void> {
  if (running >= MAX_THREADS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
}

/**
 * Jobs running and waiting for a thread, and threads kept between jobs.
 * @internal What the tests of the limits read.
 */
export const threadLoad = () => ({ running, waiting: waiting.length, idle: idle.length });

/** A thread between jobs, kept for the next job of its file (loading one takes a second). */
interface IdleThread {
  worker: Worker;
  key: string;
  timer: ReturnType<typeof setTimeout>;
  /** Drops the thread from `idle` should it end while waiting. */
  forget: () => void;
}
const idle: IdleThread[] = [];
/** A thread nobody used for this long ends. */
const IDLE_MS = 60_000;

/**
 * Ends every thread kept between jobs.
 * @internal What the tests of the limits start from (the test files share this module).
 */
export function endIdleThreads() {
  for (const thread of idle.splice(0)) {
    clearTimeout(thread.timer);
    void thread.worker.terminate();
  }
}

function startThread(url: URL, limits: ThreadLimits): Worker {
  return new Worker(bootstrap(url), {
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    stdout: false,
    stderr: false,
  });
}

/** An idle thread of `key`, or a new one. */
function threadFor(key: string, url: URL, limits: ThreadLimits): Worker {
  const index = idle.findIndex((thread) => thread.key === key);
  if (index < 0) return startThread(url, limits);
  const [thread] = idle.splice(index, 1);
  clearTimeout(thread!.timer);
  thread!.worker.off('exit', thread!.forget).off('error', thread!.forget);
  thread!.worker.ref();
  return thread!.worker;
}

/** Keeps a thread that answered for the next job of its file (at most MAX_THREADS idle). */
function keepIdle(worker: Worker, key: string) {
  worker.unref();
  const timer = setTimeout(() => {
    idle.splice(idle.indexOf(thread), 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  const thread: IdleThread = {
    worker,
    key,
    timer,
    forget: () => {
      clearTimeout(timer);
      if (idle.includes(thread)) idle.splice(idle.indexOf(thread), 1);
    },
  };
  worker.once('exit', thread.forget).once('error', thread.forget);
  idle.push(thread);
  if (idle.length > MAX_THREADS) {
    const oldest = idle.shift()!;
    clearTimeout(oldest.timer);
    void oldest.worker.terminate();
  }
}

/**
 * Runs the worker file at `url` (which calls `serveThread`) on `input` in a thread and answers
 * its result. An `input` that is a function (never one itself: a function cannot be sent to a
 * thread) reads the input once the job has its thread, so jobs waiting their turn hold
 * nothing: 50 uploads waiting for the delivery derivation once held their 5 MB models each.
 * Rejects with ThreadLimitError when the job passes `limits` or its thread dies (the thread is
 * then terminated), with `toError(failure)` when the job itself fails, and as the reader does.
 */
export async function runInThread<T>(
  url: URL,
  input: unknown,
  limits: ThreadLimits,
  toError: (failure: ThreadFailure) => Error = (failure) => new Error(failure.message),
): Promise<T> {
  const release = await takeSlot();
  const key = `${url.href} ${limits.heapMb}`;
  try {
    const message: unknown =
      typeof input === 'function' ? await (input as () => Promise<unknown>)() : input;
    return await new Promise<T>((resolve, reject) => {
      const worker = threadFor(key, url, limits);
      let settled = false;
      const settle = (action: () => void, reuse = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Only these listeners: the Worker's own (which start its port) must stay.
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        action();
        if (reuse) keepIdle(worker, key);
        else void worker.terminate();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new ThreadLimitError('timeout', `Stopped after ${limits.timeoutMs / 1000} seconds`),
            ),
          ),
        limits.timeoutMs,
      );
      const onMessage = (reply: Reply<T>) =>
        settle(() => (reply.ok ? resolve(reply.value) : reject(toError(reply.error))), true);
      const onError = (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new ThreadLimitError('memory', `Stopped at its memory limit (${limits.heapMb} MB)`)
              : new ThreadLimitError('crash', `The worker thread failed: ${error.message}`),
          ),
        );
      const onExit = (code: number) =>
        settle(() =>
          reject(
            new ThreadLimitError('crash', `The worker thread ended early (exit code ${code})`),
          ),
        );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(message);
    });
  } finally {
    release();
  }
}

/**
 * The worker side: runs `job` on each input the thread is sent and posts its result (typed
 * arrays in it are transferred, not copied) or its error's name and message.
 */
export function serveThread<I, T>(job: (input: I) => Promise<T>) {
  const port = parentPort;
  if (!port) throw new Error('serveThread runs in a worker thread');
  port.on('message', (input: I) => {
    job(input).then(
      (value) => {
        const transfer = ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : [];
        port.postMessage({ ok: true, value } satisfies Reply<T>, transfer);
      },
      (error: unknown) => {
        const failure =
          error instanceof Error
            ? { name: error.name, message: error.message }
            : { name: 'Error', message: String(error) };
        port.postMessage({ ok: false, error: failure } satisfies Reply<T>);
      },
    );
  });
}
