import type { ReactNode } from 'react';

/** The app's one date format ("Nov 23, 2026, 4:33 PM"), in lists and on the detail pages. */
export const formatDate = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Cell renderers the list screens share. */
export const dateCell = (iso: string | null | undefined): ReactNode =>
  iso ? <time dateTime={iso}>{formatDate(iso)}</time> : '—';

export const badgeCell = (text: string, tone?: string): ReactNode => (
  <span className={tone ? `badge ${tone}` : 'badge'}>{text}</span>
);

const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

export const assetNameCell = (asset: { name: string; iconUrl: string | null }): ReactNode => (
  <span className="asset-name">
    {asset.iconUrl ? (
      <img
        className="asset-icon"
        src={asset.iconUrl}
        alt=""
        loading="lazy"
        // A missing icon shows the empty tile rather than a broken image.
        onError={(event) => {
          event.currentTarget.src = BLANK_IMAGE;
        }}
      />
    ) : (
      <span className="asset-icon" aria-hidden="true" />
    )}
    {asset.name}
  </span>
);
