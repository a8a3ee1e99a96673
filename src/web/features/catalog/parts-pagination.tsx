import Pagination from 'react-bootstrap/Pagination';

export interface PartsPaginationProps {
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

/** An accessible page control: a labelled nav, the current page marked with aria-current. */
export function PartsPagination({ page, pageCount, onPage, label = 'Parts pages' }: PartsPaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="d-flex justify-content-center mt-4">
      <Pagination className="flex-wrap mb-0">
        <Pagination.Prev disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
          ‹ Previous
        </Pagination.Prev>
        {pageWindow(page, pageCount).map((item, index) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own.
            <Pagination.Ellipsis key={`gap-${index}`} disabled aria-hidden="true" />
          ) : (
            <Pagination.Item
              key={item}
              active={item === page}
              onClick={() => onPage(item)}
              aria-label={`Page ${item}`}
              aria-current={item === page ? 'page' : undefined}
            >
              {item}
            </Pagination.Item>
          ),
        )}
        <Pagination.Next disabled={page >= pageCount} onClick={() => onPage(page + 1)} aria-label="Next page">
          Next ›
        </Pagination.Next>
      </Pagination>
    </nav>
  );
}
