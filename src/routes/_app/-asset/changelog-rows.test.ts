import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssetEvent } from '../../../api/schemas';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { changelogRows, detailOf } from './changelog-rows';

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
