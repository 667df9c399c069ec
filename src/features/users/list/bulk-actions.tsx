import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../../../contract/schemas';
import { bulkChangeUsers, type UserBulkChange } from '../api/admin';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { SelectBox } from '../../../ui/dom/select-box';
import { GIVEN_ROLES, roleLabel } from '../user-texts';

/**
 * What an administrator can do to the selected users together: disable, enable, or give them
 * a role, each after a confirmation, all or none on the server (one's own account in the
 * selection refuses the whole change, saying so).
 */
export function UserBulkActions({ ids, list }: { ids: string[]; list: ListControls }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<UserBulkChange['kind'] | null>(null);
  const [role, setRole] = useState<Role>('developer');
  const count = ids.length;
  const run = (change: UserBulkChange) =>
    void list.run(() => bulkChangeUsers(ids, change), {
      done:
        change.kind === 'role'
          ? t('users.bulkRoleChanged', { count, role: roleLabel(t, change.role) })
          : t(change.kind === 'disable' ? 'users.bulkDisabled' : 'users.bulkEnabled', { count }),
    });
  const titles = {
    disable: ['users.bulkDisableTitle', 'users.bulkDisableBody', 'users.disable'],
    enable: ['users.bulkEnableTitle', 'users.bulkEnableBody', 'users.enable'],
    role: ['users.bulkRoleTitle', 'users.bulkRoleBody', 'users.changeRole'],
  } as const;
  const [title, body, submit] = titles[asking ?? 'disable'];
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <strong>{t('bulk.selected', { count })}</strong>
      <ActionButton variant="danger" onPress={() => setAsking('disable')}>
        {t('users.disable')}
      </ActionButton>
      <ActionButton onPress={() => setAsking('enable')}>{t('users.enable')}</ActionButton>
      <ActionButton onPress={() => setAsking('role')}>{t('users.changeRole')}</ActionButton>
      <FormDialog
        isOpen={asking !== null}
        onClose={() => setAsking(null)}
        title={t(title, { count })}
        submitLabel={t(submit)}
        cancelLabel={t('list.cancel')}
        tone={asking === 'disable' ? 'danger' : 'default'}
        onSubmit={() => {
          if (asking === null) return false;
          run(asking === 'role' ? { kind: 'role', role } : { kind: asking });
          return true;
        }}
      >
        <p>{t(body)}</p>
        {asking === 'role' && (
          <SelectBox
            label={t('users.newRole')}
            options={GIVEN_ROLES.map((value) => ({ value, label: roleLabel(t, value) }))}
            value={[role]}
            onChange={([value]) => value && setRole(value as Role)}
            placeholder={t('users.newRole')}
          />
        )}
      </FormDialog>
    </div>
  );
}
