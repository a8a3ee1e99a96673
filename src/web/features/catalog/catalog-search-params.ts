import { type PartSort, partSortValues } from '../../../shared/schemas/parts.ts';
import { partsQueryOptions } from './parts-api.ts';

const PAGE_SIZE = 24;
const MAX_PAGE = Math.floor(1_000_000 / PAGE_SIZE);

/** A parts list's state as its URL holds it (?q=&sort=&page=). */
interface CatalogSearch {
  q: string;
  sort: PartSort | undefined;
  page: number;
}

/** Reads the list state from a URL's search. A hand-edited URL must not turn into a request the API refuses. */
export function readCatalogSearch(params: URLSearchParams): CatalogSearch {
  // Clamp to what the API accepts (q ≤ 100 characters, offset ≤ 1e6).
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const rawSort = params.get('sort');
  const sort = partSortValues.find((value) => value === rawSort);
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  return { q, sort, page };
}

/** The one page of parts a list state shows: the page asks for it, the router prefetches exactly the same query. */
export function catalogPageQueryOptions({ q, sort, page }: CatalogSearch) {
  return partsQueryOptions({ q: q || undefined, sort, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
}

/** How many pages a list of `total` parts fills (at least one, the page that says there are none). */
export function pageCountOf(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}
