/** What the load bench prints of a phase: per kind of call, latencies, throughput and errors. */
import { percentile } from '../stats';
import type { Phase, Streams } from './clients';

const READ_GOAL_MS = 500;
/** Kinds of call whose latency goal is the read goal. */
const READS = new Set(['list assets', 'list others', 'search', 'open asset', 'save: GET']);

export function printPhase(title: string, phase: Phase, streams: Streams, offered?: string) {
  console.log(`\n${title} (${phase.seconds} s)`);
  const rows = [...phase.kinds.entries()].map(([kind, { ms, statuses }]) => {
    const errors = [...statuses.entries()].filter(([status]) => status >= 400);
    return {
      kind,
      calls: ms.length,
      'req/s': Number((ms.length / phase.seconds).toFixed(1)),
      'p50 ms': Math.round(percentile(ms, 50)),
      'p95 ms': Math.round(percentile(ms, 95)),
      'p99 ms': Math.round(percentile(ms, 99)),
      'max ms': Math.round(percentile(ms, 100)),
      errors: errors.reduce((sum, [, n]) => sum + n, 0),
      statuses: errors.map(([status, n]) => `${status}x${n}`).join(' '),
    };
  });
  rows.sort((a, b) => a.kind.localeCompare(b.kind));
  console.table(rows);
  const calls = rows.reduce((sum, row) => sum + row.calls, 0);
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  const unanswered = [...phase.failures.values()].reduce((sum, n) => sum + n, 0);
  console.log(
    `Offered: ${((calls + unanswered) / phase.seconds).toFixed(1)} requests/s sent` +
      (offered ? ` (${offered})` : ''),
  );
  const worstRead = Math.max(...rows.filter((r) => READS.has(r.kind)).map((r) => r['p99 ms']));
  console.log(
    `Throughput: ${(calls / phase.seconds).toFixed(1)} answered requests/s; ` +
      `errors: ${errors} answered 4xx/5xx, ${unanswered} unanswered (timeouts, broken connections) ` +
      `(goal 0: ${errors + unanswered === 0 ? 'met' : 'NOT met'}); worst read p99 ${worstRead} ms ` +
      `(goal under ${READ_GOAL_MS} ms: ${worstRead < READ_GOAL_MS ? 'met' : 'NOT met'})`,
  );
  console.log(
    `Event streams: ${streams.open} open of ${streams.wanted}, ${streams.events} events received, ` +
      `${streams.refused} refused, ${streams.dropped} ended early`,
  );
}
