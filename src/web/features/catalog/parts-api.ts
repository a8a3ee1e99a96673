import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { PartInput, PartPatch, PartSort } from '../../../shared/schemas/parts.ts';
import { type Part, partSchema } from '../../../shared/schemas/parts.ts';
import { api, apiRequest } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

interface PartListParams {
  q?: string | undefined;
  sort?: PartSort | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface PartPage {
  items: Part[];
  /** Every part matching the search, from the X-Total-Count header. */
  total: number;
}

/** Query keys: mutations invalidate `partKeys.all`, so every list and detail refreshes. */
export const partKeys = {
  all: queryRoots.parts,
  list: (params: PartListParams) => [...queryRoots.parts, 'list', params] as const,
  detail: (id: string) => [...queryRoots.parts, 'detail', id] as const,
};

async function fetchParts(params: PartListParams, signal?: AbortSignal): Promise<PartPage> {
  const { data, headers } = await apiRequest('/part', {
    query: { q: params.q, sort: params.sort, limit: params.limit, offset: params.offset },
    schema: z.array(partSchema),
    signal,
  });
  const total = Number(headers.get('x-total-count'));
  return { items: data, total: Number.isFinite(total) ? total : data.length };
}

export function partsQueryOptions(params: PartListParams) {
  return queryOptions({
    queryKey: partKeys.list(params),
    queryFn: ({ signal }) => fetchParts(params, signal),
    // Paging and typing a search keep the previous cards on screen instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

/** The home page's Parts section: the server picks exactly the latest six. */
export const latestPartsQueryOptions = queryOptions({
  queryKey: partKeys.list({ sort: 'newest', limit: 6 }),
  queryFn: ({ signal }) => fetchParts({ sort: 'newest', limit: 6 }, signal),
});

export function partQueryOptions(id: string) {
  return queryOptions({
    queryKey: partKeys.detail(id),
    queryFn: ({ signal }) => api(`/part/${encodeURIComponent(id)}`, { schema: partSchema, signal }),
  });
}

export function createPart(input: PartInput): Promise<Part> {
  return api('/part', { method: 'POST', body: input, schema: partSchema });
}

export function updatePart(id: string, patch: PartPatch): Promise<Part> {
  return api(`/part/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch, schema: partSchema });
}

export async function deletePart(id: string): Promise<void> {
  await api(`/part/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
