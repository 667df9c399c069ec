/**
 * The record an activity row names (/activity, a user's page): a link while it exists; else it
 * says it was deleted, and where.
 */
import type { TFunction } from 'i18next';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ActivityRow } from '../../../contract/schemas';

/** A list screen searched for one record's name (the Trash, and kinds without a page). */
const searchFor = (text: string) => ({ filter: { search: text } });

/** A record's name for people: a deleted account's addresses are forgotten (docs/api.md). */
export function recordLabel({ kind, id, name }: ActivityRow['subject'], t: TFunction): string {
  if (name !== null) return name;
  return kind === 'user' || kind === 'invitation' ? t('activity.deletedAccount') : id;
}

export function recordCell(row: ActivityRow, t: TFunction): ReactNode {
  const { kind, name, state } = row.subject;
  const label = recordLabel(row.subject, t);
  const kindLabel = <span className="activity-kind">{t(`activity.kinds.${kind}`)}</span>;
  if (state === 'trash') {
    return (
      <>
        {kindLabel} {label} ·{' '}
        <Link to="/trash" search={searchFor(label)}>
          {t('activity.inTrash')}
        </Link>
      </>
    );
  }
  // An invitation is never deleted: once accepted or revoked it is no longer pending. A
  // deleted account's label already says so.
  if (state === 'gone' && (kind === 'invitation' || (kind === 'user' && name === null)))
    return (
      <>
        {kindLabel} {label}
      </>
    );
  if (state === 'gone') {
    return (
      <>
        {kindLabel} {label} · {t('activity.deletedForEver')}
      </>
    );
  }
  return (
    <>
      {kindLabel} {recordLink(row.subject, label)}
    </>
  );
}

function recordLink({ kind, id }: ActivityRow['subject'], label: string): ReactNode {
  switch (kind) {
    case 'asset':
      return (
        <Link to="/assets/$assetId" params={{ assetId: id }}>
          {label}
        </Link>
      );
    case 'cage-mesh':
      return (
        <Link to="/cage-meshes/$cageMeshId" params={{ cageMeshId: id }}>
          {label}
        </Link>
      );
    case 'application':
      return (
        <Link to="/applications/$applicationId/assets" params={{ applicationId: id }}>
          {label}
        </Link>
      );
    case 'user':
      return (
        <Link to="/users/$userId" params={{ userId: id }}>
          {label}
        </Link>
      );
    case 'tag':
      // Tags and morphed assets have no page of their own: their list, searched for this one.
      return (
        <Link to="/tags" search={searchFor(label)}>
          {label}
        </Link>
      );
    case 'morphed-asset':
      return (
        <Link to="/morphed-assets" search={searchFor(label)}>
          {label}
        </Link>
      );
    case 'invitation':
      // Pending: the invitations screen, where it is resent or revoked.
      return <Link to="/users/invitations">{label}</Link>;
  }
}
