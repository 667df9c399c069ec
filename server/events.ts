/**
 * The event log (spec §3 "Asset event routing keys", and the events of tags, applications and
 * user administration beside them). Every change appends its events in the same transaction as
 * the change, so the log never disagrees with the data; GET /v1/assets/{id}/backoffice-changelog
 * reads an asset's back, GET /v1/activity all of them (server/activity.ts), and GET /v1/events
 * streams them (server/event-bus.ts, server/event-stream.ts). At commit, migration 007 gives
 * each row its final `seq` in commit order and notifies the `asset_events` channel. Each row
 * names one subject (migrations 015, 018): an asset, a cage mesh, a tag, an application, a user,
 * a morphed asset or an invitation.
 */
import type { AssetEvent, StreamEvent } from '../contract/schemas';
import type { Db } from './db';
import { newId } from './ids';
import { anyOfFilter, type ListSpec } from './list';
import { isoString } from './timestamps';

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

/**
 * Appends events; call it inside the transaction that makes the change. One statement for all
 * of them (a bulk job's batch records hundreds), inserted in the order given, which is the
 * order their `seq` and the changelog keep.
 */
export async function recordAssetEvents(db: Db, events: readonly AssetEventInput[]) {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
     SELECT e.id, e.asset_id, e.routing_key, e.actor_id, e.data::jsonb, e.created_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
       WITH ORDINALITY AS e (id, asset_id, routing_key, actor_id, data, created_at, n)
     ORDER BY e.n`,
    [
      events.map(() => newId()),
      events.map((event) => event.assetId),
      events.map((event) => ASSET_EVENT_KEYS[event.event]),
      events.map((event) => event.actorId),
      events.map((event) => JSON.stringify(event.data ?? {})),
      events.map((event) => event.at.toISOString()),
    ],
  );
}

/** Appends one event; see recordAssetEvents. */
export function recordAssetEvent(db: Db, event: AssetEventInput) {
  return recordAssetEvents(db, [event]);
}

/**
 * Routing keys of the other kinds of record (not in the spec, which names only the asset
 * service's): `<kind>.<event>.v1`. Each event's `data` is listed beside its key.
 */
export const RECORD_EVENT_KEYS = {
  tag: {
    /** `{ name }` */
    created: 'tag.created.v1',
    /** `{ changes: { name: { from, to } } }` */
    renamed: 'tag.renamed.v1',
    /** Moved to the Trash: `{ name }` */
    deleted: 'tag.deleted.v1',
    /** Back from the Trash: `{ name }` */
    restored: 'tag.restored.v1',
    /** Deleted for ever from the Trash (by someone, or by the retention sweep): `{ name }` */
    purged: 'tag.purged.v1',
  },
  application: {
    /** `{ name }` */
    created: 'application.created.v1',
    /** `{ changes: { field: { from, to } } }` */
    updated: 'application.updated.v1',
    /** Moved to the Trash: `{ name }` */
    deleted: 'application.deleted.v1',
    /** Back from the Trash: `{ name }` */
    restored: 'application.restored.v1',
    /** Deleted for ever from the Trash: `{ name }` */
    purged: 'application.purged.v1',
  },
  /** A cage mesh's edits are `asset.cage-mesh-updated.v1` (the spec's key), these the Trash's. */
  'cage-mesh': {
    /** Moved to the Trash: `{ name }` */
    deleted: 'cage-mesh.deleted.v1',
    /** Back from the Trash: `{ name }` */
    restored: 'cage-mesh.restored.v1',
    /** Deleted for ever from the Trash: `{ name }` */
    purged: 'cage-mesh.purged.v1',
  },
  'morphed-asset': {
    /** Moved to the Trash: `{ name }` */
    deleted: 'morphed-asset.deleted.v1',
    /** Back from the Trash: `{ name }` */
    restored: 'morphed-asset.restored.v1',
    /** Deleted for ever from the Trash: `{ name }` */
    purged: 'morphed-asset.purged.v1',
  },
  user: {
    /** `{ changes: { role: { from, to } } }` */
    roleChanged: 'user.role-changed.v1',
    /** An admin ended sessions of the user: `{ ended: <count>, sessionId? }` (one, or all). */
    sessionsEnded: 'user.sessions-ended.v1',
    disabled: 'user.disabled.v1',
    enabled: 'user.enabled.v1',
    /** An admin had a password reset code mailed to the user. */
    passwordResetSent: 'user.password-reset-sent.v1',
    /** An admin had a verification code mailed again to the user's unverified address. */
    verificationSent: 'user.verification-sent.v1',
    /** An admin removed the user's second factor (and ended their sessions). */
    secondFactorReset: 'user.second-factor-reset.v1',
    /** An invitation was sent (its subject is the invitation): `{ email, role }` */
    invited: 'user.invited.v1',
    /** The invitation was mailed again, with a new link (subject: the invitation): `{ email }` */
    invitationResent: 'user.invitation-resent.v1',
    /** Subject: the invitation: `{ email }` */
    invitationRevoked: 'user.invitation-revoked.v1',
    /**
     * The invitee set a password: the subject is the new user, so is the actor:
     * `{ invitationId, email, role }`.
     */
    invitationAccepted: 'user.invitation-accepted.v1',
    /** The user changed their own e-mail address: `{ changes: { email: { from, to } } }` */
    emailChanged: 'user.email-changed.v1',
    /** The user deleted their own account (no data: see forgetAddressesOf). */
    deleted: 'user.deleted.v1',
  },
  'bulk-job': {
    /**
     * A batch of a bulk job committed, or the job changed state (server/bulk-jobs.ts): the
     * job's progress `{ action, state, done, total, totalIsEstimate, changed, skipped }`. The
     * rows' own events of that batch are in the log, not on the stream: this one stands for
     * them there.
     */
    progressed: 'bulk-job.progressed.v1',
  },
} as const;

/** The subjects an event row may name, and the column of each (migration 015). */
const SUBJECT_COLUMNS = {
  'cage-mesh': 'cage_mesh_id',
  tag: 'tag_id',
  application: 'application_id',
  user: 'user_id',
  'morphed-asset': 'morphed_asset_id',
  invitation: 'invitation_id',
  'bulk-job': 'bulk_job_id',
} as const;

/** Appends one event of a subject that is not an asset (inside the transaction of the change). */
async function recordSubjectEvent(
  db: Db,
  kind: keyof typeof SUBJECT_COLUMNS,
  subjectId: string,
  routingKey: string,
  event: { actorId: string | null; data?: Record<string, unknown>; at: Date },
) {
  await db.query(
    `INSERT INTO asset_events (id, ${SUBJECT_COLUMNS[kind]}, routing_key, actor_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
    [newId(), subjectId, routingKey, event.actorId, JSON.stringify(event.data ?? {}), event.at],
  );
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
export function recordCageMeshEvent(db: Db, { cageMeshId, ...event }: CageMeshEventInput) {
  return recordSubjectEvent(db, 'cage-mesh', cageMeshId, ASSET_EVENT_KEYS.cageMeshUpdated, event);
}

/** The common part of the other kinds' events: who, what else, when. */
interface RecordEventInput<Event> {
  event: Event;
  /** The user who made the change; null for the system (e.g. the Trash's retention sweep). */
  actorId: string | null;
  data?: Record<string, unknown>;
  at: Date;
}

/** Appends a tag's event; call it inside the transaction that makes the change. */
export function recordTagEvent(
  db: Db,
  {
    tagId,
    event,
    ...rest
  }: RecordEventInput<keyof typeof RECORD_EVENT_KEYS.tag> & { tagId: string },
) {
  return recordSubjectEvent(db, 'tag', tagId, RECORD_EVENT_KEYS.tag[event], rest);
}

/** Appends an application's event; call it inside the transaction that makes the change. */
export function recordApplicationEvent(
  db: Db,
  {
    applicationId,
    event,
    ...rest
  }: RecordEventInput<keyof typeof RECORD_EVENT_KEYS.application> & { applicationId: string },
) {
  return recordSubjectEvent(
    db,
    'application',
    applicationId,
    RECORD_EVENT_KEYS.application[event],
    rest,
  );
}

/** Appends a bulk job's progress event; call it inside the transaction of the batch. */
export function recordBulkJobEvent(
  db: Db,
  { bulkJobId, ...rest }: Omit<RecordEventInput<'progressed'>, 'event'> & { bulkJobId: string },
) {
  return recordSubjectEvent(
    db,
    'bulk-job',
    bulkJobId,
    RECORD_EVENT_KEYS['bulk-job'].progressed,
    rest,
  );
}

/**
 * Appends an event of user administration about user `userId` (role changed, sessions ended,
 * disabled, enabled, invitations); `actorId` is who did it. Call it inside the transaction that
 * makes the change, so the event is recorded if and only if the change is. Only callers who may
 * `manage User` (admins) see these events, in the activity log and on the live stream.
 */
export function recordUserEvent(
  db: Db,
  {
    userId,
    event,
    ...rest
  }: RecordEventInput<keyof typeof RECORD_EVENT_KEYS.user> & { userId: string },
) {
  return recordSubjectEvent(db, 'user', userId, RECORD_EVENT_KEYS.user[event], rest);
}

/**
 * Forgets the addresses of a deleted account `userId` (last known as `email`): its invitations
 * that are no longer pending (accepted by it, or to its address) go, and the events of the
 * account and of those invitations lose every address in their data (`email`, an e-mail
 * change's from and to). The log keeps what happened and when, no longer to whom. Call it in
 * the transaction that deletes the user row.
 */
export async function forgetAddressesOf(db: Db, userId: string, email: string | null) {
  const { rows } = await db.query<{ id: string }>(
    `DELETE FROM invitations
     WHERE accepted_user_id = $1
        OR (lower(email) = lower($2) AND (accepted_at IS NOT NULL OR revoked_at IS NOT NULL))
     RETURNING id`,
    [userId, email ?? ''],
  );
  await db.query(
    `UPDATE asset_events SET data = (data - 'email') #- '{changes,email}', subject_name = NULL
     WHERE user_id = $1 OR invitation_id = ANY($2::text[])`,
    [userId, rows.map((row) => row.id)],
  );
}

/** The kinds of the Trash besides assets (which have the spec's keys): their Trash events. */
type TrashedKind = 'tag' | 'application' | 'cage-mesh' | 'morphed-asset';

/**
 * Appends the event of a record of `kind` going to the Trash, coming back or purged, with its
 * name in the data; the actor is null for the retention sweep. Inside the change's transaction.
 */
export function recordTrashEvent(
  db: Db,
  kind: TrashedKind,
  id: string,
  { event, name, ...rest }: RecordEventInput<'deleted' | 'restored' | 'purged'> & { name: string },
) {
  const data = { ...rest.data, name };
  return recordSubjectEvent(db, kind, id, RECORD_EVENT_KEYS[kind][event], { ...rest, data });
}

/** The invitation events whose subject is the invitation (it has no user yet). */
type InvitationEvent = 'invited' | 'invitationResent' | 'invitationRevoked';

/**
 * Appends an event of invitation `invitationId` (sent, sent again, revoked), seen as user
 * administration (admins only); its data carries the invited address. Call it inside the
 * transaction of the change.
 */
export function recordInvitationEvent(
  db: Db,
  {
    invitationId,
    event,
    ...rest
  }: RecordEventInput<InvitationEvent> & { invitationId: string; actorId: string },
) {
  return recordSubjectEvent(db, 'invitation', invitationId, RECORD_EVENT_KEYS.user[event], rest);
}

interface EventDbRow {
  id: string;
  routing_key: string;
  actor_id: string | null;
  actor_email: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

/**
 * The other side of a relation an event names in its data (`applicationId`, `userId`): joined
 * by `relatedJoins`, read as `relatedColumns`; null when it is gone.
 */
export const relatedJoins = `LEFT JOIN applications rap ON rap.id = e.data->>'applicationId'
  LEFT JOIN users ru ON ru.id = e.data->>'userId'`;
export const relatedColumns = 'rap.name AS application_name, ru.email AS user_email';
interface RelatedDbRow {
  application_name: string | null;
  user_email: string | null;
}
export const relatedOf = (row: RelatedDbRow) => ({
  applicationName: row.application_name,
  userEmail: row.user_email,
});

/** Who made an event's change, and when, as every view of the log shows it. */
export const eventBase = (row: EventDbRow) => ({
  id: row.id,
  routingKey: row.routing_key,
  actorId: row.actor_id,
  actorEmail: row.actor_email,
  data: row.data,
  createdAt: isoString(row.created_at),
});

interface AssetEventDbRow extends EventDbRow, RelatedDbRow {
  asset_id: string;
}

/**
 * The back-office changelog of one asset (scope it with `e.asset_id`): newest first, the
 * events of one change in the order they were recorded (`seq`), each with its actor's e-mail.
 */
export const assetEventListSpec: ListSpec<AssetEvent> = {
  from: `asset_events e LEFT JOIN users u ON u.id = e.actor_id ${relatedJoins}`,
  columns: `e.id, e.asset_id, e.routing_key, e.actor_id, u.email AS actor_email, e.data,
    e.created_at, ${relatedColumns}`,
  orders: { createdAt: 'e.created_at' },
  defaultOrder: '-createdAt',
  idColumn: 'e.seq',
  filters: { routingKey: anyOfFilter('e.routing_key', Object.values(ASSET_EVENT_KEYS)) },
  toRow: (row: AssetEventDbRow) => ({
    ...eventBase(row),
    assetId: row.asset_id,
    ...relatedOf(row),
  }),
};

/** Routing keys the changelog leaves out: progress reports, not changes of the catalogue. */
export const CHANGELOG_HIDDEN_KEYS: readonly string[] = [
  ASSET_EVENT_KEYS.morphQueueEntryUpdated,
  RECORD_EVENT_KEYS['bulk-job'].progressed,
];

/** The channel migration 007 notifies at each commit that recorded events. */
export const EVENTS_CHANNEL = 'asset_events';

interface StreamEventDbRow extends EventDbRow {
  asset_id: string | null;
  cage_mesh_id: string | null;
  tag_id: string | null;
  application_id: string | null;
  user_id: string | null;
  morphed_asset_id: string | null;
  invitation_id: string | null;
  bulk_job_id: string | null;
  /** bigint: a string from node-postgres, a number from PGlite. */
  seq: string | number;
}

function toStreamEvent(row: StreamEventDbRow): StreamEvent {
  return {
    ...eventBase(row),
    seq: Number(row.seq),
    assetId: row.asset_id,
    cageMeshId: row.cage_mesh_id,
    tagId: row.tag_id,
    applicationId: row.application_id,
    userId: row.user_id,
    morphedAssetId: row.morphed_asset_id,
    invitationId: row.invitation_id,
    bulkJobId: row.bulk_job_id,
  };
}

/** The committed events after `seq`, oldest first, at most `limit` of them. */
export async function readEventsAfter(db: Db, seq: number, limit: number): Promise<StreamEvent[]> {
  const { rows } = await db.query<StreamEventDbRow>(
    `SELECT e.id, e.seq, e.asset_id, e.cage_mesh_id, e.tag_id, e.application_id, e.user_id,
       e.morphed_asset_id, e.invitation_id, e.bulk_job_id, e.routing_key, e.actor_id, u.email AS actor_email, e.data, e.created_at
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
