import { remember, remembered } from '../../remembered';

const TOTAL_KEY = 'avatar-studio:list-total:';

/**
 * How many rows the whole list (no filter) had when last shown in this browser, or null. A list
 * that fitted one page then is expected to still: its first load keeps no room for a pager.
 */
export function rememberedTotal(list: string): number | null {
  const stored = remembered(TOTAL_KEY + list);
  return stored === null || !Number.isFinite(Number(stored)) ? null : Number(stored);
}

export function rememberTotal(list: string, total: number) {
  remember(TOTAL_KEY + list, String(total));
}

interface PagerProps {
  page: number;
  totalPages: number;
  /** totalPages comes from an estimated total: the last page is named, not numbered. */
  estimate?: boolean;
  onPage: (page: number) => void;
  labels: {
    nav: string;
    previous: string;
    next: string;
    /** A page's accessible name. */
    page: (n: number) => string;
    /** A page's number as shown (with the language's digit grouping). */
    number: (n: number) => string;
    last: string;
    lastPage: string;
    /** "Page 2 of 40" (of about 40 when estimated), for the compact pager. */
    of?: (page: number, totalPages: number, estimate: boolean) => string;
  };
  /**
   * Pages either side of the current one (default 2); a phone shows none, so the pager keeps
   * to one line: Previous, the first, the current and the last page, Next.
   */
  span?: number;
  /** Previous, "Page 2 of 40", Next: the pager above the rows. */
  compact?: boolean;
}

/** Page numbers around the current one, with the first and last always reachable. */
function pageWindow(page: number, totalPages: number, span = 2): (number | 'gap')[] {
  const pages = new Set([1, totalPages]);
  for (let p = page - span; p <= page + span; p++) if (p >= 1 && p <= totalPages) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  return sorted.flatMap((p, i) => (i > 0 && p - sorted[i - 1]! > 1 ? ['gap' as const, p] : [p]));
}

/** A numbered pager (spec §2). */
export function Pager(props: PagerProps) {
  const { page, totalPages, estimate = false, onPage, labels, span = 2, compact = false } = props;
  if (totalPages <= 1) return null;
  return (
    <nav className={compact ? 'pager compact' : 'pager'} aria-label={labels.nav}>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {labels.previous}
      </button>
      {compact ? (
        <span className="pager-position">
          {labels.of?.(page, totalPages, estimate) ?? labels.page(page)}
        </span>
      ) : (
        <PageNumbers {...props} span={span} />
      )}
      <button
        type="button"
        className="button"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        {labels.next}
      </button>
    </nav>
  );
}

/** The numbered pages around the current one. */
function PageNumbers({ page, totalPages, estimate = false, onPage, labels, span }: PagerProps) {
  return (
    <ol>
      {pageWindow(page, totalPages, span).map((p, i) =>
        p === 'gap' ? (
          <li key={`gap-${i}`} aria-hidden="true" className="pager-gap">
            …
          </li>
        ) : (
          <li key={p}>
            <button
              type="button"
              className={p === page ? 'button pager-page current' : 'button pager-page'}
              aria-current={p === page ? 'page' : undefined}
              aria-label={estimate && p === totalPages ? labels.lastPage : labels.page(p)}
              onClick={() => onPage(p)}
            >
              {/* An estimated last page's number is a guess that changes as rows come and
                    go; the server reads the last page from the end whatever it is. */}
              {estimate && p === totalPages ? labels.last : labels.number(p)}
            </button>
          </li>
        ),
      )}
    </ol>
  );
}
