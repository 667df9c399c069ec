/**
 * The sections of an asset's page beside its form: actions (lock, delete, icon, texture,
 * validation), tags, applications, users, morphed assets and the back-office changelog.
 * Each calls src/api directly and shows its own failure; `onChange` hands a changed asset
 * back to the page.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addAssetToApplication,
  assetApplications,
  assetChangelog,
  deleteAsset,
  generateIconFromModel,
  lockAsset,
  predictTexture,
  removeAssetFromApplication,
  syncWithParent,
  unlockAsset,
  updateAssetApplication,
  validateAsset,
} from '../../api/assets';
import type { Asset, AssetApplication, AssetEvent, ValidationReport } from '../../api/schemas';
import { setTag, removeTag } from '../../api/tags';
import { addUserAssets, removeUserAssets } from '../../api/user-assets';
import { inspect } from '../../inspect';
import {
  morphJobMachine,
  selectIsFollowing,
  selectIsGenerating,
  selectIsStalled,
  selectJobs,
  selectMorphError,
} from '../../machines/morph-job.machine';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { FormDialog } from '../../ui/dom/list/row-menu';
import type { FilterValue } from '../../ui/dom/list/filter-bar';
import { TextField } from '../../ui/dom/text-field';
import { AutocompleteFilter } from './autocomplete-filter';
import { dateCell } from './cells';
import { describeError } from './describe-error';
import { useAsyncAction } from './use-async-action';

/** A titled section of the asset page. */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

// The viewer (three.js, R3F) loads with this panel only.
const AvatarViewer = lazy(() => import('../../viewer'));

/** The asset's model in the avatar viewer: turn it by dragging or with the arrow keys. */
export function AssetPreview({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  return (
    <Panel title={t('assetEditor.preview')}>
      {asset.modelUrl ? (
        <div className="asset-preview">
          <Suspense fallback={<p role="status">{t('assetEditor.loading')}</p>}>
            <AvatarViewer
              key={asset.modelUrl}
              modelSrc={asset.modelUrl}
              fit
              label={t('assetEditor.previewLabel', { name: asset.name })}
            />
          </Suspense>
        </div>
      ) : (
        <p className="field-description">{t('assetEditor.noModel')}</p>
      )}
    </Panel>
  );
}

const ids = (value: FilterValue): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : [];

/** The glTF validator's verdict: valid or not, the counts, and the first problems. */
function ReportView({ report }: { report: ValidationReport }) {
  const { t } = useTranslation();
  const first = (title: string, items: ValidationReport['errors']) =>
    items.length > 0 && (
      <>
        <h3>{title}</h3>
        <ul className="report-list">
          {items.slice(0, 5).map((item, index) => (
            <li key={`${item.code}-${index}`}>
              <code>{item.code}</code> {item.message}
              {item.pointer && <code className="muted"> {item.pointer}</code>}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <div className="validation-report" data-valid={report.valid}>
      <Alert tone={report.valid ? 'success' : 'error'}>
        {report.valid ? t('assetEditor.valid') : t('assetEditor.invalid')}{' '}
        {t('assetEditor.reportCounts', {
          errors: report.errors.length,
          warnings: report.warnings.length,
          infos: report.infos,
          hints: report.hints,
        })}
      </Alert>
      {first(t('assetEditor.reportErrors'), report.errors)}
      {first(t('assetEditor.reportWarnings'), report.warnings)}
    </div>
  );
}

/** Lock/unlock, delete, generate the icon, predict a texture, validate the model. */
export function AssetActions({ asset, onChange }: { asset: Asset; onChange: (a: Asset) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [report, setReport] = useState<ValidationReport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const lock = useAsyncAction(async () =>
    onChange(await (asset.locked ? unlockAsset(asset.id) : lockAsset(asset.id))),
  );
  const remove = useAsyncAction(async () => {
    await deleteAsset(asset.id);
    await navigate({ to: '/assets' });
  });
  const icon = useAsyncAction(async () => {
    onChange(await generateIconFromModel(asset.id));
    setNotice(t('assetEditor.iconGenerated'));
  });
  const texture = useAsyncAction(async () => {
    const result = await predictTexture({ modelUrl: asset.modelUrl ?? '' });
    setNotice(t('assetEditor.texturePredicted', { url: result.url }));
  });
  const validate = useAsyncAction(async () => {
    setReport(await validateAsset({ modelUrl: asset.modelUrl ?? '' }));
  });
  const failures = [lock, remove, icon, texture, validate].flatMap((action) =>
    action.error ? [action.error] : [],
  );
  const hasModel = asset.modelUrl !== null;

  return (
    <Panel title={t('assetEditor.actions')}>
      <div className="action-row">
        <ActionButton
          isPending={lock.isPending}
          pendingLabel={asset.locked ? t('assetEditor.unlocking') : t('assetEditor.locking')}
          onPress={() => void lock.run()}
        >
          {asset.locked ? t('assetEditor.unlock') : t('assetEditor.lock')}
        </ActionButton>
        {!asset.locked && (
          <ActionButton variant="link" onPress={() => setConfirming(true)}>
            {t('assetEditor.delete')}
          </ActionButton>
        )}
      </div>
      <div className="action-row">
        {!asset.locked && (
          <ActionButton
            isPending={icon.isPending}
            pendingLabel={t('assetEditor.generatingIcon')}
            onPress={() => {
              setNotice(null);
              void icon.run();
            }}
          >
            {t('assetEditor.generateIcon')}
          </ActionButton>
        )}
        {hasModel && (
          <>
            <ActionButton
              isPending={texture.isPending}
              pendingLabel={t('assetEditor.predictingTexture')}
              onPress={() => {
                setNotice(null);
                void texture.run();
              }}
            >
              {t('assetEditor.predictTexture')}
            </ActionButton>
            <ActionButton
              isPending={validate.isPending}
              pendingLabel={t('assetEditor.validating')}
              onPress={() => {
                setReport(null);
                void validate.run();
              }}
            >
              {t('assetEditor.validate')}
            </ActionButton>
          </>
        )}
      </div>
      {!hasModel && <p className="field-description">{t('assetEditor.needsModel')}</p>}
      {notice && <Alert tone="info">{notice}</Alert>}
      {failures.map((message) => (
        <Alert key={message} tone="error">
          {message}
        </Alert>
      ))}
      {report && <ReportView report={report} />}
      <FormDialog
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        title={t('assetEditor.deleteTitle', { name: asset.name })}
        submitLabel={t('assetEditor.delete')}
        cancelLabel={t('list.cancel')}
        tone="danger"
        onSubmit={() => void remove.run()}
      >
        <p>{t('assetEditor.deleteBody')}</p>
      </FormDialog>
    </Panel>
  );
}

/** The asset's tags: choosing one sets it, removing one takes it off, at once. */
export function AssetTags({ asset, onChange }: { asset: Asset; onChange: (a: Asset) => void }) {
  const { t } = useTranslation();
  const current = asset.tags.map((tag) => tag.id);
  const change = useAsyncAction(async (next: string[]) => {
    let latest = asset;
    for (const id of next.filter((tagId) => !current.includes(tagId))) {
      latest = await setTag(asset.id, id);
    }
    for (const id of current.filter((tagId) => !next.includes(tagId))) {
      latest = await removeTag(asset.id, id);
    }
    onChange(latest);
  });
  return (
    <Panel title={t('assetEditor.tags')}>
      <AutocompleteFilter
        filter={{
          field: 'tags',
          type: 'autocomplete',
          label: t('assetEditor.tagAdd'),
          endpoint: 'v1/tags',
          findByIdEndpoint: 'v1/tags',
          multiple: true,
        }}
        value={current}
        onChange={(value) => void change.run(ids(value))}
      />
      {current.length === 0 && <p className="field-description">{t('assetEditor.noTags')}</p>}
      {change.error && <Alert tone="error">{change.error}</Alert>}
    </Panel>
  );
}

/** One application row: its position (move), sync with parent, remove. */
function ApplicationRow({ row, onChanged }: { row: AssetApplication; onChanged: () => void }) {
  const { t } = useTranslation();
  const [position, setPosition] = useState(String(row.position));
  const action = useAsyncAction(async (work: () => Promise<unknown>) => {
    await work();
    onChanged();
  });
  const target = Number.parseInt(position, 10);
  return (
    <li className="application-row">
      <div>
        <strong>{row.applicationName}</strong>
        <span className="field-description">
          {row.syncedAt
            ? t('assetEditor.synced', { date: new Date(row.syncedAt).toLocaleString() })
            : t('assetEditor.neverSynced')}
        </span>
      </div>
      <label className="inline-field">
        {t('assetEditor.position')}
        <input
          type="number"
          min={1}
          value={position}
          onChange={(event) => setPosition(event.target.value)}
          aria-label={t('assetEditor.position')}
        />
      </label>
      <ActionButton
        isPending={action.isPending}
        onPress={() => {
          if (Number.isInteger(target) && target >= 1) {
            void action.run(() =>
              updateAssetApplication(row.assetId, {
                applicationId: row.applicationId,
                position: target,
              }),
            );
          }
        }}
      >
        {t('assetEditor.move')}
      </ActionButton>
      <ActionButton onPress={() => void action.run(() => syncWithParent(row.id))}>
        {t('assetEditor.syncWithParent')}
      </ActionButton>
      <ActionButton
        variant="link"
        onPress={() =>
          void action.run(() =>
            removeAssetFromApplication(row.assetId, { applicationId: row.applicationId }),
          )
        }
      >
        {t('assetEditor.remove')}
      </ActionButton>
      {action.error && <Alert tone="error">{action.error}</Alert>}
    </li>
  );
}

/** The applications holding the asset: add, move, sync with parent, remove. */
/** Sections whose actions add changelog events tell the page through `onEvent`. */
interface EventSourceProps {
  asset: Asset;
  onEvent: () => void;
}

export function AssetApplications({ asset, onEvent }: EventSourceProps) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<AssetApplication[] | null>(null);
  const [picked, setPicked] = useState<FilterValue>(undefined);
  const read = useCallback(async () => {
    setRows((await assetApplications(asset.id, { limit: 100 })).data);
  }, [asset.id]);
  const load = useAsyncAction(read);
  const { run: reload } = load;
  useEffect(() => {
    void reload();
  }, [reload]);
  const add = useAsyncAction(async (applicationId: string) => {
    await addAssetToApplication(asset.id, { applicationId });
    setPicked(undefined);
    onEvent();
    await reload();
  });
  const applicationId = ids(picked)[0];
  return (
    <Panel title={t('assetEditor.applications')}>
      {rows?.length === 0 && <p className="field-description">{t('assetEditor.noApplications')}</p>}
      {rows && rows.length > 0 && (
        <ul className="application-list">
          {rows.map((row) => (
            <ApplicationRow
              key={`${row.id}-${row.position}`}
              row={row}
              onChanged={() => {
                onEvent();
                void reload();
              }}
            />
          ))}
        </ul>
      )}
      <div className="toolbar">
        <AutocompleteFilter
          filter={{
            field: 'applicationId',
            type: 'autocomplete',
            label: t('assetEditor.application'),
            endpoint: 'v1/applications',
            findByIdEndpoint: 'v1/applications',
          }}
          value={picked}
          onChange={setPicked}
        />
        <ActionButton
          isPending={add.isPending}
          pendingLabel={t('assetEditor.adding')}
          onPress={() => applicationId && void add.run(applicationId)}
        >
          {t('assetEditor.addToApplication')}
        </ActionButton>
      </div>
      {(load.error ?? add.error) && <Alert tone="error">{load.error ?? add.error}</Alert>}
    </Panel>
  );
}

/** Assigns the asset to a user (by id) or takes it away (private user-assets calls). */
export function AssetUsers({ asset, onEvent }: EventSourceProps) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const target = userId.trim();
  const assign = useAsyncAction(async (add: boolean) => {
    setDone(null);
    await (add ? addUserAssets(target, [asset.id]) : removeUserAssets(target, [asset.id]));
    setDone(t(add ? 'assetEditor.assigned' : 'assetEditor.unassigned', { userId: target }));
    onEvent();
  });
  return (
    <Panel title={t('assetEditor.users')}>
      <TextField
        name="userId"
        label={t('assetEditor.userId')}
        description={t('assetEditor.userIdHint')}
        value={userId}
        onChange={setUserId}
        onBlur={() => undefined}
      />
      <div className="action-row">
        <ActionButton isPending={assign.isPending} onPress={() => target && void assign.run(true)}>
          {t('assetEditor.assign')}
        </ActionButton>
        <ActionButton
          variant="link"
          isPending={assign.isPending}
          onPress={() => target && void assign.run(false)}
        >
          {t('assetEditor.unassign')}
        </ActionButton>
      </div>
      {done && (
        <Alert tone="success">
          {done}{' '}
          <Link to="/users/$userId/assets" params={{ userId: target }}>
            {t('assetEditor.userAssetsLink', { userId: target })}
          </Link>
        </Alert>
      )}
      {assign.error && <Alert tone="error">{assign.error}</Alert>}
    </Panel>
  );
}

/** Picks body assets, queues morph jobs and follows them to completion. */
export function AssetMorphs({ asset, onEvent }: EventSourceProps) {
  const { t } = useTranslation();
  const [bodies, setBodies] = useState<FilterValue>([]);
  const actor = useActorRef(morphJobMachine, { inspect });
  const jobs = useSelector(actor, selectJobs);
  const error = useSelector(actor, selectMorphError);
  const isGenerating = useSelector(actor, selectIsGenerating);
  const isFollowing = useSelector(actor, selectIsFollowing);
  const isStalled = useSelector(actor, selectIsStalled);
  const bodyAssetIds = ids(bodies);
  const message = describeError(error, t);
  // Queued jobs are recorded on the asset: new jobs mean new changelog events.
  useEffect(() => {
    if (jobs.length > 0) onEvent();
  }, [jobs.length, onEvent]);
  return (
    <Panel title={t('assetEditor.morphs')}>
      <p className="field-description">{t('assetEditor.morphIntro')}</p>
      <AutocompleteFilter
        filter={{
          field: 'bodyAssetIds',
          type: 'autocomplete',
          label: t('assetEditor.bodies'),
          endpoint: 'v1/assets',
          findByIdEndpoint: 'v1/assets',
          extraQueryParams: { type: 'body' },
          multiple: true,
        }}
        value={bodies}
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
                <span>{t('assetEditor.morphJob', { body: job.bodyAssetId })}</span>
                <span className={`badge ${job.status}`}>
                  {t('assetEditor.morphProgress', {
                    status: t(`morphs.statuses.${job.status}`),
                    percent,
                  })}
                </span>
                <progress max={100} value={percent} aria-label={job.id} />
                {job.error && <span className="field-error">{job.error}</span>}
                {job.morphedAssetId && (
                  <Link
                    to="/morphed-assets"
                    search={{ filter: JSON.stringify({ search: asset.name }) } as never}
                  >
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

/** The translated name of a routing key (`asset.created.v1` -> "Created"), or the key itself. */
function eventTitle(event: AssetEvent, t: ReturnType<typeof useTranslation>['t']): string {
  if (event.routingKey === 'asset.locked.v1' && typeof event.data.locked === 'boolean') {
    return event.data.locked ? t('assetEditor.lockedEvent') : t('assetEditor.unlockedEvent');
  }
  const key = event.routingKey.replace(/^asset\./, '').replace(/\.(v\d+)$/, '-$1');
  return t(`assetEditor.events.${key}`, { defaultValue: event.routingKey });
}

const CHANGELOG_PAGE = 10;

/** The back-office changelog, newest first, "Load more" for older pages. */
export function AssetChangelog({ asset, revision }: { asset: Asset; revision: number }) {
  const { t } = useTranslation();
  const [events, setEvents] = useState<AssetEvent[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const loadPage = useCallback(
    async (next: number) => {
      const answer = await assetChangelog(asset.id, { page: next, limit: CHANGELOG_PAGE });
      setEvents((previous) => (next === 1 ? answer.data : [...previous, ...answer.data]));
      setPage(next);
      setHasMore(answer.pagination.hasNextPage);
    },
    [asset.id],
  );
  const load = useAsyncAction(loadPage);
  const { run } = load;
  // Every change of the asset (its updatedAt) or in a section (revision) adds events: read the
  // newest page again.
  useEffect(() => {
    void run(1);
  }, [run, asset.updatedAt, asset.locked, asset.tags.length, revision]);
  return (
    <Panel title={t('assetEditor.changelog')}>
      {events.length === 0 && !load.isPending && (
        <p className="field-description">{t('assetEditor.noEvents')}</p>
      )}
      <ol className="changelog">
        {events.map((event) => (
          <li key={event.id}>
            <span className="changelog-title">{eventTitle(event, t)}</span>{' '}
            <code>{event.routingKey}</code>
            <span className="field-description">
              {t('assetEditor.by', { actor: event.actorEmail ?? t('assetEditor.system') })} ·{' '}
              {dateCell(event.createdAt)}
            </span>
          </li>
        ))}
      </ol>
      {hasMore && (
        <ActionButton
          isPending={load.isPending}
          pendingLabel={t('assetEditor.loadingMore')}
          onPress={() => void run(page + 1)}
        >
          {t('assetEditor.loadMore')}
        </ActionButton>
      )}
      {load.error && <Alert tone="error">{load.error}</Alert>}
    </Panel>
  );
}
