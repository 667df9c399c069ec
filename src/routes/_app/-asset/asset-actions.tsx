import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  assetDeleted,
  changeAsset,
  deleteAsset,
  generateIconFromModel,
  lockAsset,
  predictTexture,
  unlockAsset,
  validateAsset,
} from '../../../api/assets';
import type { Asset } from '../../../api/schemas';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { announce } from '../../../ui/dom/toasts';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { Failure, Panel } from './panel';
import { ValidationReport } from './validation-report';

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
  // Locks or unlocks; says so, and Undo does the opposite (which says so in turn).
  const lock = useMutation({
    mutationFn: (locked: boolean) =>
      changeAsset(locked ? lockAsset(asset.id) : unlockAsset(asset.id)),
    onSuccess: (_, locked) =>
      announce({
        title: t(locked ? 'toasts.locked' : 'toasts.unlocked', { name: asset.name }),
        tone: 'success',
        action: { label: t('list.undo'), onAction: () => lock.mutate(!locked) },
      }),
  });
  // The list it returns to says what happened (the toast outlives this page).
  const remove = useMutation({
    mutationFn: async () => {
      await deleteAsset(asset.id);
      await assetDeleted(asset.id);
    },
    onSuccess: () => {
      announce({ title: t('toasts.deleted', { name: asset.name }), tone: 'success' });
      return navigate({ to: '/assets' });
    },
  });
  const icon = useMutation({ mutationFn: () => changeAsset(generateIconFromModel(asset.id)) });
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
              shown: !asset.locked,
              label: 'generateIcon',
              pending: 'generatingIcon',
            },
            {
              mutation: texture,
              shown: hasModel,
              label: 'predictTexture',
              pending: 'predictingTexture',
            },
            { mutation: validate, shown: hasModel, label: 'validate', pending: 'validating' },
          ].map(
            ({ mutation, shown, label, pending }) =>
              shown && (
                <ActionButton
                  key={label}
                  isPending={mutation.isPending}
                  pendingLabel={t(`assetEditor.${pending}`)}
                  onPress={() => mutation.mutate()}
                >
                  {t(`assetEditor.${label}`)}
                </ActionButton>
              ),
          )}
        </div>
      )}
      {canEdit && !hasModel && <p className="field-description">{t('assetEditor.needsModel')}</p>}
      {icon.isSuccess && <Alert tone="info">{t('assetEditor.iconGenerated')}</Alert>}
      {texture.data && (
        <Alert tone="info">{t('assetEditor.texturePredicted', { url: texture.data.url })}</Alert>
      )}
      {[lock, remove, icon, texture, validate].map((action, index) => (
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
        <p>{t('assetEditor.deleteBody')}</p>
      </FormDialog>
    </Panel>
  );
}
