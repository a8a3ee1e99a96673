import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../shared/cursor.ts';
import { filterParams, limitedToVehicle, pageChange, readCatalogSearch } from './catalog-search-params.ts';

const read = (query: string) => readCatalogSearch(new URLSearchParams(query));
const VEHICLE = '5f0c7c8e-2d0a-4c1e-9a57-3b8f0b1c2d3e';

describe('readCatalogSearch', () => {
  it('reads every filter under the API’s own names', () => {
    expect(read('q=kmc+520&category=brake-pads&brand=ebc&minPrice=10&maxPrice=99.5&inStock=true&page=2')).toEqual({
      q: 'kmc 520',
      sort: undefined,
      page: 2,
      category: 'brake-pads',
      brand: 'ebc',
      minPrice: 10,
      maxPrice: 99.5,
      inStock: true,
      showAll: false,
      noFitment: false,
    });
  });

  it('turns a hand-edited URL into a request the API accepts', () => {
    const search = read('category=Not%20A%20Slug&brand=-x&minPrice=abc&maxPrice=-3&inStock=yes&fitment=some');
    expect(search).toMatchObject({ category: undefined, brand: undefined, minPrice: undefined, maxPrice: undefined });
    expect(search).toMatchObject({ inStock: false, noFitment: false });
    // A lowest price above the highest would be refused (400): the two were typed the wrong way round.
    expect(read('minPrice=50&maxPrice=20')).toMatchObject({ minPrice: 20, maxPrice: 50 });
  });
});

describe('the vehicle limit', () => {
  it('is on by default with a vehicle, off with fits=false or without a vehicle', () => {
    expect(limitedToVehicle(read(''), VEHICLE)).toBe(true);
    expect(limitedToVehicle(read('fits=false'), VEHICLE)).toBe(false);
    expect(limitedToVehicle(read(''), null)).toBe(false);
    expect(filterParams(read(''), VEHICLE)).toMatchObject({ vehicle: VEHICLE, fits: 'true' });
    expect(filterParams(read('fits=false'), VEHICLE)).toMatchObject({ vehicle: VEHICLE, fits: undefined });
  });

  it('never sends fits without a vehicle (the API answers 400)', () => {
    expect(filterParams(read('fits=true'), null)).toMatchObject({ vehicle: undefined, fits: undefined });
  });
});

describe('cursor paging (issue 15)', () => {
  const priceCursor = encodeCursor({ o: 'price_asc', k: 1000, i: '00000000-0000-4000-8000-000000000000' });
  const catalogueCursor = encodeCursor({ o: 'catalogue', k: '2026-01-01T00:00:00.000000Z', i: VEHICLE });

  it('reads the cursor of a page from the URL when the API would accept it for that list', () => {
    expect(read(`sort=price_asc&page=3&after=${priceCursor}`).cursor).toEqual({ dir: 'after', value: priceCursor });
    expect(read(`page=2&before=${catalogueCursor}`).cursor).toEqual({ dir: 'before', value: catalogueCursor });
    // Another order's cursor, a broken one, one on page 1, or one on a search by relevance: read by offset instead.
    expect(read(`page=3&after=${priceCursor}`).cursor).toBeUndefined();
    expect(read('sort=price_asc&page=3&after=xyz').cursor).toBeUndefined();
    expect(read(`sort=price_asc&after=${priceCursor}`).cursor).toBeUndefined();
    expect(read(`q=chain&page=2&after=${catalogueCursor}`).cursor).toBeUndefined();
  });

  it('goes Next and Previous by the current page’s cursors, and to a picked page or page 1 by offset', () => {
    const current = { nextCursor: 'N', prevCursor: 'P' };
    expect(pageChange(4, 5, current)).toEqual({ page: 5, cursor: { dir: 'after', value: 'N' } });
    expect(pageChange(4, 3, current)).toEqual({ page: 3, cursor: { dir: 'before', value: 'P' } });
    expect(pageChange(2, 1, current)).toEqual({ page: 1 });
    expect(pageChange(4, 9, current)).toEqual({ page: 9 });
    expect(pageChange(4, 5, { nextCursor: null, prevCursor: null })).toEqual({ page: 5 });
    expect(pageChange(4, 5, undefined)).toEqual({ page: 5 });
  });
});
