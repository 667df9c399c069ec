import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListActor } from './list.actor.view';
import {
  announceFailure,
  announceOutcome,
  type ChangeOutcome,
  type ListControls,
} from './list.outcome.view';

/**
 * What row actions and toolbars change the list through, and the row the last change created.
 * Row actions and toolbars write through one mutation: the list reloads after it, a failure is
 * shown. What else the change touches, its request function's cache effect updates.
 */
export function useListControls(actor: ListActor) {
  const { t } = useTranslation();
  const [createdId, setCreatedId] = useState<string>();
  const { mutateAsync } = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onMutate: () => Date.now(),
    // A change whose cache effect has read the list's pages again (their invalidation awaits
    // the read of what is on screen) has nothing left to refresh.
    onSuccess: (_answer, _work, startedAt) =>
      actor.send({ type: 'REFRESH', unlessReadSince: startedAt }),
    // Errors have one place each: a list that cannot load says so in its region (with Try
    // again); an action that failed says so in a toast, like every other action's failure.
    onError: (e) => announceFailure(e, t),
  });
  // Stable while the language is (mutateAsync and the actor are), so the rows the table keeps
  // stay valid: their menus ask for their items through it when they open.
  const controls = useMemo((): ListControls => {
    const announceChange = (outcome: ChangeOutcome) =>
      // The list's mutation says why an Undo failed.
      announceOutcome(outcome, t, { run: (undo) => mutateAsync(undo), failed: () => undefined });
    return {
      refresh: () => actor.send({ type: 'REFRESH' }),
      announce: announceChange,
      run: <T>(work: () => Promise<T>, outcome?: ChangeOutcome | ((answer: T) => ChangeOutcome)) =>
        mutateAsync(work).then(
          (answer) => {
            // The mutation runs `work`, so its answer is what `work` resolved to.
            const said = typeof outcome === 'function' ? outcome(answer as T) : outcome;
            if (said) announceChange(said);
            if (said?.created) setCreatedId(said.created.id);
            return true;
          },
          () => false,
        ),
    };
  }, [actor, mutateAsync, t]);
  return { controls, createdId };
}
