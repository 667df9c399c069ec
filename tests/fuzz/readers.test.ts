/**
 * The fuzz targets (readers.ts) with a few hundred cases each: FUZZ_RUNS sets how many,
 * FUZZ_SEED replays a run (fast-check prints the seed and the shrunk case of a failure).
 * `npm run bench -- fuzz` runs 100,000 each.
 */
import fc from 'fast-check';
import { describe, it, vi } from 'vitest';
import { CASE_LIMIT_MS, FUZZ_TARGETS, timedCase } from './readers';

const runs = Number(process.env.FUZZ_RUNS ?? 300);
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

describe('readers of untrusted input, fuzzed', () => {
  // The parsers warn about every bad value they drop; thousands of warnings say nothing here.
  vi.spyOn(console, 'warn').mockImplementation(() => {});

  for (const target of FUZZ_TARGETS) {
    it(`${target.name}: a result or a typed error, each case under ${CASE_LIMIT_MS} ms`, async () => {
      await fc.assert(
        fc.asyncProperty(target.inputs, async (input) => {
          const { ms, error } = await timedCase(target, input);
          if (error !== undefined) throw error;
          if (ms > CASE_LIMIT_MS) throw new Error(`took ${ms.toFixed(1)} ms`);
        }),
        { numRuns: runs, seed },
      );
    }, 120_000);
  }
});
