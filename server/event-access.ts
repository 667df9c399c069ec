/**
 * Which stream events a caller may see, and how much of them (server/README.md "Live events").
 * The rule: an event tells nobody more than the REST API would. Each routing key needs the
 * ability that reads its subject (an application event needs `read Application`, a user-asset
 * event `read UserAsset` of that user, ...); keys without a rule are never sent. Who did it and
 * what changed (actor, data) are what the changelog shows, so only callers who may read the
 * changelog (`update Asset`) get them; everyone else gets a notice (key, subject ids, time)
 * and reads the subject again through the API they are allowed to use.
 */
import { subject } from '@casl/ability';
import type { AppAbility } from '../src/api/ability';
import type { StreamEvent } from '../src/api/schemas';
import { ASSET_EVENT_KEYS } from './events';

type Key = keyof typeof ASSET_EVENT_KEYS;
type Rule = (ability: AppAbility, event: StreamEvent) => boolean;

const readAsset: Rule = (ability) => ability.can('read', 'Asset');
const readApplication: Rule = (ability) => ability.can('read', 'Application');
const readMorphs: Rule = (ability) => ability.can('read', 'MorphedAsset');
const readCageMesh: Rule = (ability) => ability.can('read', 'CageMesh');
const readUserAssets: Rule = (ability, event) => {
  const { userId } = event.data;
  return typeof userId === 'string' && ability.can('read', subject('UserAsset', { userId }));
};

/** What each routing key needs; a `Record` over every key, so a new key must be given one. */
const RULES: Record<Key, Rule> = {
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
  cageMeshUpdated: readCageMesh,
  userAssetsAdded: readUserAssets,
  userAssetsRemoved: readUserAssets,
};

const RULE_BY_ROUTING_KEY = new Map<string, Rule>(
  Object.entries(ASSET_EVENT_KEYS).map(([key, routingKey]) => [routingKey, RULES[key as Key]]),
);

/** How a caller sees events: `full`, `notice` (no actor, empty data), or per event not at all. */
export type EventView = 'full' | 'notice';

/** The view of `event` for `ability`, or undefined when it must not be sent. */
export function eventViewFor(ability: AppAbility, event: StreamEvent): EventView | undefined {
  const rule = RULE_BY_ROUTING_KEY.get(event.routingKey);
  if (!rule?.(ability, event)) return undefined;
  return ability.can('update', 'Asset') ? 'full' : 'notice';
}

/** The event as `view` shows it. */
export function eventAsSeen(event: StreamEvent, view: EventView): StreamEvent {
  return view === 'full' ? event : { ...event, actorId: null, actorEmail: null, data: {} };
}
