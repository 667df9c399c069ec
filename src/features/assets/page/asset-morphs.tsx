import { Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/error-info';
import { onLiveEvent } from '../../../api/live-cache';
import type { Asset, MorphQueueEntry } from '../../../../contract/schemas';
import { queueMorphs } from '../api/mutations';
import { inspect } from '../../../devtools/inspect';
import { EntityPicker } from '../../../machines/autocomplete.view';
import {
  morphJobMachine,
  selectIsFollowing,
  selectIsGenerating,
  selectIsStalled,
  selectJobs,
  selectMorphError,
  type GenerateInput,
} from '../../../machines/morph-job.machine';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { useLiveConnected } from '../../../machines/live.view';
import { Panel } from './panel';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import type { DescribeRow } from '../../../machines/autocomplete.machine';
import { displayLabel } from '../../../ui/dom/list/asset-filters';

/** The morph job machine queueing through the asset's mutation (what the jobs change is read again). */
const withCacheUpdate = morphJobMachine.provide({
  actors: {
    generate: fromPromise<MorphQueueEntry[], GenerateInput>(({ input }) => queueMorphs(input)),
  },
});

/** Bodies often share a name: each option shows its gender, its icon and its id. */
const describeBody: DescribeRow = (row) => {
  const body = row as Partial<Pick<Asset, 'gender' | 'iconUrl'>> & { id: string };
  return {
    detail: [body.gender ? displayLabel(body.gender) : undefined, body.id]
      .filter((part) => part !== undefined)
      .join(' · '),
    iconUrl: body.iconUrl ?? null,
  };
};

/** Picks body assets, queues morph jobs and follows them to completion. */
export function AssetMorphs({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const [bodyAssetIds, setBodies] = useState<string[]>([]);
  const actor = useActorRef(withCacheUpdate, { inspect });
  // Once the jobs are queued the picker empties, ready for the next bodies; a refused
  // Generate keeps them to try again.
  useEffect(() => {
    let wasGenerating = false;
    const subscription = actor.subscribe((snapshot) => {
      if (wasGenerating && !snapshot.matches('generating') && !snapshot.matches('idle')) {
        setBodies([]);
      }
      wasGenerating = snapshot.matches('generating');
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  const jobs = useSelector(actor, selectJobs);
  const error = useSelector(actor, selectMorphError);
  const isGenerating = useSelector(actor, selectIsGenerating);
  const isFollowing = useSelector(actor, selectIsFollowing);
  const isStalled = useSelector(actor, selectIsStalled);
  const message = describeError(error, t);
  // While the live stream is up, the queue's events say when to read; the timer is a fallback.
  const connected = useLiveConnected();
  useEffect(() => actor.send({ type: 'LIVE', connected }), [actor, connected]);
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.assetId === asset.id && /morph/.test(event.routingKey)) {
          actor.send({ type: 'CHANGED' });
        }
      }),
    [actor, asset.id],
  );
  return (
    <Panel title={t('assetEditor.morphs')}>
      <p className="field-description">{t('assetEditor.morphIntro')}</p>
      <EntityPicker
        label={t('assetEditor.bodies')}
        field="bodyAssetIds"
        endpoint={endpoint(ENDPOINTS.assets)}
        extraQueryParams={{ type: 'body' }}
        describe={describeBody}
        multiple
        value={bodyAssetIds}
        onChange={setBodies}
      />
      <ActionButton
        isPending={isGenerating}
        pendingLabel={t('assetEditor.generatingMorphs')}
        onPress={() => {
          if (bodyAssetIds.length === 0 || isFollowing) return;
          actor.send({ type: 'GENERATE', sourceAssetId: asset.id, bodyAssetIds });
        }}
      >
        {t('assetEditor.generateMorphs')}
      </ActionButton>
      {jobs.length > 0 && (
        <ul className="morph-jobs" aria-live="polite">
          {jobs.map((job) => {
            const percent = Math.round(Math.min(100, Math.max(0, job.progress)));
            return (
              <li key={job.id} data-status={job.status}>
                <span>
                  {t('assetEditor.morphJob', { source: asset.name, body: job.bodyAssetName })}
                </span>
                <span className={`badge ${job.status}`}>
                  {t('assetEditor.morphProgress', {
                    status: t(`morphs.statuses.${job.status}`),
                    percent,
                  })}
                </span>
                <progress max={100} value={percent} aria-label={job.id} />
                {job.error && <span className="field-error">{job.error}</span>}
                {job.morphedAssetId && (
                  <Link to="/morphed-assets" search={{ filter: { search: asset.name } }}>
                    {t('assetEditor.morphResult')}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {error && isFollowing && (
        <Alert tone="info">{t('assetEditor.morphRetrying', { message })}</Alert>
      )}
      {error && !isFollowing && (
        <Alert tone="error">
          {isStalled ? t('assetEditor.morphStalled', { message }) : message}
          {isStalled && (
            <ActionButton onPress={() => actor.send({ type: 'RETRY' })}>
              {t('assetEditor.retry')}
            </ActionButton>
          )}
        </Alert>
      )}
    </Panel>
  );
}
