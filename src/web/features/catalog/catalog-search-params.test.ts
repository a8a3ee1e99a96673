import { describe, expect, it } from 'vitest';
import { filterParams, limitedToVehicle, readCatalogSearch } from './catalog-search-params.ts';

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
