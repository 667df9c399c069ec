import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../api/schemas';
import { addUserAssets, assetsAssigned, removeUserAssets } from '../../../api/user-assets';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { TextField } from '../../../ui/dom/text-field';
import { Failure, Panel } from './panel';

/** Assigns the asset to a user (by id) or takes it away (private user-assets calls). */
export function AssetUsers({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState('');
  const target = userId.trim();
  const assign = useMutation({
    mutationFn: async ({ user, add }: { user: string; add: boolean }) => {
      await (add ? addUserAssets(user, [asset.id]) : removeUserAssets(user, [asset.id]));
    },
    onSuccess: () => assetsAssigned([asset.id]),
  });
  const done = assign.isSuccess ? assign.variables : undefined;
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
        <ActionButton
          isPending={assign.isPending}
          onPress={() => target && assign.mutate({ user: target, add: true })}
        >
          {t('assetEditor.assign')}
        </ActionButton>
        <ActionButton
          variant="link"
          isPending={assign.isPending}
          onPress={() => target && assign.mutate({ user: target, add: false })}
        >
          {t('assetEditor.unassign')}
        </ActionButton>
      </div>
      {done && (
        <Alert tone="success">
          {t(done.add ? 'assetEditor.assigned' : 'assetEditor.unassigned', { userId: done.user })}{' '}
          <Link to="/users/$userId/assets" params={{ userId: done.user }}>
            {t('assetEditor.userAssetsLink', { userId: done.user })}
          </Link>
        </Alert>
      )}
      <Failure error={assign.error} />
    </Panel>
  );
}
