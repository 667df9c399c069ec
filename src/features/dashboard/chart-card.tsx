import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartProps } from './chart-types';

// The charting library comes with this chunk, which only the dashboard loads.
const Chart = lazy(() => import('./chart'));

interface ChartCardProps {
  title: string;
  /** The window it covers ("Last 30 days"). */
  caption: string;
  chart: ChartProps;
  /** The heading of the table's first column (Day, Week of). */
  xLabel: string;
  /** Said instead of the chart when every value is 0. */
  emptyText: string;
  /** A line under the heading (what delivery saves). */
  summary?: ReactNode;
}

/**
 * A chart with its heading, legend and a table of its numbers: always in the page for screen
 * readers (visually hidden under the chart), and shown instead of the chart by "Show as table".
 */
export function ChartCard({ title, caption, chart, xLabel, emptyText, summary }: ChartCardProps) {
  const { t } = useTranslation();
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  const empty = chart.series.every((series) =>
    (series.shown ?? series.values).every((v) => v === 0),
  );
  return (
    <section className="chart-card" aria-labelledby={`${id}-title`}>
      <header className="chart-card-header">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          <p className="chart-caption">{caption}</p>
        </div>
        {!empty && (
          <button
            type="button"
            className="button link"
            aria-pressed={asTable}
            onClick={() => setAsTable((shown) => !shown)}
          >
            {asTable ? t('dashboard.showChart') : t('dashboard.showTable')}
          </button>
        )}
      </header>
      {summary}
      {empty ? (
        <p className="chart-empty">{emptyText}</p>
      ) : (
        <>
          {!asTable && (
            <Suspense
              fallback={<p className="chart-canvas chart-loading">{t('dashboard.chartLoading')}</p>}
            >
              <Chart {...chart} />
            </Suspense>
          )}
          <div
            className={asTable ? 'chart-table' : 'visually-hidden'}
            // Shown, it scrolls: a keyboard reaches it to scroll it.
            {...(asTable
              ? { role: 'region', tabIndex: 0, 'aria-label': `${title} (${caption})` }
              : {})}
          >
            <table>
              <caption className="visually-hidden">{`${title} (${caption})`}</caption>
              <thead>
                <tr>
                  <th scope="col">{xLabel}</th>
                  {chart.series.map((series) => (
                    <th scope="col" key={series.label}>
                      {series.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chart.x.map((x, i) => (
                  <tr key={x}>
                    <th scope="row">{chart.formatX(Date.parse(`${x}T00:00:00Z`))}</th>
                    {chart.series.map((series) => (
                      <td key={series.label}>
                        {chart.formatY((series.shown ?? series.values)[i] ?? 0)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
