/**
 * Draws docs/operations/grafana-dashboard.json's panels from /metrics scraped during a load
 * bench (`npm run bench -- load` writes them; `--metrics-out`), laid out as the dashboard's
 * gridPos says, into a PNG: the dashboard's picture in the docs without running Grafana.
 *
 *   node --import tsx scripts/render-dashboard.ts <metrics.json> [docs/operations/dashboard.png]
 *
 * Each panel's PromQL is evaluated by the small evaluator below, which knows the forms the
 * dashboard uses and nothing more: sum/max by, rate over a window, histogram_quantile, topk
 * (the k series highest on average over the whole range), a division of two vectors with the
 * same labels, and label matchers (= and =~). $__rate_interval is 30 s (four 5 s scrapes,
 * as Grafana would choose, plus one).
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

interface Sample {
  t: number;
  instance: string;
  text: string;
}
type Labels = Record<string, string>;
/** A vector at one time: label sets and values. */
type Vector = { labels: Labels; value: number }[];

const RATE_INTERVAL_S = 30;

/** Every scrape as (time, series) where each series is keyed by its label set. */
function parseScrapes(samples: Sample[]) {
  const times = [...new Set(samples.map((s) => s.t))].sort((a, b) => a - b);
  type Series = Map<string, { name: string; labels: Labels; value: number }>;
  const byTime = new Map<number, Series>();
  for (const { t, instance, text } of samples) {
    const series: Series = byTime.get(t) ?? (new Map() as Series);
    byTime.set(t, series);
    for (const line of text.split('\n')) {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!match) continue;
      const labels: Labels = { instance };
      for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[key!] = value!;
      }
      const key = `${match[1]}${JSON.stringify(labels)}`;
      series.set(key, { name: match[1]!, labels, value: Number(match[3]) });
    }
  }
  return { times, byTime };
}

type Scrapes = ReturnType<typeof parseScrapes>;

/** A tiny recursive-descent evaluator of the PromQL the dashboard uses, at time `t`. */
function evaluate(expr: string, scrapes: Scrapes, t: number): Vector {
  const tokens = expr
    .replaceAll('$__rate_interval', `${RATE_INTERVAL_S}s`)
    .match(/"(?:[^"\\]|\\.)*"|=~|[a-zA-Z_:][\w:]*|\d+(?:\.\d+)?s?|[(){}[\],/=]/g)!;
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (expected !== undefined && token !== expected) {
      throw new Error(`${expr}: expected ${expected}, got ${token}`);
    }
    return token!;
  };

  const selector = (): { name: string; matchers: [string, string, string][] } => {
    const name = take();
    const matchers: [string, string, string][] = [];
    if (peek() === '{') {
      take('{');
      while (peek() !== '}') {
        const label = take();
        const op = take();
        matchers.push([label, op, JSON.parse(take()) as string]);
        if (peek() === ',') take(',');
      }
      take('}');
    }
    return { name, matchers };
  };
  const select = (name: string, matchers: [string, string, string][], time: number): Vector => {
    const series = scrapes.byTime.get(time);
    if (!series) return [];
    return [...series.values()]
      .filter(
        (s) =>
          s.name === name &&
          matchers.every(([label, op, value]) =>
            op === '='
              ? s.labels[label] === value
              : new RegExp(`^(?:${value})$`).test(s.labels[label] ?? ''),
          ),
      )
      .map((s) => ({ labels: s.labels, value: s.value }));
  };
  const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());

  const term = (): Vector => {
    const head = take();
    if (head === '(') {
      const inner = division();
      take(')');
      return inner;
    }
    if (head === 'sum' || head === 'max') {
      const by: string[] = [];
      if (peek() === 'by') {
        take('by');
        take('(');
        while (peek() !== ')') {
          by.push(take());
          if (peek() === ',') take(',');
        }
        take(')');
      }
      take('(');
      const inner = division();
      take(')');
      const groups = new Map<string, { labels: Labels; value: number }>();
      for (const { labels, value } of inner) {
        const kept = Object.fromEntries(by.map((l) => [l, labels[l] ?? '']));
        const key = keyOf(kept);
        const group = groups.get(key);
        if (!group) groups.set(key, { labels: kept, value });
        else group.value = head === 'sum' ? group.value + value : Math.max(group.value, value);
      }
      return [...groups.values()];
    }
    if (head === 'rate') {
      take('(');
      const { name, matchers } = selector();
      take('[');
      const window = Number(take().replace('s', '')) * 1000;
      take(']');
      take(')');
      // The earliest scrape inside the window, as Prometheus extrapolates from its first sample.
      const from = scrapes.times.find((time) => time >= t - window && time < t);
      if (from === undefined) return [];
      const before = new Map(select(name, matchers, from).map((s) => [keyOf(s.labels), s.value]));
      return select(name, matchers, t).flatMap(({ labels, value }) => {
        const old = before.get(keyOf(labels));
        if (old === undefined || value < old) return [];
        return [{ labels, value: (value - old) / ((t - from) / 1000) }];
      });
    }
    if (head === 'histogram_quantile') {
      take('(');
      const q = Number(take());
      take(',');
      const buckets = division();
      take(')');
      const groups = new Map<string, { labels: Labels; buckets: [number, number][] }>();
      for (const { labels, value } of buckets) {
        const { le, ...rest } = labels;
        const key = keyOf(rest);
        const group = groups.get(key) ?? { labels: rest, buckets: [] };
        groups.set(key, group);
        group.buckets.push([le === '+Inf' ? Infinity : Number(le), value]);
      }
      return [...groups.values()].flatMap(({ labels, buckets: list }) => {
        list.sort((a, b) => a[0] - b[0]);
        const total = list.at(-1)?.[1] ?? 0;
        if (total <= 0) return [];
        const rank = q * total;
        let lower = 0;
        let below = 0;
        for (const [bound, count] of list) {
          if (count >= rank) {
            // Past the highest finite bound Prometheus answers that bound.
            if (bound === Infinity) return [{ labels, value: lower }];
            const share = count === below ? 0 : (rank - below) / (count - below);
            return [{ labels, value: lower + (bound - lower) * share }];
          }
          lower = bound;
          below = count;
        }
        return [];
      });
    }
    if (head === 'topk') {
      take('(');
      take();
      take(',');
      const inner = division();
      take(')');
      // Chosen over the whole range by drawSeries; here every series passes.
      return inner;
    }
    at -= 1;
    const { name, matchers } = selector();
    return select(name, matchers, t);
  };
  const division = (): Vector => {
    const left = term();
    if (peek() !== '/') return left;
    take('/');
    const right = new Map(term().map((s) => [keyOf(s.labels), s.value]));
    return left.flatMap(({ labels, value }) => {
      const divisor = right.get(keyOf(labels));
      return divisor ? [{ labels, value: value / divisor }] : [];
    });
  };
  return division();
}

interface Target {
  expr: string;
  legendFormat: string;
}
interface Panel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Target[];
  fieldConfig?: { defaults?: { unit?: string } };
}

/** Named series over time for one panel; topk keeps the k highest on average. */
function seriesOf(panel: Panel, scrapes: Scrapes) {
  const lines: { name: string; points: [number, number][] }[] = [];
  for (const target of panel.targets ?? []) {
    const byName = new Map<string, [number, number][]>();
    for (const t of scrapes.times) {
      for (const { labels, value } of evaluate(target.expr, scrapes, t)) {
        if (!Number.isFinite(value)) continue;
        const name = target.legendFormat.replace(
          /\{\{(\w+)\}\}/g,
          (_, l: string) => labels[l] ?? '',
        );
        const points = byName.get(name) ?? [];
        byName.set(name, points);
        points.push([t, value]);
      }
    }
    let entries = [...byName.entries()];
    const topk = /^topk\((\d+),/.exec(target.expr);
    if (topk) {
      const mean = (points: [number, number][]) =>
        points.reduce((sum, [, v]) => sum + v, 0) / points.length;
      entries = entries.sort((a, b) => mean(b[1]) - mean(a[1])).slice(0, Number(topk[1]));
    }
    lines.push(...entries.map(([name, points]) => ({ name, points })));
  }
  return lines;
}

const COLOURS = [
  '#73bf69',
  '#f2cc0c',
  '#5794f2',
  '#ff9830',
  '#f2495c',
  '#b877d9',
  '#8ab8ff',
  '#ff7383',
];

function format(value: number, unit: string | undefined): string {
  const round = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
  switch (unit) {
    case 's':
      return value < 1 ? `${round(value * 1000)} ms` : `${round(value)} s`;
    case 'bytes':
      return `${round(value / 2 ** 20)} MiB`;
    case 'percentunit':
      return `${round(value * 100)}%`;
    case 'reqps':
      return `${round(value)} req/s`;
    default:
      return round(value);
  }
}

const escape = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

function drawPanel(
  panel: Panel,
  scrapes: Scrapes,
  box: { x: number; y: number; w: number; h: number },
) {
  const unit = panel.fieldConfig?.defaults?.unit;
  const lines = seriesOf(panel, scrapes);
  const legendRows = Math.ceil(lines.length / 2);
  const plot = { x: box.x + 70, y: box.y + 34, w: box.w - 86, h: box.h - 60 - legendRows * 16 };
  const t0 = scrapes.times[0]!;
  const t1 = scrapes.times.at(-1)!;
  const max = Math.max(1e-9, ...lines.flatMap((l) => l.points.map(([, v]) => v))) * 1.1;
  const px = (t: number) => plot.x + ((t - t0) / Math.max(1, t1 - t0)) * plot.w;
  const py = (v: number) => plot.y + plot.h - (v / max) * plot.h;
  const parts = [
    `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="3" fill="#181b1f" stroke="#2c3235"/>`,
    `<text x="${box.x + 10}" y="${box.y + 21}" fill="#ccccdc" font-size="14" font-weight="600">${escape(panel.title)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (max / 4) * i;
    parts.push(
      `<line x1="${plot.x}" x2="${plot.x + plot.w}" y1="${py(v)}" y2="${py(v)}" stroke="#2c3235"/>`,
      `<text x="${plot.x - 6}" y="${py(v) + 4}" fill="#8e8e8e" font-size="11" text-anchor="end">${escape(format(v, unit))}</text>`,
    );
  }
  for (let s = 0; s <= (t1 - t0) / 1000; s += 60) {
    const x = px(t0 + s * 1000);
    parts.push(
      `<text x="${x}" y="${plot.y + plot.h + 14}" fill="#8e8e8e" font-size="11" text-anchor="middle">${s / 60} min</text>`,
    );
  }
  lines.forEach((line, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const d = line.points.map(
      ([t, v], j) => `${j === 0 ? 'M' : 'L'}${px(t).toFixed(1)},${py(v).toFixed(1)}`,
    );
    parts.push(`<path d="${d.join('')}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
    const lx = box.x + 12 + (i % 2) * (box.w / 2);
    const ly = plot.y + plot.h + 32 + Math.floor(i / 2) * 16;
    const last = line.points.at(-1)?.[1];
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="12" height="3" fill="${colour}"/>`,
      `<text x="${lx + 18}" y="${ly - 3}" fill="#ccccdc" font-size="11">${escape(line.name.slice(0, 48))}${last === undefined ? '' : ` (last ${escape(format(last, unit))})`}</text>`,
    );
  });
  if (lines.length === 0) {
    parts.push(
      `<text x="${plot.x + plot.w / 2}" y="${plot.y + plot.h / 2}" fill="#8e8e8e" font-size="13" text-anchor="middle">No data</text>`,
    );
  }
  return parts.join('\n');
}

const [metricsFile, out = 'docs/operations/dashboard.png'] = process.argv.slice(2);
if (!metricsFile) throw new Error('usage: render-dashboard.ts <metrics.json> [out.png]');
const dashboard = JSON.parse(readFileSync('docs/operations/grafana-dashboard.json', 'utf8')) as {
  title: string;
  panels: Panel[];
};
const { samples } = JSON.parse(readFileSync(metricsFile, 'utf8')) as { samples: Sample[] };
const scrapes = parseScrapes(samples);
// Grafana's grid: 24 columns; a row unit of 30 px here.
const WIDTH = 1600;
const UNIT = 30;
const column = WIDTH / 24;
const height = Math.max(...dashboard.panels.map((p) => (p.gridPos.y + p.gridPos.h) * UNIT)) + 50;
const body = dashboard.panels.map((panel) => {
  const box = {
    x: panel.gridPos.x * column + 4,
    y: panel.gridPos.y * UNIT + 46,
    w: panel.gridPos.w * column - 8,
    h: panel.gridPos.h * UNIT - 8,
  };
  if (panel.type === 'row') {
    return `<text x="${box.x + 4}" y="${box.y + 20}" fill="#ccccdc" font-size="16" font-weight="600">${escape(panel.title)}</text>`;
  }
  return drawPanel(panel, scrapes, box);
});
const span = ((scrapes.times.at(-1)! - scrapes.times[0]!) / 60_000).toFixed(1);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="DejaVu Sans, sans-serif">
<rect width="100%" height="100%" fill="#111217"/>
<text x="12" y="30" fill="#ccccdc" font-size="20" font-weight="600">${escape(dashboard.title)}</text>
<text x="${WIDTH - 12}" y="30" fill="#8e8e8e" font-size="12" text-anchor="end">npm run bench -- load: ${span} minutes, 2 instances, /metrics every 5 s</text>
${body.join('\n')}
</svg>`;
await sharp(Buffer.from(svg)).png().toFile(out);
console.log(
  `${out}: ${dashboard.panels.filter((p) => p.type !== 'row').length} panels, ${scrapes.times.length} scrapes`,
);
