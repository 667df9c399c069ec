import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { predictTexture, validateAsset } from '../api/requests';
import { describeError } from '../../../api/error-info';
import { listSearchToReturnTo } from '../../../api/list-return';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import type { Asset } from '../../../../contract/schemas';
import { servicesQuery } from '../../../api/services';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { announce } from '../../../ui/dom/toasts';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { generateIcon, IconError, type IconProgress } from './generate-icon';
import { Failure, Panel } from './panel';
import { renderModelIcon } from './render-icon';
import { ValidationReport } from './validation-report';
import { TrashRetention } from '../../../machines/trash-actions.view';
import { announceOutcome } from '../../../machines/list.view';
import { deleteChange, lockChange } from '../list/asset-changes';

/** Lock/unlock, delete, generate the icon, predict a texture, validate the model. */
export function AssetActions({
  asset,
  canEdit,
  canDelete,
}: {
  asset: Asset;
  /** Lock, unlock and the model services (update Asset). */
  canEdit: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  // Locks or unlocks; says so, and Undo does the opposite (which says so in turn, with its Undo).
  const lock = useMutation({
    mutationFn: (locked: boolean) => lockChange(t, locked, asset).run(),
    onSuccess: (changed, locked) =>
      announce({
        title: lockChange(t, locked, asset).outcome(changed).done,
        tone: 'success',
        action: { label: t('list.undo'), onAction: () => lock.mutate(!locked) },
      }),
  });
  // The list it returns to, as the user left it, says what happened (the toast outlives this
  // page).
  const remove = useMutation({
    mutationFn: () => deleteChange(t, asset).run(),
    onSuccess: (deleted) => {
      announceOutcome(deleteChange(t, asset).outcome(deleted), t);
      return navigate({
        to: '/assets',
        search: listSearchToReturnTo(endpoint(ENDPOINTS.assets)),
      });
    },
  });
  // Which model services the server has: the icon is rendered here without its renderer.
  const services = useQuery(servicesQuery());
  const [iconProgress, setIconProgress] = useState<IconProgress | null>(null);
  const icon = useMutation({
    mutationFn: () => generateIcon(asset, setIconProgress, { render: renderModelIcon }),
    onSettled: () => setIconProgress(null),
  });
  const iconStatus = iconProgressText(iconProgress, t);
  const noTexturePredictor = services.data?.texturePredictor === false;
  const textureReason = useId();
  const texture = useMutation({
    mutationFn: () => predictTexture({ modelUrl: asset.modelUrl ?? '' }),
  });
  const validate = useMutation({
    mutationFn: () => validateAsset({ modelUrl: asset.modelUrl ?? '' }),
  });
  const hasModel = asset.modelUrl !== null;

  return (
    <Panel title={t('assetEditor.actions')}>
      <div className="action-row">
        {canEdit && (
          <ActionButton
            isPending={lock.isPending}
            pendingLabel={asset.locked ? t('assetEditor.unlocking') : t('assetEditor.locking')}
            onPress={() => lock.mutate(!asset.locked)}
          >
            {asset.locked ? t('assetEditor.unlock') : t('assetEditor.lock')}
          </ActionButton>
        )}
        {canDelete && !asset.locked && (
          <ActionButton variant="danger" onPress={() => setConfirming(true)}>
            {t('assetEditor.delete')}
          </ActionButton>
        )}
      </div>
      {canEdit && (
        <div className="action-row">
          {[
            {
              mutation: icon,
              shown: !asset.locked && hasModel,
              label: 'generateIcon',
              pendingLabel: iconStatus,
            },
            {
              mutation: texture,
              shown: hasModel,
              label: 'predictTexture',
              pendingLabel: t('assetEditor.predictingTexture'),
              unavailable: noTexturePredictor ? textureReason : undefined,
            },
            {
              mutation: validate,
              shown: hasModel,
              label: 'validate',
              pendingLabel: t('assetEditor.validating'),
            },
          ].map(
            ({ mutation, shown, label, pendingLabel, unavailable }) =>
              shown && (
                <ActionButton
                  key={label}
                  isPending={mutation.isPending}
                  pendingLabel={pendingLabel}
                  isDisabled={unavailable !== undefined}
                  describedBy={unavailable}
                  onPress={() => mutation.mutate()}
                >
                  {t(`assetEditor.${label}`)}
                </ActionButton>
              ),
          )}
        </div>
      )}
      {canEdit && hasModel && noTexturePredictor && (
        <p id={textureReason} className="field-description">
          {t('assetEditor.noTexturePredictor')}
        </p>
      )}
      {canEdit && !hasModel && <p className="field-description">{t('assetEditor.needsModel')}</p>}
      {/* Each step of the icon said as it starts (the button shows it too). */}
      <p role="status" className="visually-hidden">
        {icon.isPending ? iconStatus : ''}
      </p>
      {icon.isSuccess && <Alert tone="info">{t('assetEditor.iconGenerated')}</Alert>}
      {icon.error && (
        <Alert tone="error">
          {t('assetEditor.iconFailed', { message: iconFailureText(icon.error, t) })}
        </Alert>
      )}
      {texture.data && (
        <Alert tone="info">{t('assetEditor.texturePredicted', { url: texture.data.url })}</Alert>
      )}
      {[lock, remove, texture, validate].map((action, index) => (
        <Failure key={index} error={action.error} />
      ))}
      {validate.data && <ValidationReport report={validate.data} />}
      <FormDialog
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        title={t('assetEditor.deleteTitle', { name: asset.name })}
        submitLabel={t('assetEditor.delete')}
        cancelLabel={t('list.cancel')}
        tone="danger"
        onSubmit={() => remove.mutate()}
      >
        <p>
          {t('assetEditor.deleteBody')} <TrashRetention />
        </p>
      </FormDialog>
    </Panel>
  );
}

/** What the icon is doing now, for the button and the status line. */
function iconProgressText(progress: IconProgress | null, t: TFunction): string {
  switch (progress?.stage) {
    case 'rendering':
      return t('assetEditor.renderingIcon');
    case 'uploading':
      return t('assetEditor.uploadingIcon', { percent: Math.round(progress.fraction * 100) });
    case 'saving':
      return t('assetEditor.savingIcon');
    default:
      return t('assetEditor.generatingIcon');
  }
}

/** Why the icon could not be made, in words. */
function iconFailureText(error: unknown, t: TFunction): string {
  if (error instanceof IconError) {
    return error.step === 'render'
      ? t('assetEditor.iconRenderFailed', { reason: error.reason })
      : t('assetEditor.iconCheckFailed', { reason: error.reason });
  }
  return describeError(error, t) ?? String(error);
}
