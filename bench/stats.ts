/**
 * The percentile the benches report: nearest rank, the smallest value that `p` percent of the
 * values are at or below (so p50 of an even count is the lower middle, p100 the largest); NaN
 * for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
