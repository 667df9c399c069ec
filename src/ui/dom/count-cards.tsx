import { useEffect, type ReactNode } from 'react';
import { displayLabel } from './list/asset-filters';
import { remember, remembered } from '../remembered';
interface CountCardsProps {
  /** null while loading. */
  counts: { type: string; count: number }[] | null;
  /** How many cards to expect while loading the first time in this browser (then remembered). */
  expected: number;
  labels: { heading: string; total: string; empty: string; loading: string };
  /** Makes a card's content a link: to the assets of its type, or all of them (type null). */
  cardLink?: (type: string | null, content: ReactNode) => ReactNode;
}

const CARDS_KEY = 'avatar-studio:count-cards';

/** The cards shown last time in this browser, else `expected`. */
function rememberedCards(expected: number) {
  const stored = Number(remembered(CARDS_KEY) ?? Number.NaN);
  return Number.isInteger(stored) && stored > 0 ? stored : expected;
}

/**
 * Asset counts by type as cards, with skeleton cards while they load: as many as were shown last
 * time, so that what is below them does not move when the counts come (a layout shift).
 */
export function CountCards({ counts, expected, labels, cardLink }: CountCardsProps) {
  const shown = counts === null ? null : counts.length === 0 ? 0 : counts.length + 1;
  useEffect(() => {
    if (shown !== null) remember(CARDS_KEY, String(Math.max(shown, 1)));
  }, [shown]);
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
          {Array.from({ length: rememberedCards(expected) }, (_, i) => (
            <li key={i} className="count-card skeleton" aria-hidden="true">
              {/* The label's and the count's own lines: a skeleton card is as tall as a card. */}
              <span className="count-label skeleton-text short">&nbsp;</span>
              <span className="count-value skeleton-text tall">&nbsp;</span>
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
