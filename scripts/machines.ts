// npm run machines: writes docs/machines/<name>.md for every XState machine exported by
// src/machines/*.machine.ts, plus docs/machines/README.md (the index).
// npm run machines -- --check: writes nothing; exits 1 naming the stale pages.
// The machine modules are loaded through Vite (they read import.meta.env like the app does).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import {
  MACHINE_DOCS_COMMAND,
  MACHINE_DOCS_DIR,
  findStalePages,
  generateMachineDocs,
  machinesOfModules,
} from '../src/devtools/machine-docs';

const root = fileURLToPath(new URL('..', import.meta.url));
const machinesDir = join(root, 'src/machines');
const docsDir = join(root, MACHINE_DOCS_DIR);
const check = process.argv.includes('--check');

const files = readdirSync(machinesDir)
  .filter((name) => /\.machine\.[cm]?[jt]sx?$/.test(name) && !/\.test\./.test(name))
  .sort();

const server = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const modules: Record<string, unknown> = {};
try {
  for (const name of files) {
    modules[`src/machines/${name}`] = await server.ssrLoadModule(`/src/machines/${name}`);
  }
} finally {
  await server.close();
}

const entries = machinesOfModules(modules);
const expected = generateMachineDocs(entries);
const actual = new Map<string, string>(
  existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((name) => name.endsWith('.md'))
        .map((name) => [name, readFileSync(join(docsDir, name), 'utf8')])
    : [],
);
const stale = findStalePages(expected, actual);

if (check) {
  if (stale.length > 0) {
    console.error(
      `Stale machine docs: ${stale.map((name) => `${MACHINE_DOCS_DIR}/${name}`).join(', ')}.\n` +
        `Run \`${MACHINE_DOCS_COMMAND}\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`${MACHINE_DOCS_DIR}: ${expected.size} pages up to date.`);
} else {
  mkdirSync(docsDir, { recursive: true });
  for (const name of stale) {
    const text = expected.get(name);
    if (text === undefined) rmSync(join(docsDir, name));
    else writeFileSync(join(docsDir, name), text);
    console.log(`${text === undefined ? 'removed' : 'wrote'} ${MACHINE_DOCS_DIR}/${name}`);
  }
  console.log(
    `${MACHINE_DOCS_DIR}: ${entries.length} machines (${entries.map((e) => e.name).join(', ')}), ` +
      `${stale.length} page(s) changed.`,
  );
}
