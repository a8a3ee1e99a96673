import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Part, PartFacetsQuery, PartInput, PartListQuery, PartPatch } from '../../../shared/schemas/parts.ts';
import { api, apiRequest, lazySchemas } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** The answers' schemas, loaded with the first answer to check (ADR 018). */
const schemas = lazySchemas(
  () => import('./parts-schemas.ts').then((module) => module.partAnswers),
  ['part', 'parts', 'details', 'listPage', 'suggestions', 'categories', 'brands'],
);

/**
 * The list's parameters as `GET /api/part` names them (among them vehicle, fits, category, brand, price range, in
 * stock and "no fitment yet"); an absent one is not sent, so a list without filters asks for the plain list.
 */
export type PartListParams = { [K in keyof PartListQuery]?: PartListQuery[K] | undefined };
export type PartFilterParams = { [K in keyof PartFacetsQuery]?: PartFacetsQuery[K] | undefined };

export interface PartPage {
  items: Part[];
  /** Every part matching the search, from the X-Total-Count header. */
  total: number;
  /** A search with more matches than the shop ranks (X-Total-Count-Capped): `total` means "at least". */
  capped?: boolean;
  /** Where the next and previous pages start (X-Next-Cursor / X-Prev-Cursor, or the page's own fields). */
  nextCursor?: string | null;
  prevCursor?: string | null;
}

/** Query keys: mutations invalidate `partKeys.all`, so every list, facet count, brand list and detail refreshes. */
export const partKeys = {
  all: queryRoots.parts,
  list: (params: PartListParams) => [...queryRoots.parts, 'list', params] as const,
  facets: (params: PartFilterParams) => [...queryRoots.parts, 'facets', params] as const,
  view: (params: PartListParams) => [...queryRoots.parts, 'view', params] as const,
  detail: (id: string, vehicleId: string | null) => [...queryRoots.parts, 'detail', id, vehicleId] as const,
  categories: () => [...queryRoots.parts, 'categories'] as const,
  brands: () => [...queryRoots.parts, 'brands'] as const,
  suggest: (q: string, vehicleId: string | null) => [...queryRoots.parts, 'suggest', q, vehicleId] as const,
};

/**
 * `GET /api/part/suggest`: what the search box offers while typing, and the corrections and closest names
 * of a search that found nothing; with the vehicle the list is limited to, only parts that fit it. Kept a minute:
 * the same letters are often typed again.
 */
export function partSuggestionsQueryOptions(q: string, vehicleId: string | null = null) {
  return queryOptions({
    queryKey: partKeys.suggest(q, vehicleId),
    queryFn: ({ signal }) =>
      api('/part/suggest', {
        query: vehicleId ? { q, vehicle: vehicleId } : { q },
        schema: schemas.suggestions,
        signal,
      }),
    staleTime: 60_000,
  });
}

async function fetchParts(params: PartListParams, signal?: AbortSignal): Promise<PartPage> {
  const { data, headers } = await apiRequest('/part', { query: { ...params }, schema: schemas.parts, signal });
  const total = Number(headers.get('x-total-count'));
  return {
    items: data,
    total: Number.isFinite(total) ? total : data.length,
    capped: headers.get('x-total-count-capped') === 'true',
    nextCursor: headers.get('x-next-cursor'),
    prevCursor: headers.get('x-prev-cursor'),
  };
}

export function partsQueryOptions(params: PartListParams) {
  return queryOptions({
    queryKey: partKeys.list(params),
    queryFn: ({ signal }) => fetchParts(params, signal),
    // Paging and typing a search keep the previous cards on screen instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

/**
 * `GET /api/part/page`: a page of the list with the counts beside its filters, in one request. The parts
 * page's page and facet queries both read it (`catalog-search-params.ts`), so they share one request; it counts as
 * fresh for a few seconds so the second of them finds the first one's answer. No abort signal: two queries wait on it.
 */
export function partListPageQueryOptions(params: PartListParams) {
  return queryOptions({
    queryKey: partKeys.view(params),
    queryFn: () => api('/part/page', { query: { ...params }, schema: schemas.listPage }),
    staleTime: 5_000,
  });
}

/**
 * The home page's Parts section: the server picks exactly the latest six; with a current vehicle, each says
 * whether it fits.
 */
export function latestPartsQueryOptions(vehicleId?: string | undefined) {
  const params: PartListParams = vehicleId
    ? { sort: 'newest', limit: 6, vehicle: vehicleId }
    : { sort: 'newest', limit: 6 };
  return queryOptions({
    queryKey: partKeys.list(params),
    queryFn: ({ signal }) => fetchParts(params, signal),
    // The newest parts are the same for any vehicle (the vehicle adds whether each fits): they stay on the screen
    // while another vehicle's answer loads, instead of skeletons (the server's page is rendered for no vehicle).
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/part/{id}`: the part with its fitment; with a vehicle, whether it fits that vehicle. */
export function partQueryOptions(id: string, vehicleId?: string | null) {
  return queryOptions({
    queryKey: partKeys.detail(id, vehicleId ?? null),
    queryFn: ({ signal }) =>
      api(`/part/${encodeURIComponent(id)}`, {
        query: { vehicle: vehicleId ?? undefined },
        schema: schemas.details,
        signal,
      }),
  });
}

/** Categories and brands change only when an admin edits the catalogue (which invalidates `partKeys.all`). */
const TAXONOMY_STALE = 5 * 60_000;

export const categoriesQueryOptions = queryOptions({
  queryKey: partKeys.categories(),
  queryFn: ({ signal }) => api('/category', { schema: schemas.categories, signal }),
  staleTime: TAXONOMY_STALE,
});

export const brandsQueryOptions = queryOptions({
  queryKey: partKeys.brands(),
  queryFn: ({ signal }) => api('/brand', { schema: schemas.brands, signal }),
  staleTime: TAXONOMY_STALE,
});

export function createPart(input: PartInput): Promise<Part> {
  return api('/part', { method: 'POST', body: input, schema: schemas.part });
}

export function updatePart(id: string, patch: PartPatch): Promise<Part> {
  return api(`/part/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch, schema: schemas.part });
}

export async function deletePart(id: string): Promise<void> {
  await api(`/part/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
