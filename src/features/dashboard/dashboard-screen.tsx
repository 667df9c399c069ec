/**
 * The dashboard (/): assets by type, the charts of what happened lately, what needs attention
 * and the latest activity, each as far as the signed-in role may read it (the server leaves the
 * rest out). It reads again once per burst of live events.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-info';
import { usePermissions } from '../../machines/permissions.view';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { CountCards } from '../../ui/dom/count-cards';
import { displayLabel } from '../../ui/dom/list/asset-filters';
import { dateCell, formatDate } from '../../ui/dom/list/cells';
import { formatBytes } from '../../../core/files/format-bytes';
import { DASHBOARD_DAYS, DASHBOARD_WEEKS, type Dashboard } from '../../../contract/dashboard';
import { ASSET_TYPES } from '../../../contract/assets';
import type { ListFilter } from '../../../contract/list-query';
import { changeDetail, changeTitle, recordCell } from '../activity';
import { assetCountsQuery } from '../assets';
import { dashboardQuery, latestActivityQuery, refreshDashboard } from './api/dashboard';
import { ChartCard } from './chart-card';
import type { ChartProps, ChartSeries } from './chart-types';
import { useLiveRefresh } from './live-refresh';
import './dashboard.css';

/** A list screen's address filtered by `filter` (as the asset cards link to the assets list). */
const filtered = (filter: ListFilter) => ({ filter });

export function DashboardScreen() {
  const { t } = useTranslation();
  const can = usePermissions();
  const counts = useQuery(assetCountsQuery());
  const dashboard = useQuery(dashboardQuery());
  useLiveRefresh(refreshDashboard);
  return (
    <div className="dashboard">
      <h1>{t('dashboard.title')}</h1>
      {counts.isError ? (
        <Alert tone="error">
          {t('dashboard.failed')} {describeError(counts.error, t)}
          <ActionButton onPress={() => void counts.refetch()}>{t('app.retry')}</ActionButton>
        </Alert>
      ) : (
        <CountCards
          counts={counts.data ?? null}
          // The total and one card per type.
          expected={ASSET_TYPES.length + 1}
          // Each card leads to the assets it counts.
          cardLink={(type, content) => (
            <Link
              to="/assets"
              search={type ? { filter: { type: [type] } } : {}}
              className="count-card-link"
            >
              {content}
            </Link>
          )}
          labels={{
            heading: t('dashboard.assetsByType'),
            total: t('dashboard.total'),
            empty: t('dashboard.empty'),
            loading: t('dashboard.loading'),
          }}
        />
      )}
      {dashboard.isError ? (
        <Alert tone="error">
          {t('dashboard.chartsFailed')} {describeError(dashboard.error, t)}
          <ActionButton onPress={() => void dashboard.refetch()}>{t('app.retry')}</ActionButton>
        </Alert>
      ) : dashboard.data ? (
        <>
          <Attention attention={dashboard.data.attention} />
          <Charts dashboard={dashboard.data} />
        </>
      ) : (
        // Cards of the charts' size hold their place, so the page does not jump when they come.
        <div className="dashboard-charts" role="status">
          <p className="visually-hidden">{t('dashboard.loadingCharts')}</p>
          {[1, 2, 3, 4].map((card) => (
            <div key={card} className="chart-card chart-placeholder" aria-hidden="true" />
          ))}
        </div>
      )}
      {can('update', 'Asset') && <LatestActivity />}
    </div>
  );
}

function useFormats() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const day = new Intl.DateTimeFormat(i18n.language, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    return {
      count: (value: number) => number.format(value),
      day: (ms: number) => day.format(ms),
      bytes: formatBytes,
    };
  }, [i18n.language]);
}

/** Running totals of `rows`, so the last series' bars stand on the ones before. */
function stacked(rows: number[][]): number[][] {
  return rows.map((_, i) =>
    rows[0]!.map((__, x) => rows.slice(0, i + 1).reduce((sum, row) => sum + (row[x] ?? 0), 0)),
  );
}

function Charts({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  const format = useFormats();
  const lastDays = t('dashboard.lastDays', { count: DASHBOARD_DAYS });
  const cards: ReactNode[] = [];
  const perDay = (series: ChartSeries[], unit: ChartProps['unit'] = 'count'): ChartProps => ({
    x: [],
    step: 'day',
    series,
    formatX: format.day,
    formatY: unit === 'bytes' ? format.bytes : format.count,
    unit,
  });

  if (dashboard.assetsPerWeek) {
    const { types, weeks } = dashboard.assetsPerWeek;
    const rows = types.map((type) => weeks.map((week) => week.counts[type] ?? 0));
    const totals = stacked(rows);
    // Drawn tallest first, so each type's bar shows above the ones stacked under it.
    const series: ChartSeries[] = types
      .map((type, i) => ({
        label: displayLabel(type),
        values: totals[i]!,
        shown: rows[i]!,
        colour: (i % 10) + 1,
        kind: 'bar' as const,
      }))
      .reverse();
    cards.push(
      <ChartCard
        key="assets"
        title={t('dashboard.assetsPerWeek')}
        caption={t('dashboard.lastWeeks', { count: DASHBOARD_WEEKS })}
        xLabel={t('dashboard.week')}
        emptyText={t('dashboard.assetsPerWeekEmpty')}
        chart={{
          x: weeks.map((week) => week.week),
          step: 'week',
          series: series.length > 0 ? series : [],
          formatX: format.day,
          formatY: format.count,
          unit: 'count',
        }}
      />,
    );
  }
  if (dashboard.signupsPerDay) {
    const days = dashboard.signupsPerDay;
    cards.push(
      <ChartCard
        key="signups"
        title={t('dashboard.signups')}
        caption={lastDays}
        xLabel={t('dashboard.day')}
        emptyText={t('dashboard.signupsEmpty')}
        chart={{
          ...perDay([
            {
              label: t('dashboard.registered'),
              values: days.map((d) => d.registered),
              colour: 1,
              kind: 'line',
            },
            {
              label: t('dashboard.guests'),
              values: days.map((d) => d.guests),
              colour: 2,
              kind: 'line',
              dash: [6, 4],
            },
          ]),
          x: days.map((d) => d.day),
        }}
      />,
    );
  }
  if (dashboard.morphsPerDay) {
    const days = dashboard.morphsPerDay;
    cards.push(
      <ChartCard
        key="morphs"
        title={t('dashboard.morphs')}
        caption={lastDays}
        xLabel={t('dashboard.day')}
        emptyText={t('dashboard.morphsEmpty')}
        chart={{
          // The failed bar is drawn over the requested one: it is a part of it.
          ...perDay([
            {
              label: t('dashboard.requested'),
              values: days.map((d) => d.requested),
              colour: 1,
              kind: 'bar',
            },
            {
              label: t('dashboard.morphFailed'),
              values: days.map((d) => d.failed),
              colour: 6,
              kind: 'bar',
            },
          ]),
          x: days.map((d) => d.day),
        }}
      />,
    );
  }
  if (dashboard.deliveryBytes) {
    const { days, uploaded, delivered } = dashboard.deliveryBytes;
    const saved = Math.max(0, uploaded - delivered);
    cards.push(
      <ChartCard
        key="bytes"
        title={t('dashboard.deliveryBytes')}
        caption={lastDays}
        xLabel={t('dashboard.day')}
        emptyText={t('dashboard.deliveryBytesEmpty')}
        summary={
          uploaded > 0 ? (
            <p className="chart-summary">
              {t('dashboard.deliverySaves', {
                percent: new Intl.NumberFormat(undefined, { style: 'percent' }).format(
                  saved / uploaded,
                ),
                saved: format.bytes(saved),
                uploaded: format.bytes(uploaded),
              })}
            </p>
          ) : undefined
        }
        chart={{
          ...perDay(
            [
              // Uploaded, dashed, over delivered: where nothing was saved both lines show.
              {
                label: t('dashboard.delivered'),
                values: days.map((d) => d.delivered),
                colour: 1,
                kind: 'line',
              },
              {
                label: t('dashboard.uploaded'),
                values: days.map((d) => d.uploaded),
                colour: 3,
                kind: 'line',
                dash: [6, 4],
              },
            ],
            'bytes',
          ),
          x: days.map((d) => d.day),
        }}
      />,
    );
  }
  if (cards.length === 0 && !dashboard.storage) return null;
  return (
    <div className="dashboard-charts">
      {cards}
      {dashboard.storage && (
        <section className="chart-card storage-card" aria-labelledby="dashboard-storage">
          <h2 id="dashboard-storage">{t('dashboard.storage')}</h2>
          <p className="storage-bytes">{format.bytes(dashboard.storage.bytes)}</p>
          <p className="chart-caption">
            {t('dashboard.storageFiles', { count: dashboard.storage.files })}
          </p>
        </section>
      )}
    </div>
  );
}

function AttentionCard({
  title,
  count,
  more,
  all,
  children,
}: {
  title: string;
  count: number;
  more: boolean;
  all: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li className="attention-card">
      <h3>
        {title}{' '}
        <span className="attention-count">{more ? t('dashboard.more', { count }) : count}</span>
      </h3>
      <ul className="attention-items">{children}</ul>
      {all}
    </li>
  );
}

function Attention({ attention }: { attention: Dashboard['attention'] }) {
  const { t } = useTranslation();
  const { failedMorphs, failedDeliveries, expiringInvitations } = attention;
  const parts = [failedMorphs, failedDeliveries, expiringInvitations].filter(Boolean);
  if (parts.length === 0) return null;
  const clear = parts.every((part) => part!.count === 0);
  return (
    <section className="dashboard-attention" aria-labelledby="dashboard-attention">
      <h2 id="dashboard-attention">{t('dashboard.attention')}</h2>
      {clear ? (
        <p className="attention-clear">{t('dashboard.allClear')}</p>
      ) : (
        <ul className="attention-cards">
          {failedMorphs && failedMorphs.count > 0 && (
            <AttentionCard
              title={t('dashboard.failedMorphs')}
              count={failedMorphs.count}
              more={failedMorphs.more}
              all={
                <Link to="/morph-queue" search={filtered({ status: ['failed'] })}>
                  {t('dashboard.seeAll')}
                </Link>
              }
            >
              {failedMorphs.items.map((item) => (
                <li key={item.id}>
                  <Link
                    to="/morph-queue"
                    search={filtered({
                      status: ['failed'],
                      ...(item.sourceName ? { search: item.sourceName } : {}),
                    })}
                  >
                    {t('dashboard.morphItem', {
                      source: item.sourceName ?? item.id,
                      body: item.bodyName ?? '…',
                    })}
                  </Link>
                  {item.error && <span className="attention-detail">{item.error}</span>}
                </li>
              ))}
            </AttentionCard>
          )}
          {failedDeliveries && failedDeliveries.count > 0 && (
            <AttentionCard
              title={t('dashboard.failedDeliveries')}
              count={failedDeliveries.count}
              more={failedDeliveries.more}
              all={null}
            >
              {failedDeliveries.items.map((item) => (
                <li key={item.key}>
                  {item.record === null ? (
                    <span>{t('dashboard.unknownRecord')}</span>
                  ) : item.record.kind === 'asset' ? (
                    <Link to="/assets/$assetId" params={{ assetId: item.record.id }}>
                      {item.record.name}
                    </Link>
                  ) : (
                    <Link to="/cage-meshes/$cageMeshId" params={{ cageMeshId: item.record.id }}>
                      {item.record.name}
                    </Link>
                  )}
                  {item.reason && <span className="attention-detail">{item.reason}</span>}
                </li>
              ))}
            </AttentionCard>
          )}
          {expiringInvitations && expiringInvitations.count > 0 && (
            <AttentionCard
              title={t('dashboard.expiringInvitations')}
              count={expiringInvitations.count}
              more={expiringInvitations.more}
              all={
                <Link to="/users/invitations" search={filtered({})}>
                  {t('dashboard.seeAll')}
                </Link>
              }
            >
              {expiringInvitations.items.map((item) => (
                <li key={item.id}>
                  <Link to="/users/invitations" search={filtered({ search: item.email })}>
                    {item.email}
                  </Link>
                  <span className="attention-detail">
                    {t('dashboard.expires', { when: formatDate(item.expiresAt) })}
                  </span>
                </li>
              ))}
            </AttentionCard>
          )}
        </ul>
      )}
    </section>
  );
}

function LatestActivity() {
  const { t } = useTranslation();
  const latest = useQuery(latestActivityQuery());
  const rows = latest.data?.data ?? [];
  return (
    <section className="dashboard-activity" aria-labelledby="dashboard-activity">
      <h2 id="dashboard-activity">{t('dashboard.latestActivity')}</h2>
      {latest.isError && (
        <Alert tone="error">
          {describeError(latest.error, t)}
          <ActionButton onPress={() => void latest.refetch()}>{t('app.retry')}</ActionButton>
        </Alert>
      )}
      {latest.isSuccess && rows.length === 0 && <p>{t('dashboard.noActivity')}</p>}
      {rows.length > 0 && (
        <ul className="dashboard-activity-list">
          {rows.map((row) => {
            const detail = changeDetail(row, t);
            return (
              <li key={row.id}>
                <span className="dashboard-activity-when">{dateCell(row.createdAt)}</span>
                <span>
                  {changeTitle(row, t)}
                  {detail && <span className="changelog-detail"> · {detail}</span>}
                </span>
                <span>{recordCell(row, t)}</span>
              </li>
            );
          })}
        </ul>
      )}
      <p>
        <Link to="/activity">{t('dashboard.allActivity')}</Link>
      </p>
    </section>
  );
}
