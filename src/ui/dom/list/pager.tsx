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
  };
}

/** Page numbers around the current one, with the first and last always reachable. */
function pageWindow(page: number, totalPages: number, span = 2): (number | 'gap')[] {
  const pages = new Set([1, totalPages]);
  for (let p = page - span; p <= page + span; p++) if (p >= 1 && p <= totalPages) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  return sorted.flatMap((p, i) => (i > 0 && p - sorted[i - 1]! > 1 ? ['gap' as const, p] : [p]));
}

/** A numbered pager (spec §2). */
export function Pager({ page, totalPages, estimate = false, onPage, labels }: PagerProps) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={labels.nav}>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {labels.previous}
      </button>
      <ol>
        {pageWindow(page, totalPages).map((p, i) =>
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
