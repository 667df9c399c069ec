interface PagerProps {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  labels: { nav: string; previous: string; next: string; page: (n: number) => string };
}

/** Page numbers around the current one, with the first and last always reachable. */
function pageWindow(page: number, totalPages: number, span = 2): (number | 'gap')[] {
  const pages = new Set([1, totalPages]);
  for (let p = page - span; p <= page + span; p++) if (p >= 1 && p <= totalPages) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  return sorted.flatMap((p, i) => (i > 0 && p - sorted[i - 1]! > 1 ? ['gap' as const, p] : [p]));
}

/** A numbered pager (spec §2). */
export function Pager({ page, totalPages, onPage, labels }: PagerProps) {
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
                aria-label={labels.page(p)}
                onClick={() => onPage(p)}
              >
                {p}
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
