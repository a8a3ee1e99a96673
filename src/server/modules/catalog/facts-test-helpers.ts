import type { FactRow } from './part-facts.ts';

/** A part's facts for tests of the fact table: no brand or category, in stock, one moment, an empty document. */
export function factRow(id: string, overrides: Partial<FactRow> = {}): FactRow {
  return {
    id,
    categoryId: null,
    brandId: null,
    priceCents: 100,
    inStock: true,
    createdMicros: 1_000_000,
    universal: false,
    name: `Part ${id.slice(-4)}`,
    partNumbers: [],
    searchVector: '',
    ...overrides,
  };
}
