/**
 * Record versions and conditional changes (docs/api.md "Versions and conflicts"). Every editable
 * record has a `version`, raised by migration 012's triggers at each change, which also record
 * the changed fields in record_changes. A single-record read answers the version as a strong
 * ETag; a change may send the version it was based on as If-Match. Without If-Match a change
 * is applied as it always was (last writer wins).
 */
import type { Context } from 'hono';
import type { EditConflict } from '../contract/schemas';
import type { Db } from './db';
import { fail } from './http/errors';
import { isoString } from './timestamps';

/** The kinds of versioned records, as record_changes names them. */
export type RecordKind =
  'asset' | 'cage-mesh' | 'tag' | 'application' | 'application-asset' | 'user';

/** What a change would do, field by field (the API's field names). */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** The change of one field from `from` to `to`; none when `changes` is false (by default: equal). */
export function changeOf(field: string, from: unknown, to: unknown, changes = from !== to) {
  return changes ? { [field]: { from, to } } : {};
}

/** Sets the ETag of a single-record answer to the record's version. */
export function setVersionTag(c: Context, record: { version?: number }) {
  if (record.version !== undefined) c.header('ETag', `"${record.version}"`);
}

/**
 * The base version a request's If-Match names: undefined without the header (or with `*`,
 * "whatever is there"); 400 for anything but one strong ETag of a version, e.g. `"3"`.
 */
export function readIfMatch(c: Context): number | undefined {
  const header = c.req.header('if-match')?.trim();
  if (header === undefined || header === '*') return undefined;
  const match = /^"([1-9]\d{0,8})"$/.exec(header);
  if (!match) {
    fail(400, 'VALIDATION_ERROR', 'If-Match: Expected the ETag of one version, e.g. "3"');
  }
  return Number(match[1]);
}

/**
 * Refuses an If-Match on a change of several records at once (bulk routes): it names one
 * record's version and such a change has none to compare, so it is false (RFC 9110 §13.1.1):
 * 412 rather than a change applied as if unconditional. `*` and no header go ahead.
 */
export function refuseIfMatch(c: Context): void {
  const header = c.req.header('if-match')?.trim();
  if (header === undefined || header === '*') return;
  fail(
    412,
    'PRECONDITION_FAILED',
    "If-Match names one record's version; a change of several records has none to compare",
  );
}

/**
 * Checks a change that takes the whole record away (a delete), based on version `base`, of a
 * record the caller holds FOR UPDATE: only the current version goes ahead. Fields cannot merge
 * here, so any change since the base is a 412 VERSION_CHANGED (read it again and decide), a
 * version that never existed a 412 VERSION_UNKNOWN.
 */
export function checkWhole(record: { version?: number }, base: number | undefined): void {
  const current = record.version ?? 1;
  if (base === undefined || base === current) return;
  if (base > current) {
    fail(412, 'VERSION_UNKNOWN', `Version ${base} never existed; the current one is ${current}`);
  }
  fail(412, 'VERSION_CHANGED', `Changed since version ${base}; the current one is ${current}`);
}

/**
 * record_changes names columns; the API names fields (`tag_ids` → `tagIds`). A row's order key
 * is `position` and `rank` (server/positions.ts): a move changes either, and both are its
 * `position`.
 */
const fieldOfColumn = (column: string) =>
  column === 'rank'
    ? 'position'
    : column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

interface ChangeDbRow {
  fields: string[];
  actor_id: string | null;
  actor_email: string | null;
  changed_at: Date;
}

/**
 * Checks a change based on version `base` of a record the caller holds FOR UPDATE (at
 * `current`). Nothing to check without a base or on the current version. On an older one, a
 * field of `changes` (fields whose requested value differs from the current one) that someone
 * changed since the base is a conflict: 409 EDIT_CONFLICT names each with its current value,
 * who changed it last and when, and nothing is applied. Other changes go ahead (both kept).
 * A base newer than the record never existed: 412.
 */
export async function checkBase(
  tx: Db,
  kind: RecordKind,
  record: { id: string; version?: number },
  base: number | undefined,
  changes: FieldChanges,
): Promise<void> {
  const current = record.version ?? 1;
  if (base === undefined || base === current) return;
  if (base > current) {
    fail(412, 'VERSION_UNKNOWN', `Version ${base} never existed; the current one is ${current}`);
  }
  const { rows } = await tx.query<ChangeDbRow>(
    `SELECT r.fields, r.actor_id, u.email AS actor_email, r.changed_at
     FROM record_changes r LEFT JOIN users u ON u.id = r.actor_id
     WHERE r.kind = $1 AND r.record_id = $2 AND r.version > $3 ORDER BY r.version`,
    [kind, record.id, base],
  );
  const lastChange = new Map<string, ChangeDbRow>();
  for (const row of rows)
    for (const column of row.fields) lastChange.set(fieldOfColumn(column), row);
  const conflicts: EditConflict[] = [];
  for (const [field, { from }] of Object.entries(changes)) {
    const change = lastChange.get(field);
    if (!change) continue;
    conflicts.push({
      field,
      current: from,
      changedBy: change.actor_id ? { id: change.actor_id, email: change.actor_email } : null,
      changedAt: isoString(change.changed_at),
    });
  }
  if (conflicts.length > 0) {
    fail(
      409,
      'EDIT_CONFLICT',
      `Changed by someone else since version ${base}: ${conflicts.map((c) => c.field).join(', ')}`,
      { version: current, conflicts },
    );
  }
}
