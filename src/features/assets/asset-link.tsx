import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A name in a list that leads to the asset's page. */
export function AssetLink({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Link to="/assets/$assetId" params={{ assetId: id }}>
      {children}
    </Link>
  );
}

/** An application's name that leads to its assets (an application's page). */
export function ApplicationLink({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Link to="/applications/$applicationId/assets" params={{ applicationId: id }}>
      {children}
    </Link>
  );
}

/** A tag's name that leads to the tag in the tags list (tags have no page of their own). */
export function TagLink({ name }: { name: string }) {
  return (
    <Link to="/tags" search={{ filter: { search: name } }}>
      {name}
    </Link>
  );
}
