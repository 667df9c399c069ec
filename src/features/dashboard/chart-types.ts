/** One series of a dashboard chart. */
export interface ChartSeries {
  label: string;
  /** What is drawn: for a stacked bar, the running total up to this series. */
  values: number[];
  /** What the series counts, where `values` are running totals (the table and the legend). */
  shown?: number[];
  /** The theme's chart colour (`--chart-<n>`, dashboard.css). */
  colour: number;
  kind: 'bar' | 'line';
  /** A dash pattern, so two lines differ by more than colour. */
  dash?: number[];
}

/** What a chart shows: one value per UTC day (or week, by its Monday) of `x`. */
export interface ChartProps {
  x: string[];
  step: 'day' | 'week';
  series: ChartSeries[];
  /** A day or week (milliseconds) as the axis and the table name it. */
  formatX: (ms: number) => string;
  formatY: (value: number) => string;
  /** Counts step by whole numbers; bytes need a wider axis for their labels. */
  unit: 'count' | 'bytes';
}
