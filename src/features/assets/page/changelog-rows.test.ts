import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssetEvent } from '../../../../contract/schemas';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { eventTitle } from './asset-changelog';
import { changelogRows, detailOf, relationTitle, type Relation } from './changelog-rows';

const NAMES: Record<string, string> = { t1: 'Vintage', t2: 'Fantasy', t3: 'Sport' };
const nameOf = (id: string) => NAMES[id] ?? id;

let seq = 0;
/** An event of one save (same time and actor for the events of one save). */
function event(routingKey: string, data: Record<string, unknown>, at: string): AssetEvent {
  seq += 1;
  return {
    id: `e${seq}`,
    assetId: 'a1',
    routingKey,
    actorId: 'u1',
    actorEmail: 'admin@avatar.studio',
    data,
    createdAt: at,
    applicationName: null,
    userEmail: null,
  };
}

const asset = (tagIds: string[]) => ({
  id: 'a1',
  name: 'Jacket',
  tags: tagIds.map((id) => ({ id, name: NAMES[id] })),
});

/** A save of the tags: updated v1 (with `changes`) and v2 (the asset after), newest first. */
const tagSave = (at: string, after: string[], changes: unknown) => [
  event('asset.updated.v2', { asset: asset(after) }, at),
  event('asset.updated.v1', { changes: { tagIds: changes } }, at),
];

const details = (events: AssetEvent[]) =>
  changelogRows(events).map((row) => detailOf(row, nameOf, i18next.t.bind(i18next)));

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

describe('changelog rows', () => {
  it('says which tags a save added and removed, not the tags it left', () => {
    const events = [
      ...tagSave('2030-01-01T10:02:00Z', ['t2'], { from: ['t1'], to: ['t2'] }),
      ...tagSave('2030-01-01T10:01:00Z', ['t1'], { from: [], to: ['t1'] }),
      event('asset.created.v1', { asset: asset([]) }, '2030-01-01T10:00:00Z'),
    ];
    expect(details(events)).toEqual([
      'Tags: added Fantasy, removed Vintage',
      'Tags: added Vintage',
      null,
    ]);
  });

  it('derives the change from the previous event when the save holds only its result', () => {
    const events = [
      ...tagSave('2030-01-01T10:02:00Z', ['t3'], {}),
      event('asset.locked.v1', { locked: true }, '2030-01-01T10:01:30Z'),
      ...tagSave('2030-01-01T10:01:00Z', ['t1', 't3'], {}),
      event('asset.created.v1', { asset: asset(['t1']) }, '2030-01-01T10:00:00Z'),
    ];
    expect(details(events)).toEqual(['Tags: removed Vintage', null, 'Tags: added Sport', null]);
  });

  it('names the other fields of a save beside its tags, and shows the save once', () => {
    const at = '2030-01-01T10:00:00Z';
    const events = [
      event('asset.updated.v2', { asset: asset(['t1']) }, at),
      event('asset.model-updated.v1', { from: null, to: '/files/x' }, at),
      event(
        'asset.updated.v1',
        { changes: { name: { from: 'A', to: 'B' }, tagIds: { from: [], to: ['t1'] } } },
        at,
      ),
    ];
    const rows = changelogRows(events);
    expect(rows.map((row) => row.event.routingKey)).toEqual(['asset.updated.v1']);
    expect(details(events)).toEqual(['Name; Tags: added Vintage']);
  });
});

describe('relation titles', () => {
  const title = (event: Relation) => relationTitle(event, i18next.t.bind(i18next));
  const named = { applicationName: 'Avatar Hub', userEmail: 'demo@avatar.studio' };

  it('names the application and the position, or the user, on the other side', () => {
    const added = { routingKey: 'asset.added-to-application.v1', data: { position: 3 } };
    expect(title({ ...added, ...named })).toBe('Added to Avatar Hub at position 3');
    expect(title({ ...added, data: {}, ...named })).toBe('Added to Avatar Hub');
    const moved = { routingKey: 'asset.application-updated.v1', ...named };
    expect(title({ ...moved, data: { position: { from: 1, to: 4 } } })).toBe(
      'Moved to position 4 in Avatar Hub',
    );
    expect(title({ ...moved, data: { synced: true } })).toBe(
      'Synced with its parent in Avatar Hub',
    );
    expect(title({ routingKey: 'asset.application-deleted.v1', data: {}, ...named })).toBe(
      'Removed from Avatar Hub',
    );
    expect(title({ routingKey: 'asset.user-assets-added.v1', data: {}, ...named })).toBe(
      'Assigned to demo@avatar.studio',
    );
    expect(title({ routingKey: 'asset.user-assets-removed.v1', data: {}, ...named })).toBe(
      'Unassigned from demo@avatar.studio',
    );
  });

  it('says the other side is gone, and leaves events without names to their plain title', () => {
    const gone = { applicationName: null, userEmail: null };
    expect(title({ routingKey: 'asset.application-deleted.v1', data: {}, ...gone })).toBe(
      'Removed from a deleted application',
    );
    expect(title({ routingKey: 'asset.user-assets-added.v1', data: {}, ...gone })).toBe(
      'Assigned to a removed user',
    );
    expect(title({ routingKey: 'asset.user-assets-added.v1', data: {} })).toBeNull();
    expect(title({ routingKey: 'asset.locked.v1', data: { locked: true }, ...named })).toBeNull();
  });
});

describe('event titles', () => {
  const title = (routingKey: string) =>
    eventTitle({ routingKey, data: {} }, i18next.t.bind(i18next));

  it('say what happened in words an admin uses, never a version or a wire name', () => {
    expect(title('asset.updated.v2')).toBe('Changed');
    expect(title('asset.updated.v1')).toBe('Changed');
    const keys = Object.keys(i18next.t('assetEditor.events', { returnObjects: true }));
    for (const key of keys) {
      const text = title(`asset.${key.replace(/-(v\d+)$/, '.$1')}`);
      expect(text, key).not.toMatch(/[()]|\bv\d|full asset|placement|in bulk|\bjob\b/i);
    }
  });
});
