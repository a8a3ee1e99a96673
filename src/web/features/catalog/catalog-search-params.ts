import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { decodeCursor } from '../../../shared/cursor-codec.ts';
import { type PartSort, partCursorOrder, partSortValues } from '../../../shared/part-order.ts';
import type { PartFacets } from '../../../shared/schemas/fitment.ts';
import { queryClient } from '../../lib/query-client.ts';
import {
  type PartFilterParams,
  type PartPage,
  partKeys,
  partListPageQueryOptions,
  partsQueryOptions,
} from './parts-api.ts';

const PAGE_SIZE = 24;
const MAX_PAGE = Math.floor(1_000_000 / PAGE_SIZE);
const MAX_PRICE = 1_000_000;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A parts list's state as its URL holds it, under the API's own names: ?q=&sort=&page=&category=&brand=&minPrice=
 * &maxPrice=&inStock=true&fitment=none. With a current vehicle the list shows the parts that fit it (universal ones
 * included) unless the URL says `fits=false` ('Show all parts').
 */
export interface CatalogSearch {
  q: string;
  sort: PartSort | undefined;
  page: number;
  category: string | undefined;
  brand: string | undefined;
  minPrice: number | undefined;
  maxPrice: number | undefined;
  inStock: boolean;
  /** 'Show all parts': the list is not limited to the current vehicle. */
  showAll: boolean;
  /** Manage Products: parts that are not universal and have no fitment yet. */
  noFitment: boolean;
  /**
   * The page reached by Next or Previous, as the API's cursor (`after` / `before` in the URL): the API
   * reads it from the index wherever it is in the catalogue. `page` is then only the number shown. Without it the
   * page is read by offset (page 1, a page number picked, a search by relevance).
   */
  cursor: PageCursor | undefined;
}

export interface PageCursor {
  dir: 'after' | 'before';
  value: string;
}

/** A cursor of the URL that the API would accept for this list (its own order); anything else is left out. */
function cursorOf(params: URLSearchParams, sort: PartSort | undefined, q: string): PageCursor | undefined {
  for (const dir of ['after', 'before'] as const) {
    const value = params.get(dir);
    if (value === null) continue;
    const position = decodeCursor(value);
    return position && position.o === partCursorOrder({ sort, q }) ? { dir, value } : undefined;
  }
  return undefined;
}

function slug(value: string | null): string | undefined {
  return value && value.length <= 60 && SLUG.test(value) ? value : undefined;
}

function dollars(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 && number <= MAX_PRICE ? number : undefined;
}

/** Reads the list state from a URL's search. A hand-edited URL must not turn into a request the API refuses. */
export function readCatalogSearch(params: URLSearchParams): CatalogSearch {
  // Clamp to what the API accepts (q ≤ 100 characters, offset ≤ 1e6).
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const rawSort = params.get('sort');
  const sort = partSortValues.find((value) => value === rawSort);
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  let minPrice = dollars(params.get('minPrice'));
  let maxPrice = dollars(params.get('maxPrice'));
  // The API refuses a lowest price above the highest: the two were typed the wrong way round.
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  return {
    q,
    sort,
    page,
    category: slug(params.get('category')),
    brand: slug(params.get('brand')),
    minPrice,
    maxPrice,
    inStock: params.get('inStock') === 'true',
    showAll: params.get('fits') === 'false',
    noFitment: params.get('fitment') === 'none',
    cursor: page > 1 ? cursorOf(params, sort, q) : undefined,
  };
}

/** Whether the list is limited to the parts that fit the current vehicle. */
export function limitedToVehicle(search: CatalogSearch, vehicleId: string | null | undefined): boolean {
  return Boolean(vehicleId) && !search.showAll;
}

/** The API's filters for a list state and the current vehicle (none: no `vehicle`, no `fits`). */
export function filterParams(search: CatalogSearch, vehicleId?: string | null): PartFilterParams {
  return {
    q: search.q || undefined,
    vehicle: vehicleId || undefined,
    fits: limitedToVehicle(search, vehicleId) ? 'true' : undefined,
    category: search.category,
    brand: search.brand,
    minPrice: search.minPrice,
    maxPrice: search.maxPrice,
    inStock: search.inStock ? 'true' : undefined,
    fitment: search.noFitment ? 'none' : undefined,
  };
}

/** Drops the parameters that are not sent, so the same list state always makes the same query key. */
function defined<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)) as T;
}

/** The list's query of a list state: its filters, order and page (by cursor when it has one, else by offset). */
function pageParams(search: CatalogSearch, vehicleId?: string | null) {
  const { cursor } = search;
  return defined({
    ...filterParams(search, vehicleId),
    sort: search.sort,
    limit: PAGE_SIZE,
    ...(cursor ? { [cursor.dir]: cursor.value } : { offset: (search.page - 1) * PAGE_SIZE }),
  });
}

/**
 * The URL change for going to page `next` from `page`: Next and Previous follow the cursors the current page came
 * with, so a deep page costs what page 1 does; page 1 and a page number picked are read by offset.
 */
export function pageChange(
  page: number,
  next: number,
  current: Pick<PartPage, 'nextCursor' | 'prevCursor'> | undefined,
): { page: number; cursor?: PageCursor } {
  if (next === page + 1 && current?.nextCursor)
    return { page: next, cursor: { dir: 'after', value: current.nextCursor } };
  if (next === page - 1 && next > 1 && current?.prevCursor)
    return { page: next, cursor: { dir: 'before', value: current.prevCursor } };
  return { page: next };
}

/** The page and its counts of a list state, in one request (`GET /api/part/page`), shared by the two queries below. */
function catalogView(search: CatalogSearch, vehicleId?: string | null) {
  return queryClient.fetchQuery(partListPageQueryOptions(pageParams(search, vehicleId)));
}

/**
 * The one page of parts the parts page shows: the page asks for it, the router prefetches exactly the same query.
 * It and `catalogFacetsQueryOptions` are answered by one request for both.
 */
export function catalogPageQueryOptions(search: CatalogSearch, vehicleId?: string | null) {
  const params = pageParams(search, vehicleId);
  return queryOptions({
    queryKey: partKeys.list(params),
    queryFn: async (): Promise<PartPage> => {
      const { items, total, capped, nextCursor, prevCursor } = await catalogView(search, vehicleId);
      return { items, total, capped, nextCursor, prevCursor };
    },
    // Paging and typing a search keep the previous cards on screen instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

/** The counts beside the filters of a list state: from the same request as its page (paging keeps them). */
export function catalogFacetsQueryOptions(search: CatalogSearch, vehicleId?: string | null) {
  return queryOptions({
    queryKey: partKeys.facets(defined(filterParams(search, vehicleId))),
    queryFn: async (): Promise<PartFacets> => (await catalogView(search, vehicleId)).facets,
    placeholderData: keepPreviousData,
  });
}

/** Manage Products' page of a list state: the list alone (it shows no counts). */
export function catalogListQueryOptions(search: CatalogSearch) {
  return partsQueryOptions(pageParams(search));
}

/** How many pages a list of `total` parts fills (at least one, the page that says there are none). */
export function pageCountOf(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}
