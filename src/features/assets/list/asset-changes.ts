/**
 * Lock, unlock, tag, untag and delete, with what each says and its Undo, as the asset's page,
 * the list's row menu and its bulk bar offer them: one asset (named in the toast) or a selection
 * (counted).
 */
import type { TFunction } from 'i18next';
import {
  setAssetLocked,
  setAssetsLocked,
  setTagOnAssets,
  trashAsset,
  trashAssets,
} from '../api/mutations';
import { restoreFromTrash } from '../../../api/trash';
import type { ChangeOutcome, ListControls } from '../../../machines/list.view';

/** One asset, or the ids of a selection. */
export type AssetTarget = { id: string; name: string } | { ids: string[] };

/** A change of assets: `run` answers the ids it changed, `outcome` says so and offers Undo. */
export interface AssetChange {
  run: () => Promise<string[]>;
  outcome: (changed: string[]) => ChangeOutcome;
}

/** Runs `change` from a list: the list reloads, and a toast says what it did, with its Undo. */
export const runChange = (list: ListControls, change: AssetChange) =>
  list.run(change.run, change.outcome);

/** One way of a two-way change (`on`: lock or unlock, tag or untag): its call and its words. */
type Step<T> = (on: boolean, target: T) => { run: () => Promise<string[]>; done: string };

/**
 * The change `step(on, target)`; its Undo is the other way, on the assets it changed (`back`
 * narrows the target to them). When none changed, there is nothing to take back.
 */
function twoWay<T>(step: Step<T>, on: boolean, target: T, back: (changed: string[]) => T) {
  const { run, done } = step(on, target);
  return {
    run,
    outcome: (changed: string[]): ChangeOutcome =>
      changed.length === 0 ? { done } : { done, undo: step(!on, back(changed)) },
  };
}

const lockStep =
  (t: TFunction): Step<AssetTarget> =>
  (locked, target) =>
    'ids' in target
      ? {
          run: async () => (await setAssetsLocked(target.ids, locked)).changed,
          done: t(locked ? 'bulk.locked' : 'bulk.unlocked', { count: target.ids.length }),
        }
      : {
          run: async () => [(await setAssetLocked(target.id, locked)).id],
          done: t(locked ? 'toasts.locked' : 'toasts.unlocked', { name: target.name }),
        };

/** Locks or unlocks `target`; Undo does the opposite to the assets it changed. */
export const lockChange = (t: TFunction, locked: boolean, target: AssetTarget): AssetChange =>
  twoWay(lockStep(t), locked, target, (changed) => ('ids' in target ? { ids: changed } : target));

/** Puts tag `tagId` on the assets `ids` (or takes it off); Undo does the opposite where it changed. */
export function tagChange(t: TFunction, adds: boolean, tagId: string, ids: string[]): AssetChange {
  const step: Step<string[]> = (on, assets) => ({
    run: async () => (await setTagOnAssets(assets, tagId, on)).changed,
    done: t(on ? 'bulk.tagged' : 'bulk.untagged', { count: assets.length }),
  });
  return twoWay(step, adds, ids, (changed) => changed);
}

/** Deletes `target` (to the Trash); Undo restores what was deleted. */
export function deleteChange(t: TFunction, target: AssetTarget): AssetChange {
  const one = !('ids' in target);
  return {
    run: one
      ? async () => {
          await trashAsset(target.id);
          return [target.id];
        }
      : () => trashAssets(target.ids),
    outcome: (deleted) => ({
      done: one
        ? t('toasts.deleted', { name: target.name })
        : t('bulk.deleted', { count: target.ids.length }),
      undo: {
        run: () => restoreFromTrash(deleted.map((id) => ({ kind: 'asset', id }))),
        done: one
          ? t('toasts.restored', { name: target.name })
          : t('bulk.restored', { count: deleted.length }),
      },
    }),
  };
}
