/**
 * npm run bench -- fuzz [cases]: every fuzz target (tests/fuzz/readers.ts) on 100,000 cases
 * (or `cases`, or FUZZ_RUNS): per reader the cases run, the exceptions (anything but a result
 * or a typed error; the first few printed with their input), the slowest case and the 99th
 * percentile. FUZZ_SEED replays a run.
 */
import fc from 'fast-check';
import { createServer } from 'vite';

// Through Vite, as the tests load them: the viewer's modules read import.meta.env.
const vite = await createServer({
  configFile: false,
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, watch: null },
  appType: 'custom',
  optimizeDeps: { noDiscovery: true, include: [] },
});
const { CASE_LIMIT_MS, FUZZ_TARGETS, timedCase } = (await vite.ssrLoadModule(
  '/tests/fuzz/readers.ts',
)) as typeof import('../tests/fuzz/readers');

const cases = Number(process.argv[2] ?? process.env.FUZZ_RUNS ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
// The parsers warn about every bad value they drop.
console.warn = () => {};

console.log(`seed ${seed}, ${cases.toLocaleString('en')} cases per reader`);
console.log(
  'reader'.padEnd(22),
  'cases'.padStart(9),
  'exceptions'.padStart(11),
  `over ${CASE_LIMIT_MS} ms`.padStart(11),
  'max ms'.padStart(8),
  'p99 ms'.padStart(8),
  'total s'.padStart(8),
);
let failed = false;
// FUZZ_TARGET=PNG runs one reader.
for (const target of FUZZ_TARGETS.filter(
  (t) => !process.env.FUZZ_TARGET || t.name === process.env.FUZZ_TARGET,
)) {
  const times: number[] = [];
  const exceptions: unknown[] = [];
  let slow = 0;
  const started = performance.now();
  await fc.check(
    fc.asyncProperty(target.inputs, async (input) => {
      const { ms, error } = await timedCase(target, input);
      times.push(ms);
      if (error !== undefined && exceptions.push(error) <= 3) {
        console.log(`  ${target.name}:`, error, fc.stringify(input).slice(0, 300));
      } else if (ms > CASE_LIMIT_MS && ++slow <= 3) {
        console.log(`  ${target.name}: ${ms.toFixed(1)} ms`, fc.stringify(input).slice(0, 300));
      }
      return true;
    }),
    { numRuns: cases, seed },
  );
  times.sort((a, b) => a - b);
  failed ||= exceptions.length > 0 || slow > 0;
  console.log(
    target.name.padEnd(22),
    String(times.length).padStart(9),
    String(exceptions.length).padStart(11),
    String(slow).padStart(11),
    (times.at(-1) ?? 0).toFixed(2).padStart(8),
    (times[Math.floor(times.length * 0.99)] ?? 0).toFixed(2).padStart(8),
    ((performance.now() - started) / 1000).toFixed(1).padStart(8),
  );
}
console.log(failed ? 'Some readers failed: see above.' : 'Every case: a result or a typed error.');
await vite.close();
