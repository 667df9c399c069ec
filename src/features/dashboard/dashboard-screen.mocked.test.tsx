// @vitest-environment jsdom
import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLiveMessage } from '../../api/live-cache';
import { queryClient } from '../../api/query';
import { jsonResponse, serveApi } from '../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../i18n';
import { loadPermissions } from '../../machines/permissions.view';
import { renderScreen } from '../../machines/testing/render-screen.view';
import type { Dashboard } from '../../../contract/dashboard';
import { DashboardScreen } from './dashboard-screen';
import { MAX_WAIT_MS, QUIET_MS, useLiveRefresh } from './live-refresh';

// jsdom draws no canvas: the chart stands in as a box; the numbers are the tables'.
vi.mock('./chart', () => ({ default: () => <div data-testid="chart" /> }));

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const days = <T extends object>(n: number, make: (i: number) => T) =>
  Array.from({ length: n }, (_, i) => ({
    day: new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10),
    ...make(i),
  }));

const ANSWER: Dashboard = {
  today: '2030-01-30',
  assetsPerWeek: {
    types: ['hair', 'top'],
    weeks: [
      { week: '2030-01-14', counts: { hair: 3, top: 0 } },
      { week: '2030-01-21', counts: { hair: 1, top: 7 } },
    ],
  },
  signupsPerDay: days(30, (i) => ({ registered: i === 29 ? 12 : 0, guests: i === 29 ? 4 : 0 })),
  morphsPerDay: days(30, (i) => ({ requested: i === 28 ? 9 : 0, failed: i === 28 ? 2 : 0 })),
  deliveryBytes: {
    days: days(30, (i) => ({ uploaded: i === 29 ? 4096 : 0, delivered: i === 29 ? 1024 : 0 })),
    uploaded: 4096,
    delivered: 1024,
  },
  storage: { bytes: 3 * 1024 * 1024, files: 42 },
  attention: {
    failedMorphs: {
      count: 2,
      more: false,
      items: [
        {
          id: 'm1',
          sourceName: 'Red dress',
          bodyName: 'Tall body',
          error: 'No cage mesh',
          at: '2030-01-29T10:00:00.000Z',
        },
      ],
    },
    failedDeliveries: {
      count: 1,
      more: false,
      items: [
        {
          key: 'k.glb',
          reason: 'Broken mesh',
          at: '2030-01-29T11:00:00.000Z',
          record: { kind: 'asset', id: 'a1', name: 'Broken hat' },
        },
      ],
    },
    expiringInvitations: {
      count: 1,
      more: false,
      items: [{ id: 'i1', email: 'ada@example.com', expiresAt: '2030-01-31T09:00:00.000Z' }],
    },
  },
};

function serve(answer: () => Response = () => jsonResponse(200, { data: ANSWER })) {
  return serveApi({
    'GET v1/dashboard': answer,
    'GET v1/assets/countByType': [200, { data: [{ type: 'hair', count: 4 }] }],
    'GET v1/activity': [200, { data: [], pagination: { totalDocs: 0 } }],
  });
}

const dashboardCalls = (server: ReturnType<typeof serve>) =>
  server.sent().filter((call) => call.startsWith('GET v1/dashboard')).length;

describe('the dashboard', () => {
  it('gives each chart a table of its numbers, and "Show as table" shows it', async () => {
    serve();
    renderScreen(() => <DashboardScreen />);
    const signups = await screen.findByRole('table', { name: /Sign-ups per day/ });
    const lastDay = within(signups).getAllByRole('row').at(-1)!;
    expect(
      within(lastDay)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['12', '4']);
    const assets = screen.getByRole('table', { name: /Assets created per week/ });
    expect(
      within(assets)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Week of', 'Top', 'Hair']);
    // Stacked on the chart, counted one by one in the table.
    const secondWeek = within(assets).getAllByRole('row').at(-1)!;
    expect(
      within(secondWeek)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['7', '1']);
    const morphs = screen.getByRole('table', { name: /Morph jobs per day/ });
    expect(within(morphs).getAllByRole('row').at(-2)!.textContent).toContain('92');
    const bytes = screen.getByRole('table', { name: /Uploaded and delivered/ });
    const bytesDay = within(bytes).getAllByRole('row').at(-1)!;
    expect(
      within(bytes)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Day', 'Delivered', 'Uploaded']);
    expect(
      within(bytesDay)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1 KB', '4 KB']);
    expect(screen.getByText(/Delivery versions save 75%/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Storage used' })).toBeTruthy();
    expect(screen.getByText('3 MB')).toBeTruthy();

    const section = screen.getByRole('region', { name: 'Sign-ups per day' });
    expect(await within(section).findByTestId('chart')).toBeTruthy();
    const toggle = within(section).getByRole('button', { name: 'Show as table' });
    await userEvent.click(toggle);
    expect(within(section).getByRole('button', { name: 'Show as chart' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(within(section).queryByTestId('chart')).toBeNull();
    expect(within(section).getByRole('table').parentElement).toHaveClass('chart-table');
  });

  it('links each thing that needs attention to where it is fixed', async () => {
    serve();
    renderScreen(() => <DashboardScreen />);
    const attention = await screen.findByRole('region', { name: 'Needs attention' });
    const morph = within(attention).getByRole('link', { name: 'Red dress on Tall body' });
    const morphUrl = new URL(morph.getAttribute('href')!, 'http://app.test');
    expect(morphUrl.pathname).toBe('/morph-queue');
    expect(JSON.parse(morphUrl.searchParams.get('filter')!)).toEqual({
      status: ['failed'],
      search: 'Red dress',
    });
    expect(within(attention).getByText('No cage mesh')).toBeTruthy();
    expect(within(attention).getByRole('link', { name: 'Broken hat' })).toHaveAttribute(
      'href',
      '/assets/a1',
    );
    const invitation = within(attention).getByRole('link', { name: 'ada@example.com' });
    const invitationUrl = new URL(invitation.getAttribute('href')!, 'http://app.test');
    expect(invitationUrl.pathname).toBe('/users/invitations');
    expect(JSON.parse(invitationUrl.searchParams.get('filter')!)).toEqual({
      search: 'ada@example.com',
    });
  });

  it('says what failed and reads again on Retry', async () => {
    let fail = true;
    const server = serve(() =>
      fail
        ? jsonResponse(503, { status: 503, code: 'UNAVAILABLE', message: 'Down' })
        : jsonResponse(200, { data: ANSWER }),
    );
    renderScreen(() => <DashboardScreen />);
    const alert = await screen.findByText(/The dashboard could not be loaded/, undefined, {
      timeout: 10_000,
    });
    fail = false;
    await userEvent.click(within(alert.closest('[role="alert"]') ?? alert).getByRole('button'));
    expect(await screen.findByRole('table', { name: /Sign-ups per day/ })).toBeTruthy();
    expect(dashboardCalls(server)).toBeGreaterThan(1);
  }, 20_000);

  it('reads again once after a burst of live events', async () => {
    const server = serve();
    renderScreen(() => <DashboardScreen />);
    await screen.findByRole('table', { name: /Sign-ups per day/ });
    const before = dashboardCalls(server);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      act(() => {
        for (let i = 0; i < 50; i++) applyLiveMessage({ type: 'event', event: event(i) });
      });
      await act(() => vi.advanceTimersByTimeAsync(QUIET_MS));
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(dashboardCalls(server)).toBe(before + 1));
  });
});

const event = (i: number) => ({
  id: `e${i}`,
  seq: i,
  routingKey: 'asset.created.v1',
  assetId: `a${i}`,
  cageMeshId: null,
  actorId: null,
  actorEmail: null,
  data: {},
  createdAt: '2030-01-30T00:00:00.000Z',
});

describe('useLiveRefresh', () => {
  afterEach(() => vi.useRealTimers());

  it('calls once the events stop for a second, and at least every five seconds while they go on', () => {
    vi.useFakeTimers();
    const refresh = vi.fn();
    renderHook(() => useLiveRefresh(refresh));
    for (let i = 0; i < 20; i++) applyLiveMessage({ type: 'event', event: event(i) });
    vi.advanceTimersByTime(999);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    // A steady stream, one event every half second for six seconds.
    for (let ms = 0; ms < 6_000; ms += 500) {
      applyLiveMessage({ type: 'event', event: event(ms) });
      vi.advanceTimersByTime(500);
    }
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(MAX_WAIT_MS).toBe(5_000);
    vi.advanceTimersByTime(1_000);
    expect(refresh).toHaveBeenCalledTimes(3);
  });
});
