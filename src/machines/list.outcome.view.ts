import type { TFunction } from 'i18next';
import { describeError } from '../api/error-info';
import { announce } from '../ui/dom/toasts';

/** What a change says once it is stored, and how to take it back where that is cheap. */
export interface ChangeOutcome {
  /** e.g. "Olive Cyber locked". */
  done: string;
  undo?: { run: () => Promise<unknown>; done: string };
  /** The record the change created: the list marks its row where it lands on this page. */
  created?: { id: string };
}

/** What row actions and toolbars get: run a change, then the list reloads; failures are shown. */
export interface ListControls {
  refresh: () => void;
  /**
   * Resolves true once the change is stored (and the list reloads), false when it failed.
   * With `outcome`, a toast says what happened and offers its Undo; `outcome` may be made from
   * the change's answer (a bulk change answers which rows it changed, and Undo takes back those).
   */
  run: <T>(
    work: () => Promise<T>,
    outcome?: ChangeOutcome | ((answer: T) => ChangeOutcome),
  ) => Promise<boolean>;
  /** Says what a change stored elsewhere (a dialog's own save) did, with its Undo. */
  announce: (outcome: ChangeOutcome) => void;
}

/** Says in a toast why a change failed. */
export const announceFailure = (error: unknown, t: TFunction) =>
  announce({ title: describeError(error, t) ?? String(error), tone: 'error' });

/** How an Undo runs, where not on its own (the toast may outlive the screen that asked). */
interface UndoOptions {
  /** Runs the inverse; default: as it is. */
  run?: (work: () => Promise<unknown>) => Promise<unknown>;
  /** Says why the inverse failed; default: announceFailure. */
  failed?: (error: unknown) => void;
}

/** Says what a stored change did; its Undo runs the inverse and says so too, or why it failed. */
export function announceOutcome(
  outcome: ChangeOutcome,
  t: TFunction,
  { run = (work) => work(), failed = (error) => announceFailure(error, t) }: UndoOptions = {},
) {
  const { undo } = outcome;
  announce({
    title: outcome.done,
    tone: 'success',
    ...(undo && {
      action: {
        label: t('list.undo'),
        onAction: () =>
          void run(undo.run).then(() => announce({ title: undo.done, tone: 'info' }), failed),
      },
    }),
  });
}
