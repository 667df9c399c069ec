/**
 * The asset event log (spec §3 "Asset event routing keys"). Every mutation of an asset appends
 * its events in the same transaction as the change, so the log never disagrees with the data;
 * GET /v1/assets/{id}/backoffice-changelog reads them back, and GET /v1/events streams them
 * (server/event-bus.ts, server/event-stream.ts). At commit, migration 007 gives each row its
 * final `seq` in commit order and notifies the `asset_events` channel.
 */
import type { AssetEvent, StreamEvent } from '../src/api/schemas';
import type { Db } from './db';
import { newId } from './ids';
import { anyOfFilter, isoString, type ListSpec } from './list';

/**
 * Routing keys of the asset service: `asset.<event>.v<version>`. Every key is version 1
 * except the second "updated" event, which carries the full asset after the change (v2).
 */
export const ASSET_EVENT_KEYS = {
  created: 'asset.created.v1',
  deleted: 'asset.deleted.v1',
  /** Lock and unlock both publish it, with `{ locked }` in the data. */
  locked: 'asset.locked.v1',
  /** The changed fields: `{ changes: { field: { from, to } } }`. */
  updated: 'asset.updated.v1',
  /** The whole asset after the change: `{ asset }`. */
  updatedV2: 'asset.updated.v2',
  modelUpdated: 'asset.model-updated.v1',
  typeOrGenderChanged: 'asset.type-or-gender-changed.v1',
  addedToApplication: 'asset.added-to-application.v1',
  applicationUpdated: 'asset.application-updated.v1',
  /** Removed from an application. */
  applicationDeleted: 'asset.application-deleted.v1',
  bulkDeleted: 'asset.bulk-deleted.v1',
  /** Not in the spec: back from the Trash, with the whole asset: `{ asset }`. */
  restored: 'asset.restored.v1',
  /** Not in the spec: deleted for ever from the Trash: `{ name }`. */
  purged: 'asset.purged.v1',
  morphQueueEntryCreated: 'asset.morph-queue-entry-created.v1',
  /**
   * Not in the spec: a queue entry's status or progress changed (the morph worker), with the
   * entry's state in the data. For the live stream only; the changelog leaves it out.
   */
  morphQueueEntryUpdated: 'asset.morph-queue-entry-updated.v1',
  exported: 'asset.assets-exported.v1',
  cageMeshUpdated: 'asset.cage-mesh-updated.v1',
  userAssetsAdded: 'asset.user-assets-added.v1',
  userAssetsRemoved: 'asset.user-assets-removed.v1',
} as const;

type AssetEventName = keyof typeof ASSET_EVENT_KEYS;

export interface AssetEventInput {
  assetId: string;
  event: AssetEventName;
  /** The user who made the change; null for the system (the morph worker). */
  actorId: string | null;
  data?: Record<string, unknown>;
  at: Date;
}

/** Appends events; call it inside the transaction that makes the change. */
export async function recordAssetEvents(db: Db, events: readonly AssetEventInput[]) {
  for (const { assetId, event, actorId, data = {}, at } of events) {
    await db.query(
      `INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [newId(), assetId, ASSET_EVENT_KEYS[event], actorId, JSON.stringify(data), at],
    );
  }
}

/** Appends one event; see recordAssetEvents. */
export function recordAssetEvent(db: Db, event: AssetEventInput) {
  return recordAssetEvents(db, [event]);
}

/** A change of a cage mesh: `asset.cage-mesh-updated.v1` names the cage mesh, not an asset. */
export interface CageMeshEventInput {
  cageMeshId: string;
  actorId: string;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Appends a cage mesh's event (inside the transaction of the change). A cage mesh is linked to
 * no asset, so the row names the cage mesh instead, and no asset's changelog shows it.
 */
export async function recordCageMeshEvent(
  db: Db,
  { cageMeshId, actorId, data, at }: CageMeshEventInput,
) {
  await db.query(
    `INSERT INTO asset_events (id, cage_mesh_id, routing_key, actor_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
    [newId(), cageMeshId, ASSET_EVENT_KEYS.cageMeshUpdated, actorId, JSON.stringify(data), at],
  );
}

interface AssetEventDbRow {
  id: string;
  asset_id: string;
  routing_key: string;
  actor_id: string | null;
  actor_email: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

/**
 * The back-office changelog of one asset (scope it with `e.asset_id`): newest first, the
 * events of one change in the order they were recorded (`seq`), each with its actor's e-mail.
 */
export const assetEventListSpec: ListSpec<AssetEvent> = {
  from: 'asset_events e LEFT JOIN users u ON u.id = e.actor_id',
  columns:
    'e.id, e.asset_id, e.routing_key, e.actor_id, u.email AS actor_email, e.data, e.created_at',
  orders: { createdAt: 'e.created_at' },
  defaultOrder: '-createdAt',
  idColumn: 'e.seq',
  filters: { routingKey: anyOfFilter('e.routing_key', Object.values(ASSET_EVENT_KEYS)) },
  toRow: (row: AssetEventDbRow) => ({
    id: row.id,
    assetId: row.asset_id,
    routingKey: row.routing_key,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    data: row.data,
    createdAt: isoString(row.created_at),
  }),
};

/** Routing keys the changelog leaves out: progress reports, not changes of the catalogue. */
export const CHANGELOG_HIDDEN_KEYS: readonly string[] = [ASSET_EVENT_KEYS.morphQueueEntryUpdated];

/** The channel migration 007 notifies at each commit that recorded events. */
export const EVENTS_CHANNEL = 'asset_events';

interface StreamEventDbRow extends Omit<AssetEventDbRow, 'asset_id'> {
  asset_id: string | null;
  cage_mesh_id: string | null;
  /** bigint: a string from node-postgres, a number from PGlite. */
  seq: string | number;
}

function toStreamEvent(row: StreamEventDbRow): StreamEvent {
  return {
    id: row.id,
    seq: Number(row.seq),
    routingKey: row.routing_key,
    assetId: row.asset_id,
    cageMeshId: row.cage_mesh_id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    data: row.data,
    createdAt: isoString(row.created_at),
  };
}

/** The committed events after `seq`, oldest first, at most `limit` of them. */
export async function readEventsAfter(db: Db, seq: number, limit: number): Promise<StreamEvent[]> {
  const { rows } = await db.query<StreamEventDbRow>(
    `SELECT e.id, e.seq, e.asset_id, e.cage_mesh_id, e.routing_key, e.actor_id,
       u.email AS actor_email, e.data, e.created_at
     FROM asset_events e LEFT JOIN users u ON u.id = e.actor_id
     WHERE e.seq > $1 ORDER BY e.seq LIMIT $2`,
    [seq, limit],
  );
  return rows.map(toStreamEvent);
}

/** The `seq` of the newest committed event (0 without any). */
export async function latestEventSeq(db: Db): Promise<number> {
  const { rows } = await db.query<{ seq: string | number }>(
    'SELECT coalesce(max(seq), 0) AS seq FROM asset_events',
  );
  return Number(rows[0]?.seq ?? 0);
}

/** How many events came after `seq`, counting no further than `cap`. */
export async function countEventsAfter(db: Db, seq: number, cap: number): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM asset_events WHERE seq > $1 LIMIT $2) t`,
    [seq, cap],
  );
  return Number(rows[0]?.n ?? 0);
}
