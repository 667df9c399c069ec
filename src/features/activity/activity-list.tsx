import type { TFunction } from 'i18next';
import { Link } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { Can } from '../../../contract/ability';
import type { ListDefinition } from '../../api/list-url';
import { ACTIVITY_KINDS, activityRowSchema, type ActivityRow } from '../../../contract/schemas';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';
import { dateColumn } from '../../ui/dom/list/columns';
import { personIcon, searchIcon, statusIcon, typeIcon } from '../../ui/dom/list/filter-icons';
import { CHANGES, changeDetail, changeTitle, kindOf } from './activity-rows';
import { recordCell, recordLabel } from './record-cell';
import { endpoint, ENDPOINTS } from '../../../contract/paths';

/**
 * The activity log (/activity): who changed what, newest first. The route declares `list`, the
 * search it validates (filters, sort field, default order).
 */
export function ActivityList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => activityList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** What the list shows, in the user's language. */
const activityList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
): ListScreenConfig<ActivityRow> => ({
  title: t('activity.title'),
  // The log shows who changed what, as the changelog does; the server lists only the events
  // the caller's role may see (user administration: admins).
  requires: ['update', 'Asset'],
  endpoint: endpoint(ENDPOINTS.activity),
  rowSchema: activityRowSchema,
  newRowsOnTop: true,
  ...list,
  rowLabel: (row) => `${changeTitle(row, t)} · ${recordLabel(row.subject, t)}`,
  filters: [
    {
      field: 'search',
      type: 'text',
      label: t('activity.record'),
      placeholder: t('activity.recordPlaceholder'),
      icon: searchIcon,
      visibleOnMobile: true,
    },
    {
      field: 'kind',
      type: 'multi-select',
      label: t('activity.kind'),
      icon: typeIcon,
      options: ACTIVITY_KINDS.map((kind) => ({ value: kind, label: t(`activity.kinds.${kind}`) })),
    },
    {
      field: 'routingKey',
      type: 'multi-select',
      label: t('activity.change'),
      icon: statusIcon,
      options: CHANGES.map((routingKey) => ({
        value: routingKey,
        label: `${t(`activity.kinds.${kindOf(routingKey)}`)}: ${changeTitle({ routingKey, data: {} }, t)}`,
      })),
    },
    {
      field: 'actorId',
      type: 'autocomplete',
      label: t('activity.actor'),
      icon: personIcon,
      endpoint: endpoint(ENDPOINTS.users),
      displayField: 'email',
      multiple: true,
      limitTags: 1,
    },
    { field: 'from', type: 'date', label: t('activity.from') },
    { field: 'to', type: 'date', label: t('activity.to') },
  ],
  columns: [
    dateColumn('createdAt', t('activity.when')),
    {
      field: 'actorEmail',
      headerName: t('activity.actor'),
      // The actor's page, for a role that may open users' pages.
      render: (row) =>
        row.actorEmail === null ? (
          row.actorId ? (
            t('trash.unknownUser')
          ) : (
            t('assetEditor.system')
          )
        ) : row.actorId && can('access', 'PrivateApi') && can('read', 'User') ? (
          <Link to="/users/$userId" params={{ userId: row.actorId }}>
            {row.actorEmail}
          </Link>
        ) : (
          row.actorEmail
        ),
    },
    {
      field: 'routingKey',
      headerName: t('activity.change'),
      render: (row) => {
        const detail = changeDetail(row, t);
        return (
          <span title={row.routingKey}>
            {changeTitle(row, t)}
            {detail && <span className="changelog-detail"> · {detail}</span>}
          </span>
        );
      },
    },
    { field: 'subject', headerName: t('activity.record'), render: (row) => recordCell(row, t) },
  ],
});
