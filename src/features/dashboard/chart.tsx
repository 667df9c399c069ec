/**
 * One dashboard chart drawn by uPlot (a canvas), loaded with the dashboard alone (React.lazy in
 * chart-card.tsx). Its colours are the theme's tokens (base.css, dashboard.css: `light-dark()`
 * pairs), resolved for the page's colour scheme when it is drawn and again when the theme changes; bars and lines differ by shape and dash as well as
 * colour. The numbers are in the card's table, for screen readers: the canvas is hidden from them.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartProps } from './chart-types';

const HEIGHT = 220;
const DAY_S = 24 * 3600;
/** Steps of a count axis: whole numbers only. */
const COUNT_STEPS = [1, 2, 5]
  .flatMap((step) => [1, 10, 100, 1e3, 1e4, 1e5, 1e6].map((power) => step * power))
  .sort((a, b) => a - b);

/** Seconds of a UTC day `YYYY-MM-DD`. */
const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * `draw` given colour tokens as a canvas takes them: a token's value is a `light-dark()` pair,
 * which only a styled element resolves, so a hidden probe in `element` is coloured with it and
 * read back.
 */
function withTokens<T>(element: HTMLElement, draw: (token: (name: string) => string) => T): T {
  const probe = document.createElement('span');
  probe.hidden = true;
  element.append(probe);
  const style = getComputedStyle(probe);
  try {
    return draw((name) => {
      probe.style.color = `var(${name})`;
      return style.color;
    });
  } finally {
    probe.remove();
  }
}

function options(props: ChartProps, width: number, token: (name: string) => string): uPlot.Options {
  const axis: uPlot.Axis = {
    stroke: token('--muted'),
    grid: { stroke: token('--row-border'), width: 1 },
    ticks: { stroke: token('--border'), width: 1 },
  };
  const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
  const step = props.step === 'week' ? 7 * DAY_S : DAY_S;
  return {
    width,
    height: HEIGHT,
    // Days are UTC days: labelled as such, wherever the browser is.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    // Names only: the numbers are in each chart's table, and a live legend reads 'Guests:' with
    // nothing after it until the pointer is over the chart.
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: true, range: (_u, min, max) => [min - step / 2, max + step / 2] },
      y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
    },
    axes: [
      { ...axis, values: (_u, ticks) => ticks.map((tick) => props.formatX(tick * 1000)) },
      {
        ...axis,
        size: props.unit === 'bytes' ? 84 : 56,
        ...(props.unit === 'count' ? { incrs: COUNT_STEPS } : {}),
        values: (_u, ticks) => ticks.map((tick) => props.formatY(tick)),
      },
    ],
    series: [
      { value: (_u, ts) => (ts == null ? '' : props.formatX(ts * 1000)) },
      ...props.series.map((series) => {
        const colour = token(`--chart-${series.colour}`);
        return {
          label: series.label,
          stroke: colour,
          width: series.kind === 'line' ? 2 : 1,
          ...(series.dash ? { dash: series.dash } : {}),
          ...(series.kind === 'bar' && bars
            ? { paths: bars, fill: colour, points: { show: false } }
            : { points: { show: true, size: 5, fill: colour } }),
          value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) =>
            idx == null ? '' : props.formatY(series.shown?.[idx] ?? series.values[idx] ?? 0),
        } satisfies uPlot.Series;
      }),
    ],
  };
}

/** A chart of `props.series` over `props.x`, as wide as its box. */
export default function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      props.x.map(secondsOf),
      ...props.series.map((series) => series.values),
    ];
    let plot: uPlot | undefined;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(
        withTokens(element, (token) => options(props, element.clientWidth, token)),
        data,
        element,
      );
    };
    draw();
    const resized = new ResizeObserver(() =>
      plot?.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resized.observe(element);
    // The theme switch and the system's choice both end in data-theme on <html>.
    const themed = new MutationObserver(draw);
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      resized.disconnect();
      themed.disconnect();
      plot?.destroy();
    };
  }, [props]);
  return <div ref={box} className="chart-canvas" aria-hidden="true" />;
}
