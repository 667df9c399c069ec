/**
 * Lock, tag and delete with Undo as the asset page, the row menu and the bulk bar run them: the
 * call each sends, what its toast says, and what its Undo sends and says.
 */
import type { TFunction } from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession, testAsset } from '../../../api/testing';
import { deleteChange, lockChange, tagChange, type AssetChange } from './asset-changes';

const t = ((key: string, options: object) => `${key} ${JSON.stringify(options)}`) as TFunction;
const ASSET = testAsset();

/** Every call answers as the server would; bulk changes report `changed` as changed. */
function serve(changed: string[]) {
  const bulk = { data: { changed, assets: [] } };
  const server = serveApi({
    'PUT v1/assets/a1/lock': () => jsonResponse(200, { data: { ...ASSET, locked: true } }),
    'PUT v1/assets/a1/unlock': () => jsonResponse(200, { data: ASSET }),
    'POST v1/assets/bulk-lock': () => jsonResponse(200, bulk),
    'POST v1/assets/bulk-unlock': () => jsonResponse(200, bulk),
    'POST v1/assets/bulk-set-tag': () => jsonResponse(200, bulk),
    'POST v1/assets/bulk-remove-tag': () => jsonResponse(200, bulk),
    'DELETE v1/assets/a1': () => jsonResponse(200, { data: null }),
    'POST v1/assets/bulk-delete': () => jsonResponse(200, { data: { deleted: changed } }),
    'POST v1/trash/bulk-restore': () => jsonResponse(200, { data: { items: [] } }),
  });
  return server;
}

/** Runs `change` and its Undo (if it offers one); answers what was sent and said. */
async function runWithUndo(change: AssetChange, server: ReturnType<typeof serve>) {
  const { done, undo } = change.outcome(await change.run());
  await undo?.run();
  return {
    said: [done, undo?.done],
    sent: server.calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`),
  };
}

beforeEach(() => configureSession(signedInSession()));
afterEach(() => {
  configureSession(null);
  queryClient.clear();
});

describe('lock with Undo', () => {
  it('one asset: locks it, says so by name, and Undo unlocks it', async () => {
    const server = serve([]);
    expect(await runWithUndo(lockChange(t, true, ASSET), server)).toEqual({
      said: ['toasts.locked {"name":"Jacket"}', 'toasts.unlocked {"name":"Jacket"}'],
      sent: ['PUT v1/assets/a1/lock {}', 'PUT v1/assets/a1/unlock {}'],
    });
  });

  it('a selection: counts what was selected, and Undo unlocks only the assets it locked', async () => {
    const server = serve(['a2']);
    expect(await runWithUndo(lockChange(t, true, { ids: ['a1', 'a2', 'a3'] }), server)).toEqual({
      said: ['bulk.locked {"count":3}', 'bulk.unlocked {"count":1}'],
      sent: [
        'POST v1/assets/bulk-lock {"ids":["a1","a2","a3"]}',
        'POST v1/assets/bulk-unlock {"ids":["a2"]}',
      ],
    });
  });

  it('a selection already locked: says so, with nothing to undo', async () => {
    const server = serve([]);
    expect(await runWithUndo(lockChange(t, true, { ids: ['a1'] }), server)).toEqual({
      said: ['bulk.locked {"count":1}', undefined],
      sent: ['POST v1/assets/bulk-lock {"ids":["a1"]}'],
    });
  });
});

describe('tag with Undo', () => {
  it('tags the selection, and Undo takes the tag off the assets that did not have it', async () => {
    const server = serve(['a1']);
    expect(await runWithUndo(tagChange(t, true, 't1', ['a1', 'a2']), server)).toEqual({
      said: ['bulk.tagged {"count":2}', 'bulk.untagged {"count":1}'],
      sent: [
        'POST v1/assets/bulk-set-tag {"ids":["a1","a2"],"tagId":"t1"}',
        'POST v1/assets/bulk-remove-tag {"ids":["a1"],"tagId":"t1"}',
      ],
    });
  });
});

describe('delete with Undo', () => {
  it('one asset: deletes it, and Undo restores it from the Trash', async () => {
    const server = serve([]);
    expect(await runWithUndo(deleteChange(t, ASSET), server)).toEqual({
      said: ['toasts.deleted {"name":"Jacket"}', 'toasts.restored {"name":"Jacket"}'],
      sent: [
        'DELETE v1/assets/a1 undefined',
        'POST v1/trash/bulk-restore {"items":[{"kind":"asset","id":"a1"}]}',
      ],
    });
  });

  it('a selection: deletes it together, and Undo restores what was deleted', async () => {
    const server = serve(['a1', 'a2']);
    expect(await runWithUndo(deleteChange(t, { ids: ['a1', 'a2'] }), server)).toEqual({
      said: ['bulk.deleted {"count":2}', 'bulk.restored {"count":2}'],
      sent: [
        'POST v1/assets/bulk-delete {"ids":["a1","a2"]}',
        'POST v1/trash/bulk-restore {"items":[{"kind":"asset","id":"a1"},{"kind":"asset","id":"a2"}]}',
      ],
    });
  });
});
