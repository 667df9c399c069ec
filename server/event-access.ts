/**
 * Which stream events a caller may see, and how much of them (docs/api.md "Live events").
 * The rule: an event tells nobody more than the REST API would. Each routing key needs the
 * ability that reads its subject (an application event needs `read Application`, a user-asset
 * event `read UserAsset` of that user, a user administration event `manage User`, ...); keys
 * without a rule are never sent. Who did it and
 * what changed (actor, data) are what the changelog shows, so only callers who may read the
 * changelog (`update Asset`) get them; everyone else gets a notice (key, subject ids, time)
 * and reads the subject again through the API they are allowed to use.
 */
import { subject } from '@casl/ability';
import type { Action, AppAbility, Subject, SubjectFields } from '../contract/ability';
import type { StreamEvent } from '../contract/schemas';
import { ASSET_EVENT_KEYS, RECORD_EVENT_KEYS } from './events';

type Key = keyof typeof ASSET_EVENT_KEYS;

/**
 * What an event needs: `action` on `subject`; with `record`, on the record the event names (a
 * rule with conditions is checked against it; an event that names none is not sent).
 */
interface Need {
  action: Action;
  subject: Exclude<Subject, 'all'>;
  record?: (event: StreamEvent) => SubjectFields | undefined;
}

const read = (what: Need['subject']): Need => ({ action: 'read', subject: what });
const readAsset = read('Asset');
const readApplication = read('Application');
const readMorphs = read('MorphedAsset');
const readUserAssets: Need = {
  action: 'read',
  subject: 'UserAsset',
  record: (event) => {
    const { userId } = event.data;
    return typeof userId === 'string' ? { userId } : undefined;
  },
};

/** What each routing key needs; a `Record` over every key, so a new key must be given one. */
const ASSET_NEEDS: Record<Key, Need> = {
  created: readAsset,
  deleted: readAsset,
  locked: readAsset,
  updated: readAsset,
  updatedV2: readAsset,
  modelUpdated: readAsset,
  typeOrGenderChanged: readAsset,
  bulkDeleted: readAsset,
  restored: readAsset,
  purged: readAsset,
  addedToApplication: readApplication,
  applicationUpdated: readApplication,
  applicationDeleted: readApplication,
  exported: readApplication,
  morphQueueEntryCreated: readMorphs,
  morphQueueEntryUpdated: readMorphs,
  cageMeshUpdated: read('CageMesh'),
  userAssetsAdded: readUserAssets,
  userAssetsRemoved: readUserAssets,
};

/**
 * The other kinds: a tag's events need `read Tag`, an application's `read Application`, and so
 * on; user administration (invitations included) needs `manage User` (admins): a user's events
 * reach no other user.
 */
const KIND_NEEDS: Record<keyof typeof RECORD_EVENT_KEYS, Need> = {
  tag: read('Tag'),
  application: readApplication,
  'cage-mesh': read('CageMesh'),
  'morphed-asset': readMorphs,
  user: { action: 'manage', subject: 'User' },
  // "The assets list changed, this far": what the rows' own events would have said.
  'bulk-job': readAsset,
};

const NEED_BY_ROUTING_KEY = new Map<string, Need>([
  ...Object.entries(ASSET_EVENT_KEYS).map(
    ([key, routingKey]) => [routingKey, ASSET_NEEDS[key as Key]] as const,
  ),
  ...Object.entries(RECORD_EVENT_KEYS).flatMap(([kind, keys]) =>
    Object.values(keys).map(
      (routingKey) => [routingKey, KIND_NEEDS[kind as keyof typeof RECORD_EVENT_KEYS]] as const,
    ),
  ),
]);

/** Every routing key there is. */
export const ALL_ROUTING_KEYS: readonly string[] = [...NEED_BY_ROUTING_KEY.keys()];

/**
 * The routing keys whose every event `ability` may see, whatever record it names: the activity
 * log lists only these (a rule with conditions, such as one's own user assets, lets none of
 * its key through: a list cannot check each row against it).
 */
export function routingKeysVisibleTo(ability: AppAbility): string[] {
  return ALL_ROUTING_KEYS.filter((routingKey) => {
    const { action, subject: what, record } = NEED_BY_ROUTING_KEY.get(routingKey)!;
    if (!ability.can(action, what)) return false;
    return !record || ability.rulesFor(action, what).every((rule) => !rule.conditions);
  });
}

function allows(ability: AppAbility, need: Need, event: StreamEvent): boolean {
  if (!need.record) return ability.can(need.action, need.subject);
  const fields = need.record(event);
  return fields !== undefined && ability.can(need.action, subject(need.subject, { ...fields }));
}

/** How a caller sees events: `full`, `notice` (no actor, empty data), or per event not at all. */
export type EventView = 'full' | 'notice';

/**
 * The view of `event` for `ability`, or undefined when it must not be sent. The events of a
 * bulk job's rows are not sent: the job's progress event of their batch stands for them (a job
 * over 100,000 rows would otherwise send each client 100,000 frames).
 */
export function eventViewFor(ability: AppAbility, event: StreamEvent): EventView | undefined {
  if (typeof event.data.bulkJobId === 'string') return undefined;
  const need = NEED_BY_ROUTING_KEY.get(event.routingKey);
  if (!need || !allows(ability, need, event)) return undefined;
  return ability.can('update', 'Asset') ? 'full' : 'notice';
}

/** The event as `view` shows it. */
export function eventAsSeen(event: StreamEvent, view: EventView): StreamEvent {
  return view === 'full' ? event : { ...event, actorId: null, actorEmail: null, data: {} };
}
