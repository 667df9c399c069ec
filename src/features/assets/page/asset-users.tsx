import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../../contract/schemas';
import { assignAssets, unassignAssets } from '../api/mutations';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/** Gives the asset to a user picked by e-mail, or takes it away (private user-assets calls). */
export function AssetUsers({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const userId = picked[0];
  const assign = useMutation({
    mutationFn: ({ user, add }: { user: string; add: boolean }) =>
      (add ? assignAssets : unassignAssets)(user, [asset.id]),
    onSuccess: (_, { user, add }) =>
      announce({
        title: t(add ? 'assetEditor.assigned' : 'assetEditor.unassigned', { name: asset.name }),
        tone: 'success',
        action: { label: t('list.undo'), onAction: () => assign.mutate({ user, add: !add }) },
      }),
  });
  const done = assign.isSuccess ? assign.variables : undefined;
  return (
    <Panel title={t('assetEditor.users')}>
      <EntityPicker
        label={t('assetEditor.user')}
        field="userId"
        endpoint={endpoint(ENDPOINTS.users)}
        displayField="email"
        value={picked}
        onChange={setPicked}
      />
      <div className="action-row">
        <ActionButton
          isPending={assign.isPending}
          isDisabled={!userId}
          onPress={() => userId && assign.mutate({ user: userId, add: true })}
        >
          {t('assetEditor.assign')}
        </ActionButton>
        <ActionButton
          variant="link"
          isPending={assign.isPending}
          isDisabled={!userId}
          onPress={() => userId && assign.mutate({ user: userId, add: false })}
        >
          {t('assetEditor.unassign')}
        </ActionButton>
      </div>
      {done && (
        <Link to="/users/$userId/assets" params={{ userId: done.user }}>
          {t('assetEditor.userAssetsLink')}
        </Link>
      )}
      <Failure error={assign.error} />
    </Panel>
  );
}
