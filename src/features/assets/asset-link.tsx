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
