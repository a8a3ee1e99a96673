import type { CursorOrder } from './cursor-codec.ts';

/*
 * The parts list's orders (`GET /api/part?sort=`), without zod: the parts list reads them from the address before
 * its first render (ADR 021). schemas/parts.ts builds the query's schema from them and re-exports them.
 */

export const partSortValues = ['newest', 'price_asc', 'price_desc', 'name'] as const;
export type PartSort = (typeof partSortValues)[number];

/**
 * The cursor order of a list query: its sort, or the catalogue order without one. A search without a sort is ordered
 * by relevance, which pages by offset only (its candidates are capped at 1,000 anyway, ADR 012).
 */
export function partCursorOrder(query: {
  sort?: PartSort | undefined;
  q?: string | undefined;
}): CursorOrder | undefined {
  if (query.sort) return query.sort;
  return query.q ? undefined : 'catalogue';
}
