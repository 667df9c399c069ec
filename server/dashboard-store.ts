/**
 * The dashboard's reads (GET /v1/dashboard): its series and what needs attention
 * (contract/dashboard.ts).
 * The series read the counts migration 043 keeps per UTC day, an index range of the window's
 * days; the lists read their first rows from an index in order, and their counts are kept totals
 * or bounded. Nothing here costs in proportion to a table. Each part needs the ability that
 * reads what it counts (docs/roles.md); the others are left out.
 */
import {
  ATTENTION_ITEMS,
  DASHBOARD_DAYS,
  DASHBOARD_WEEKS,
  INVITATION_EXPIRY_SOON_HOURS,
  type Dashboard,
} from '../contract/dashboard';
import type { Db } from './db';
import { isoString } from './timestamps';

const DAY_MS = 24 * 3600 * 1000;
/** How far a bounded count goes before it says "more". */
const COUNT_CAP = 100;

/** `YYYY-MM-DD` of a UTC day. */
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The days from `first` to `last` (UTC midnights), in order. */
function daysBetween(first: number, last: number): string[] {
  const days: string[] = [];
  for (let at = first; at <= last; at += DAY_MS) days.push(dayOf(at));
  return days;
}

/** Kept counts by metric, day and key; the day '-infinity' holds all-time totals. */
type Kept = Map<string, number>;
const keptKey = (metric: string, day: string, key: string) => `${metric}/${day}/${key}`;

async function keptCounts(db: Db, metrics: string[], from: string, to: string): Promise<Kept> {
  const { rows } = await db.query<{ metric: string; day: string; key: string; n: number }>(
    `SELECT metric, day::text AS day, key, sum(n)::float8 AS n FROM daily_counts
     WHERE metric = ANY($1::text[]) AND day BETWEEN $2::date AND $3::date
     GROUP BY metric, day, key
     UNION ALL
     SELECT metric, '-infinity', key, sum(n)::float8 FROM daily_counts
     WHERE metric = ANY($1::text[]) AND day = '-infinity'
     GROUP BY metric, key`,
    [metrics, from, to],
  );
  return new Map(rows.map((row) => [keptKey(row.metric, row.day, row.key), row.n]));
}

async function failedMorphs(db: Db, kept: Kept): Promise<Dashboard['attention']['failedMorphs']> {
  const { rows } = await db.query<{
    id: string;
    error: string | null;
    updated_at: Date;
    source_name: string | null;
    body_name: string | null;
  }>(
    `SELECT m.id, m.error, m.updated_at, s.name AS source_name, b.name AS body_name
     FROM morph_queue m
     LEFT JOIN assets s ON s.id = m.source_asset_id
     LEFT JOIN assets b ON b.id = m.body_asset_id
     WHERE m.status = 'failed' ORDER BY m.updated_at DESC LIMIT $1`,
    [ATTENTION_ITEMS],
  );
  return {
    count: kept.get(keptKey('morphs', '-infinity', 'failed')) ?? 0,
    more: false,
    items: rows.map((row) => ({
      id: row.id,
      sourceName: row.source_name,
      bodyName: row.body_name,
      error: row.error,
      at: isoString(row.updated_at),
    })),
  };
}

async function failedDeliveries(
  db: Db,
  kept: Kept,
): Promise<Dashboard['attention']['failedDeliveries']> {
  // The record a model belongs to, by its address (indexed by migration 043).
  const { rows } = await db.query<{
    model_key: string;
    reason: string | null;
    updated_at: Date;
    asset_id: string | null;
    asset_name: string | null;
    cage_mesh_id: string | null;
    cage_mesh_name: string | null;
  }>(
    `SELECT d.model_key, d.reason, d.updated_at, a.id AS asset_id, a.name AS asset_name,
       cm.id AS cage_mesh_id, cm.name AS cage_mesh_name
     FROM model_deliveries d
     LEFT JOIN LATERAL (SELECT id, name FROM assets WHERE model_url = '/files/' || d.model_key
       ORDER BY model_url LIMIT 1) a ON true
     LEFT JOIN LATERAL (SELECT id, name FROM cage_meshes
       WHERE model_url = '/files/' || d.model_key ORDER BY model_url LIMIT 1) cm ON true
     WHERE d.status = 'failed' ORDER BY d.updated_at DESC, d.model_key DESC LIMIT $1`,
    [ATTENTION_ITEMS],
  );
  return {
    count: kept.get(keptKey('deliveries', '-infinity', 'failed')) ?? 0,
    more: false,
    items: rows.map((row) => ({
      key: row.model_key,
      reason: row.reason,
      at: isoString(row.updated_at),
      record:
        row.asset_id !== null && row.asset_name !== null
          ? { kind: 'asset' as const, id: row.asset_id, name: row.asset_name }
          : row.cage_mesh_id !== null && row.cage_mesh_name !== null
            ? { kind: 'cageMesh' as const, id: row.cage_mesh_id, name: row.cage_mesh_name }
            : null,
    })),
  };
}

async function expiringInvitations(
  db: Db,
  now: Date,
): Promise<Dashboard['attention']['expiringInvitations']> {
  const soon = new Date(now.getTime() + INVITATION_EXPIRY_SOON_HOURS * 3600 * 1000);
  const pending = `FROM invitations WHERE accepted_at IS NULL AND revoked_at IS NULL
    AND expires_at >= $1 AND expires_at < $2`;
  const [items, counted] = await Promise.all([
    db.query<{ id: string; email: string; expires_at: Date }>(
      `SELECT id, email, expires_at ${pending} ORDER BY expires_at, id LIMIT $3`,
      [now, soon, ATTENTION_ITEMS],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 ${pending} LIMIT $3) x`, [
      now,
      soon,
      COUNT_CAP + 1,
    ]),
  ]);
  const n = counted.rows[0]?.n ?? 0;
  return {
    count: Math.min(n, COUNT_CAP),
    more: n > COUNT_CAP,
    items: items.rows.map((row) => ({
      id: row.id,
      email: row.email,
      expiresAt: isoString(row.expires_at),
    })),
  };
}

/** The dashboard as `can` allows it to be seen at `now`. */
export async function readDashboard(
  db: Db,
  now: Date,
  can: (
    action: 'read' | 'update' | 'manage',
    subject: 'Asset' | 'User' | 'MorphedAsset',
  ) => boolean,
): Promise<Dashboard> {
  const todayMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const today = dayOf(todayMs);
  // Weeks start on Monday (getUTCDay: 0 is Sunday).
  const mondayMs = todayMs - ((new Date(todayMs).getUTCDay() + 6) % 7) * DAY_MS;
  const firstWeekMs = mondayMs - (DASHBOARD_WEEKS - 1) * 7 * DAY_MS;
  const days = daysBetween(todayMs - (DASHBOARD_DAYS - 1) * DAY_MS, todayMs);

  const seesAssets = can('read', 'Asset');
  const seesUsers = can('read', 'User');
  const seesMorphs = can('read', 'MorphedAsset');
  const seesFiles = can('update', 'Asset');
  const seesInvitations = can('manage', 'User');
  const metrics = [
    ...(seesAssets ? ['assets'] : []),
    ...(seesUsers ? ['signups'] : []),
    ...(seesMorphs ? ['morphs'] : []),
    ...(seesFiles ? ['deliveries', 'storage'] : []),
  ];
  const kept = await keptCounts(db, metrics, dayOf(firstWeekMs), today);
  const at = (metric: string, day: string, key: string) => kept.get(keptKey(metric, day, key)) ?? 0;

  const dashboard: Dashboard = { today, attention: {} };
  if (seesAssets) {
    const types = new Set<string>();
    for (const key of kept.keys()) {
      const [metric, , type] = key.split('/');
      if (metric === 'assets' && type !== undefined) types.add(type);
    }
    const sorted = [...types].sort();
    const weeks = [];
    for (let week = firstWeekMs; week <= todayMs; week += 7 * DAY_MS) {
      const weekDays = daysBetween(week, Math.min(week + 6 * DAY_MS, todayMs));
      const counts: Record<string, number> = {};
      for (const type of sorted) {
        counts[type] = weekDays.reduce((sum, day) => sum + at('assets', day, type), 0);
      }
      weeks.push({ week: dayOf(week), counts });
    }
    dashboard.assetsPerWeek = { types: sorted, weeks };
  }
  if (seesUsers) {
    dashboard.signupsPerDay = days.map((day) => ({
      day,
      registered: at('signups', day, 'registered'),
      guests: at('signups', day, 'guest'),
    }));
  }
  if (seesMorphs) {
    dashboard.morphsPerDay = days.map((day) => ({
      day,
      requested: at('morphs', day, 'requested'),
      failed: at('morphs', day, 'failed'),
    }));
  }
  if (seesFiles) {
    dashboard.deliveryBytes = {
      days: days.map((day) => ({
        day,
        uploaded: at('deliveries', day, 'uploaded'),
        delivered: at('deliveries', day, 'delivered'),
      })),
      uploaded: at('deliveries', '-infinity', 'uploaded'),
      delivered: at('deliveries', '-infinity', 'delivered'),
    };
    dashboard.storage = {
      bytes: at('storage', '-infinity', 'bytes'),
      files: at('storage', '-infinity', 'files'),
    };
  }
  const [morphs, deliveries, invitations] = await Promise.all([
    seesMorphs ? failedMorphs(db, kept) : undefined,
    seesFiles ? failedDeliveries(db, kept) : undefined,
    seesInvitations ? expiringInvitations(db, now) : undefined,
  ]);
  if (morphs) dashboard.attention.failedMorphs = morphs;
  if (deliveries) dashboard.attention.failedDeliveries = deliveries;
  if (invitations) dashboard.attention.expiringInvitations = invitations;
  return dashboard;
}
