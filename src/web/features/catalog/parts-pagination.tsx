interface PartsPaginationProps {
  page: number;
  pageCount: number;
  onPage(page: number): void;
  label?: string;
}

/** Page numbers around the current page, with first/last always reachable: 1 … 4 5 [6] 7 8 … 417. */
export function pageWindow(page: number, pageCount: number, radius = 1): (number | 'gap')[] {
  const pages = new Set<number>([1, pageCount]);
  for (let p = page - radius; p <= page + radius; p++) if (p >= 1 && p <= pageCount) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  for (const p of sorted) {
    const last = result.at(-1);
    if (typeof last === 'number' && p - last > 1) result.push('gap');
    result.push(p);
  }
  return result;
}

/**
 * An accessible page control: a labelled nav of real buttons, the current page marked with aria-current
 * (Bootstrap's pagination look, our own markup so every state is announced properly).
 */
export function PartsPagination({ page, pageCount, onPage, label = 'Parts pages' }: PartsPaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="d-flex justify-content-center mt-4">
      <ul className="pagination flex-wrap mb-0">
        <li className={`page-item ${page <= 1 ? 'disabled' : ''}`}>
          <button type="button" className="page-link" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            <span aria-hidden="true">‹ </span>Previous<span className="visually-hidden"> page</span>
          </button>
        </li>
        {pageWindow(page, pageCount).map((item, index) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own.
            <li key={`gap-${index}`} className="page-item disabled" aria-hidden="true">
              <span className="page-link">…</span>
            </li>
          ) : (
            <li key={item} className={`page-item ${item === page ? 'active' : ''}`}>
              <button
                type="button"
                className="page-link"
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => item !== page && onPage(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li className={`page-item ${page >= pageCount ? 'disabled' : ''}`}>
          <button type="button" className="page-link" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
            Next<span className="visually-hidden"> page</span>
            <span aria-hidden="true"> ›</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
