/**
 * `npm run build`'s server half: compiles the reference API (server/main.ts and each
 * server/*.worker.ts, with the core/ and contract/ code they import) to JavaScript in
 * dist-server/, which `npm start` and `npm run serve` run with plain node: no TypeScript is
 * compiled when the server starts. Packages stay in node_modules (imported, not bundled), so the
 * output must sit in the project, where node finds them. The SQL migrations are copied beside
 * the bundle, where server/migrate.ts reads them; source maps make stack traces name the .ts
 * lines (the server runs with --enable-source-maps).
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

export const SERVER_OUT_DIR = 'dist-server';

/** Compiles the server of the project at `root` into `outDir` (emptied first). */
export async function buildServer(
  root: string,
  outDir = join(root, SERVER_OUT_DIR),
): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const workers = readdirSync(join(root, 'server'))
    .filter((name) => name.endsWith('.worker.ts'))
    .map((name) => `server/${name}`);
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts', ...workers],
    outdir: outDir,
    outbase: 'server',
    bundle: true,
    // The modules main.ts imports only when configured (S3, tracing) stay separate chunks,
    // loaded only then, as under tsx. Every chunk sits beside main.js: the modules find their
    // worker files and the migrations relative to their own `import.meta.url`.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync(join(root, 'server/migrations'), join(outDir, 'migrations'), { recursive: true });
}

if (process.argv[1]?.endsWith('build-server.ts')) {
  const root = process.cwd();
  const started = Date.now();
  await buildServer(root);
  console.log(
    `Built the server into ${relative(root, join(root, SERVER_OUT_DIR))}/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
}
