// The viewer bench's tables: medians per viewer, avatar and case, as Markdown.
import { SWITCHED, type Case, type Viewer } from './config';
import type { Options } from './options';
import type { FirstFrameRun, SteadyRun } from './scenarios';

const median = (values: (number | undefined)[]) => {
  const sorted = values.filter((v): v is number => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a');
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a');
export const kib = (v: number) => (Number.isFinite(v) ? `${(v / 1024).toFixed(0)} KiB` : 'n/a');
const mib = (v: number) => (Number.isFinite(v) ? `${(v / 2 ** 20).toFixed(1)} MiB` : 'n/a');

/** A Markdown table: the first `text` columns left-aligned, the figures right-aligned. */
function table(head: string[], rows: string[][], text: number) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < text ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(head));
  console.log(
    `| ${widths.map((w, i) => (i < text ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
  );
  for (const row of rows) console.log(line(row));
}

export function report(
  firstFrames: FirstFrameRun[],
  steady: SteadyRun[],
  viewers: readonly Viewer[],
  options: Options,
) {
  console.log(
    `\nFirst painted frame and loaded signal, ms from navigation start, medians of ${options.runs} run(s) (fresh Chromium each, SwiftShader, 1280 x 720):`,
  );
  const medianOf = (viewer: Viewer, avatar: string, c: Case, key: keyof FirstFrameRun) =>
    median(
      firstFrames
        .filter((r) => r.viewer === viewer && r.avatar === avatar && r.case === c && !r.error)
        .map((r) => r[key] as number | undefined),
    );
  const rows: string[][] = [];
  for (const c of options.cases)
    for (const avatar of options.avatars)
      for (const viewer of viewers) {
        const runs = firstFrames.filter(
          (r) => r.viewer === viewer && r.avatar === avatar && r.case === c,
        );
        const ok = runs.filter((r) => !r.error).length;
        const first = medianOf(viewer, avatar, c, 'firstPaintMs');
        const loadedLead = median(
          runs.filter((r) => !r.error).map((r) => r.loadedMs! - r.firstPaintMs!),
        );
        rows.push([
          viewer,
          avatar,
          c,
          `${ok}/${runs.length}`,
          ms(first),
          ms(medianOf(viewer, avatar, c, 'loadedMs')),
          Number.isFinite(loadedLead)
            ? `${loadedLead >= 0 ? '+' : ''}${loadedLead.toFixed(0)} ms`
            : 'n/a',
          viewers.includes('model-viewer')
            ? ratio(first, medianOf('model-viewer', avatar, c, 'firstPaintMs'))
            : 'n/a',
          viewers.includes('visage')
            ? ratio(first, medianOf('visage', avatar, c, 'firstPaintMs'))
            : 'n/a',
          kib(medianOf(viewer, avatar, c, 'bytesBeforePaint')),
          kib(medianOf(viewer, avatar, c, 'jsBytesBeforePaint')),
        ]);
      }
  table(
    [
      'viewer',
      'avatar',
      'case',
      'runs ok',
      'first painted frame',
      'loaded',
      'loaded - frame',
      'frame / model-viewer',
      'frame / visage',
      'bytes before frame',
      'of which JS',
    ],
    rows,
    3,
  );
  if (steady.length) {
    console.log(
      `\nStill and switching (unthrottled, ${SWITCHED[0]}; ${options.switches} switches between ${SWITCHED.join(' and ')}):`,
    );
    table(
      [
        'viewer',
        `frames drawn in ${options.stillMs / 1000} s still`,
        'heap after load',
        `heap after ${options.switches} switches`,
      ],
      steady.map((s) =>
        s.error && s.stillFrames === undefined
          ? [s.viewer, `FAILED: ${s.error}`, '', '']
          : [
              s.viewer,
              String(s.stillFrames ?? 'n/a'),
              mib(s.heapAfterLoad ?? NaN),
              s.error ? `FAILED: ${s.error}` : mib(s.heapAfterSwitches ?? NaN),
            ],
      ),
      1,
    );
  }
  const failed = firstFrames.filter((r) => r.error);
  if (failed.length)
    console.log(`${failed.length} run(s) failed (listed above); medians use the others.`);
}
