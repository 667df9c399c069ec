/**
 * `npm run bench -- attack [--rate <CLIENT_REQUEST_RATE>] [--signins 30] [--prof <folder>]`:
 * what a flood from one address does to everyone else. A production start of the real server
 * (PGlite, its own DATA_DIR) is measured from two other addresses: admin sign-ins one after
 * another from 127.0.0.2 and GET /healthz every 100 ms from 127.0.0.3, first quiet, then while
 * 10 guests from 127.0.0.1 run 8 closed loops each of what a stranger may repeat (wrong
 * passwords at the admin's address and at addresses of their own, code guesses and code
 * requests for the admin, sign-ups with a password, re-authentication guesses, event streams
 * resumed far back), then while the same 80 loops only fetch /healthz (the floor: the cheapest
 * request there is). Prints each phase's p50/p95, its ratio against quiet, the attack's
 * requests by answer and the server's CPU per attack request (from /proc). `--rate 0` runs
 * without the per-client request budget. `--prof` writes the server's V8 CPU profile there.
 *
 * With TEST_DATABASE_URL set it also measures delivery fairness on PostgreSQL (see
 * benchDeliveryFairness); without it, that part is skipped with a line saying so.
 * Measurements, never pass/fail; the load average is printed with each phase.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { benchOptions } from './args';
import { startProduction } from './production';
import { percentile } from './stats';

const ADMIN = 'admin@bench-attack.test';
const PASSWORD = 'correct horse battery staple 42';
const GUESTS = 10;
const HEALTH_EVERY_MS = 100;
const SIGNIN_EVERY_MS = 150;

interface Answer {
  status: number;
  ms: number;
  json?: { data?: { token?: string } };
}

interface Target {
  port: number;
}

function request(
  target: Target,
  method: string,
  path: string,
  options: {
    body?: unknown;
    headers?: Record<string, string>;
    from?: string;
    stream?: boolean;
  } = {},
): Promise<Answer> {
  const { body, headers = {}, from = '127.0.0.1', stream = false } = options;
  return new Promise((resolve) => {
    const started = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (stream && status === 200) {
          // Reads a little of the stream, then drops it: the reconnect loop.
          setTimeout(() => req.destroy(), 200);
          res.resume();
          res.on('close', () => resolve({ status, ms: performance.now() - started }));
          return;
        }
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          let json: Answer['json'];
          try {
            json = JSON.parse(text) as Answer['json'];
          } catch {
            json = undefined;
          }
          resolve({ status, json, ms: performance.now() - started });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    if (payload) req.write(payload);
    req.end();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Phase {
  label: string;
  load: string;
  signIn: number[];
  signInFailures: number;
  health: number[];
}

/** Admin sign-ins one after another from 127.0.0.2, /healthz every 100 ms from 127.0.0.3. */
async function measure(target: Target, label: string, signIns: number): Promise<Phase> {
  const loadBefore = loadavg()[0]!.toFixed(1);
  const health: number[] = [];
  let measuring = true;
  const healthLoop = (async () => {
    while (measuring) {
      const answer = await request(target, 'GET', '/healthz', { from: '127.0.0.3' });
      if (answer.status === 200) health.push(answer.ms);
      await pause(HEALTH_EVERY_MS);
    }
  })();
  const signIn: number[] = [];
  let signInFailures = 0;
  for (let i = 0; i < signIns; i += 1) {
    const answer = await request(target, 'POST', '/v1/auth/login', {
      body: { email: ADMIN, password: PASSWORD },
      from: '127.0.0.2',
    });
    if (answer.status === 200) signIn.push(answer.ms);
    else signInFailures += 1;
    await pause(SIGNIN_EVERY_MS);
  }
  measuring = false;
  await healthLoop;
  const load = `${loadBefore}-${loadavg()[0]!.toFixed(1)}`;
  return { label, load, signIn, signInFailures, health };
}

/** One guest's 8 loops from 127.0.0.1 until `stop.done`, each answer counted by kind. */
function guest(
  target: Target,
  token: string,
  index: number,
  stop: { done: boolean },
  count: (kind: string, status: number) => void,
  floodOnly: boolean,
): Promise<unknown> {
  const auth = { authorization: `Bearer ${token}` };
  const loop = async (kind: string, step: () => Promise<Answer>) => {
    while (!stop.done) count(kind, (await step()).status);
  };
  const random = (n: number) => Math.floor(Math.random() * n);
  if (floodOnly) {
    return Promise.all(
      Array.from({ length: 8 }, () =>
        loop('healthz', () => request(target, 'GET', '/healthz', { headers: auth })),
      ),
    );
  }
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(target, 'POST', path, { body, headers });
  return Promise.all([
    loop('events', () =>
      request(target, 'GET', '/v1/events', {
        headers: { ...auth, 'last-event-id': '1' },
        stream: true,
      }),
    ),
    loop('events', () =>
      request(target, 'GET', '/v1/events?lastEventId=1', { headers: auth, stream: true }),
    ),
    loop('wrong password', () =>
      post('/v1/auth/login', { email: ADMIN, password: `wrong-${random(1e9)}` }),
    ),
    loop('wrong password, other address', () =>
      post('/v1/auth/login', {
        email: `nobody${index}-${random(1e6)}@x.test`,
        password: 'wrong password 123',
      }),
    ),
    loop('code guess', () =>
      post('/v1/auth/login', { email: ADMIN, code: String(random(1e6)).padStart(6, '0') }),
    ),
    loop('code request', () => post('/v1/auth/request-login-code', { email: ADMIN })),
    loop('sign-up', () =>
      post('/v1/auth/signup', {
        email: `g${index}-${random(1e9)}@x.test`,
        password: 'a long enough password 9',
      }),
    ),
    loop('re-authentication', () =>
      post('/v1/auth/password-id-verification', { password: 'guess guess guess' }, auth),
    ),
  ]);
}

/** The server's user + system CPU time so far, in ms (Linux, 100 Hz ticks). */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function attack(
  target: Target,
  server: ChildProcess,
  tokens: string[],
  floodOnly: boolean,
  phases: (() => Promise<Phase>)[],
): Promise<{
  phases: Phase[];
  requests: number;
  perMinute: number;
  cpuPerRequest: number;
  byAnswer: string;
}> {
  const counts = new Map<string, number>();
  const count = (kind: string, status: number) => {
    const key = `${kind} ${status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const stop = { done: false };
  const cpuBefore = cpuMs(server);
  const started = performance.now();
  const loops = Promise.all(
    tokens.map((token, index) => guest(target, token, index, stop, count, floodOnly)),
  );
  const measured: Phase[] = [];
  for (const phase of phases) measured.push(await phase());
  stop.done = true;
  await loops;
  const cpu = cpuMs(server) - cpuBefore;
  const minutes = (performance.now() - started) / 60_000;
  const requests = [...counts.values()].reduce((a, b) => a + b, 0);
  const byAnswer = [...counts]
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ');
  return {
    phases: measured,
    requests,
    perMinute: Math.round(requests / minutes),
    cpuPerRequest: cpu / Math.max(1, requests),
    byAnswer,
  };
}

function table(phases: Phase[]): void {
  const quiet = phases[0]!;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const ratio = (n: number, base: number) => `${(n / base).toFixed(1)}x`;
  const rows = [
    ['phase', 'load', 'sign-in p50', 'p95', 'vs quiet', 'healthz p50', 'p95', 'vs quiet'],
    ...phases.map((phase) => {
      const signIn95 = percentile(phase.signIn, 95);
      const health95 = percentile(phase.health, 95);
      return [
        phase.label + (phase.signInFailures ? ` (${phase.signInFailures} sign-ins failed)` : ''),
        phase.load,
        ms(percentile(phase.signIn, 50)),
        ms(signIn95),
        ratio(signIn95, percentile(quiet.signIn, 95)),
        ms(percentile(phase.health, 50)),
        ms(health95),
        ratio(health95, percentile(quiet.health, 95)),
      ];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  }
}

export async function benchServerAttack(argv: string[]): Promise<void> {
  const values = benchOptions(argv, { rate: undefined, signins: '30', prof: undefined });
  const signIns = Number(values.signins);
  const production = startProduction({
    name: 'attack',
    firstPort: 18000,
    env: {
      ADMIN_EMAIL: ADMIN,
      ADMIN_PASSWORD: PASSWORD,
      ...(values.rate !== undefined ? { CLIENT_REQUEST_RATE: values.rate } : {}),
    },
    nodeArgs: values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`] : [],
    stdout: 'inherit',
  });
  const target = { port: production.port };
  const server = production.child;
  try {
    await production.ready(async () => {
      const answer = await request(target, 'GET', '/healthz', { from: '127.0.0.3' });
      return answer.status === 200;
    });
    console.log(
      `Request budget: ${values.rate === '0' ? 'off (--rate 0)' : `CLIENT_REQUEST_RATE=${values.rate ?? 'the production default'}`}`,
    );
    // The admin's first sign-in (and the decoy hash) out of the way.
    await request(target, 'POST', '/v1/auth/login', {
      body: { email: ADMIN, password: PASSWORD },
      from: '127.0.0.2',
    });
    const quiet = await measure(target, 'quiet', signIns);
    const tokens: string[] = [];
    for (let i = 0; i < GUESTS; i += 1) {
      const answer = await request(target, 'POST', '/v1/auth/signup', { body: {} });
      const token = answer.json?.data?.token;
      if (token) tokens.push(token);
      else console.log(`A guest's sign-up answered ${answer.status}`);
    }
    const abuse = await attack(target, server, tokens, false, [
      // The attackers' free attempts go in the first seconds: measured from the start.
      () => measure(target, `${tokens.length} guests, first ${signIns} sign-ins`, signIns),
      () => measure(target, `${tokens.length} guests, next ${signIns} sign-ins`, signIns),
    ]);
    await pause(2000);
    const flood = await attack(target, server, tokens, true, [
      () => measure(target, `${tokens.length} guests flooding /healthz (floor)`, signIns),
    ]);
    table([quiet, ...abuse.phases, ...flood.phases]);
    for (const [label, run] of [
      ['Attack', abuse],
      ['Floor', flood],
    ] as const) {
      console.log(
        `${label}: ${run.requests} requests (${run.perMinute} a minute), ${run.cpuPerRequest.toFixed(2)} ms of server CPU each (hashes and the admin's sign-ins included); by answer: ${run.byAnswer}`,
      );
    }
  } finally {
    await production.stop();
    if (values.prof) console.log(`CPU profile in ${values.prof}`);
  }
  await benchDeliveryFairness();
}

async function benchDeliveryFairness(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    console.log('Delivery fairness: skipped (set TEST_DATABASE_URL to a PostgreSQL server).');
    return;
  }
  await (await import('./server-attack-deliveries')).benchDeliveryFairness();
}
