// Adds up the vitest JSON reports of one test run and prints the closing line CI reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestJsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: {
    name?: string;
    assertionResults?: {
      fullName?: string;
      status?: string;
      failureMessages?: string[];
      meta?: { machineCoverage?: MachineCoverage; openPages?: string[] };
    }[];
  }[];
}

/** What src/machines/testing/path-tests.ts puts in the meta of each machine's coverage test. */
interface MachineCoverage {
  machine: string;
  paths: number;
  states: { reached: number; total: number };
  transitions: { reached: number; total: number };
  unreached: string[];
}

const coverage = new Map<string, MachineCoverage>();
// Each failed test with the start of its message, so the last lines of a CI log say what broke.
const failures: string[] = [];

const [dir = '.tmp/test-results', ...failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of existsSync(dir) ? readdirSync(dir) : []) {
  if (!file.endsWith('.json')) continue;
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as VitestJsonReport;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    for (const assertion of result.assertionResults ?? []) {
      if (assertion.status === 'failed') {
        const where = (result.name ?? '').replace(`${process.cwd()}/`, '');
        const message = (assertion.failureMessages?.[0] ?? '')
          .split('\n')
          .slice(0, 6)
          .join('\n    ');
        // An end-to-end test's pages, where they were when it failed (tests/helpers/app.ts).
        const pages = (assertion.meta?.openPages ?? []).map((page) => `\n    ${page}`).join('');
        failures.push(`FAILED ${where} > ${assertion.fullName ?? ''}\n    ${message}${pages}`);
      }
      const machine = assertion.meta?.machineCoverage;
      if (machine) coverage.set(machine.machine, machine);
    }
  }
  console.log(
    `${file.replace(/\.json$/, '').padEnd(10)} ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
  );
}
// Model-based path tests, per machine: how much of the real machine their paths reached.
for (const { machine, paths, states, transitions, unreached } of coverage.values()) {
  console.log(
    `machine ${machine}: ${paths} paths, states ${states.reached}/${states.total}, transitions ${transitions.reached}/${transitions.total}`,
  );
  for (const key of unreached) console.log(`  unreached: ${key}`);
}
for (const failure of failures) console.log(failure);
for (const step of failedSteps) console.log(`failed step: ${step}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || failedSteps.length > 0 || passed === 0 ? 1 : 0);
