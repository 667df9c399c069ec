import type { ReactNode } from 'react';
import { displayLabel } from './list/asset-filters';
interface CountCardsProps {
  /** null while loading. */
  counts: { type: string; count: number }[] | null;
  labels: { heading: string; total: string; empty: string; loading: string };
  /** Makes a card's content a link: to the assets of its type, or all of them (type null). */
  cardLink?: (type: string | null, content: ReactNode) => ReactNode;
}

const SKELETON_CARDS = 6;

/** Asset counts by type as cards, with skeleton cards while they load. */
export function CountCards({ counts, labels, cardLink }: CountCardsProps) {
  const linked = (type: string | null, content: ReactNode) =>
    cardLink ? cardLink(type, content) : content;
  if (counts === null) {
    return (
      <section aria-label={labels.heading} aria-busy="true">
        <h2>{labels.heading}</h2>
        <p className="visually-hidden" role="status">
          {labels.loading}
        </p>
        <ul className="count-cards skeleton-pulse">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <li key={i} className="count-card skeleton" aria-hidden="true">
              <span className="skeleton-line short" />
              <span className="skeleton-line tall" />
            </li>
          ))}
        </ul>
      </section>
    );
  }
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  return (
    <section aria-label={labels.heading}>
      <h2>{labels.heading}</h2>
      {counts.length === 0 ? (
        <p>{labels.empty}</p>
      ) : (
        <ul className="count-cards">
          <li className="count-card total">
            {linked(
              null,
              <>
                <span className="count-label">{labels.total}</span>
                <span className="count-value">{total.toLocaleString()}</span>
              </>,
            )}
          </li>
          {counts.map((c) => (
            <li key={c.type} className="count-card">
              {linked(
                c.type,
                <>
                  <span className="count-label">{displayLabel(c.type)}</span>
                  <span className="count-value">{c.count.toLocaleString()}</span>
                </>,
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
