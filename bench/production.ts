import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface ProductionOptions {
  /** Names the data folder and the JWT secret (`bench-<name>-...`). */
  name: string;
  /** The port is picked at random from the thousand from this one. */
  firstPort: number;
  /** Added to the environment below, or in place of its values. */
  env: Record<string, string>;
  /** Node's own arguments, before the server's (a CPU profile). */
  nodeArgs?: string[];
  /** What becomes of the server's standard output (its errors always go to ours). */
  stdout?: 'ignore' | 'inherit';
}

/**
 * A production start of the real server (server/main.ts, NODE_ENV=production) on a loopback
 * port, with a data folder of its own, mail queued and never sent (nothing listens at its SMTP
 * address), no second factor asked of the admin and only errors in its log. `ready` waits for
 * its health check, by default GET /healthz answering 200.
 */
export function startProduction({
  name,
  firstPort,
  env,
  nodeArgs = [],
  stdout = 'ignore',
}: ProductionOptions) {
  const port = firstPort + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: base,
      JWT_SECRET: `bench-${name}-secret-0123456789abcdef0123456789abcdef`,
      REQUIRE_ADMIN_2FA: 'false',
      LOG_LEVEL: 'error',
      SHUTDOWN_DEREGISTER_MS: '0',
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const healthz = () =>
    fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
  return {
    port,
    base,
    child,
    async ready(healthy: () => Promise<boolean> = healthz) {
      for (let i = 0; ; i += 1) {
        if (i > 600) throw new Error('The server did not start in 150 s');
        if (await healthy()) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
