import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { MorphQueueEntry } from '../../../../contract/schemas';
import { announceFailure, type ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import type { ActionMenuItem } from '../../../ui/dom/list/row-menu';
import { announce } from '../../../ui/dom/toasts';
import { queueMorphs } from '../../assets';

/**
 * A failed job generated again with the same inputs: the same source on the same body, as a
 * new job at the top of the queue (the failed one stays, with its error, as what happened).
 */
const retryMorph = (entry: MorphQueueEntry) =>
  queueMorphs({ sourceAssetId: entry.sourceAssetId, bodyAssetIds: [entry.bodyAssetId] });

const retried = (t: TFunction, entry: MorphQueueEntry) =>
  t('morphs.retried', { source: entry.sourceAssetName, body: entry.bodyAssetName });

/** A queue row's menu: Retry for a failed job. */
export const morphRowActions = (
  t: TFunction,
  entry: MorphQueueEntry,
  list: ListControls,
): ActionMenuItem<MorphQueueEntry>[] =>
  entry.status === 'failed'
    ? [
        {
          title: t('morphs.retry'),
          onAction: () => void list.run(() => retryMorph(entry), { done: retried(t, entry) }),
        },
      ]
    : [];

/** Retry beside a failed job's error. */
export function RetryMorphButton({ entry }: { entry: MorphQueueEntry }) {
  const { t } = useTranslation();
  const retry = useMutation({
    mutationFn: () => retryMorph(entry),
    onSuccess: () => announce({ title: retried(t, entry), tone: 'success' }),
    onError: (error) => announceFailure(error, t),
  });
  return (
    <ActionButton isPending={retry.isPending} onPress={() => retry.mutate()}>
      {t('morphs.retry')}
    </ActionButton>
  );
}
