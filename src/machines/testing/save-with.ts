/**
 * A feature's saver run as the forms run it: through the entity editor, until it is saved.
 */
import { expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  entityEditorMachine,
  selectIsSaved,
  type SaveEntity,
  type SavedEntity,
  type SaveInput,
  type SaveTarget,
} from '../entity-editor.machine';

/** Saves `values` to `target` through the editor with `saver` as its save; waits until saved. */
export async function saveWith(
  saver: SaveEntity,
  target: SaveTarget,
  values: Record<string, unknown> = { name: 'Jacket' },
) {
  const machine = entityEditorMachine.provide({
    actors: { save: fromPromise<SavedEntity, SaveInput>(({ input }) => saver(input)) },
  });
  const actor = createActor(machine).start();
  actor.send({ type: 'SAVE', request: { target, values, files: [] } });
  await vi.waitFor(() => expect(selectIsSaved(actor.getSnapshot())).toBe(true));
  actor.stop();
}
