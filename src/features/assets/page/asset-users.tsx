import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../../contract/schemas';
import { assetHoldersQuery } from '../../../api/user-assets';
import { assignAssets, unassignAssets } from '../api/mutations';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * Who holds the asset (each a link to the user's page, newest assignment first, paged) and,
 * for a role that may change assignments, Remove beside each and a picker to give it to one
 * more user (private user-assets calls).
 */
export function AssetUsers({ asset, canEdit }: { asset: Asset; canEdit: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const holders = useQuery({
    ...assetHoldersQuery(asset.id, page),
    placeholderData: keepPreviousData,
  });
  const [picked, setPicked] = useState<string[]>([]);
  const userId = picked[0];
  const assign = useMutation({
    mutationFn: ({ user, add }: { user: string; email: string; add: boolean }) =>
      (add ? assignAssets : unassignAssets)(user, [asset.id]),
    onSuccess: (_, { user, email, add }) => {
      if (add) setPicked([]);
      announce({
        title: email
          ? t(add ? 'assetEditor.assignedTo' : 'assetEditor.unassignedFrom', {
              name: asset.name,
              user: email,
            })
          : t(add ? 'assetEditor.assigned' : 'assetEditor.unassigned', { name: asset.name }),
        tone: 'success',
        action: {
          label: t('list.undo'),
          onAction: () => assign.mutate({ user, email, add: !add }),
        },
      });
    },
  });
  const rows = holders.data?.data ?? [];
  const pagination = holders.data?.pagination;
  const pages = pagination?.totalPages ?? 1;
  return (
    <Panel title={t('assetEditor.users')} busy={holders.isPending}>
      {pagination && (
        <p className="field-description" aria-live="polite">
          {pagination.totalDocs === 0
            ? t('assetEditor.noHolders')
            : t('assetEditor.holders', { count: pagination.totalDocs })}
        </p>
      )}
      {rows.length > 0 && (
        <ul className="holder-list">
          {rows.map((user) => {
            const email = user.email ?? user.id;
            return (
              <li key={user.id}>
                <Link to="/users/$userId" params={{ userId: user.id }}>
                  {email}
                </Link>
                {canEdit && (
                  <ActionButton
                    variant="link"
                    isPending={assign.isPending && assign.variables.user === user.id}
                    onPress={() => assign.mutate({ user: user.id, email, add: false })}
                  >
                    <span aria-hidden="true">{t('assetEditor.removeHolder')}</span>
                    <span className="visually-hidden">
                      {t('assetEditor.removeHolderLabel', { user: email })}
                    </span>
                  </ActionButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 && (
        <div className="action-row">
          <ActionButton variant="link" isDisabled={page <= 1} onPress={() => setPage(page - 1)}>
            {t('assetEditor.holdersPrevious')}
          </ActionButton>
          <span>{t('assetEditor.holdersPage', { page, pages })}</span>
          <ActionButton variant="link" isDisabled={page >= pages} onPress={() => setPage(page + 1)}>
            {t('assetEditor.holdersNext')}
          </ActionButton>
        </div>
      )}
      <Failure error={holders.error} />
      {canEdit && (
        <>
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
              isPending={assign.isPending && assign.variables.add}
              isDisabled={!userId}
              onPress={() => userId && assign.mutate({ user: userId, email: '', add: true })}
            >
              {t('assetEditor.assign')}
            </ActionButton>
          </div>
          <Failure error={assign.error} />
        </>
      )}
    </Panel>
  );
}
