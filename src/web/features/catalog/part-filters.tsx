import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, Suspense, useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Offcanvas from 'react-bootstrap/Offcanvas';
import type { PartFacets } from '../../../shared/schemas/fitment.ts';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import type { CatalogSearch } from './catalog-search-params.ts';
import './part-filters.css';

type FilterChanges = Partial<
  Pick<CatalogSearch, 'category' | 'brand' | 'minPrice' | 'maxPrice' | 'inStock' | 'showAll'>
>;

interface PartFiltersProps {
  search: CatalogSearch;
  facets: UseQueryResult<PartFacets>;
  /** The current vehicle's label, when there is one: the 'fits my vehicle' filter is offered for it. */
  vehicleLabel: string | undefined;
  onChange(changes: FilterChanges): void;
  /** Phones and tablets: the filters open in a drawer. */
  show: boolean;
  onHide(): void;
}

/** How many filters are set, for the phone's 'Filters (2)' button. The vehicle limit is shown on its own. */
export function activeFilterCount(search: CatalogSearch): number {
  return [
    search.category,
    search.brand,
    search.minPrice !== undefined || search.maxPrice !== undefined ? 'price' : undefined,
    search.inStock ? 'stock' : undefined,
  ].filter(Boolean).length;
}

/**
 * The parts list's filters with their counts (GET /api/part/facets): fits my vehicle, category tree, brand, price
 * range, in stock only. Each choice goes into the URL at once. From the lg breakpoint up they stand beside the list;
 * below it they live in a drawer (a responsive Offcanvas) opened by the list's 'Filters' button.
 */
export function PartFilters({ search, facets, vehicleLabel, onChange, show, onHide }: PartFiltersProps) {
  return (
    <Offcanvas
      show={show}
      onHide={onHide}
      responsive="lg"
      placement="start"
      className="part-filters-drawer"
      aria-labelledby="part-filters-title"
    >
      <Offcanvas.Header closeButton>
        <Offcanvas.Title id="part-filters-title" as="h2" className="h5">
          Filters
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="d-block">
        <h2 className="h5 d-none d-lg-block">Filters</h2>
        {facets.isError ? (
          <LoadError error={facets.error} onRetry={() => void facets.refetch()} what="the filters" />
        ) : !facets.data ? (
          <LoadingSpinner label="Loading the filters" />
        ) : (
          <FilterControls search={search} facets={facets.data} vehicleLabel={vehicleLabel} onChange={onChange} />
        )}
        <Button variant="dark" className="w-100 d-lg-none mt-3" onClick={onHide}>
          {facets.data ? `Show ${facets.data.total} ${facets.data.total === 1 ? 'part' : 'parts'}` : 'Show parts'}
        </Button>
      </Offcanvas.Body>
    </Offcanvas>
  );
}

function FilterControls({
  search,
  facets,
  vehicleLabel,
  onChange,
}: {
  search: CatalogSearch;
  facets: PartFacets;
  vehicleLabel: string | undefined;
  onChange(changes: FilterChanges): void;
}) {
  const id = useId();
  // The URL (the truth) changes once the router's navigation settles; until then a click shows at once, so a radio
  // never flicks back for a moment. A new URL drops the guess.
  const urlKey = [search.category, search.brand, search.inStock, search.showAll].join('|');
  const [guess, setGuess] = useState<{ urlKey: string; changes: FilterChanges }>({ urlKey: '', changes: {} });
  const shown = guess.urlKey === urlKey ? { ...search, ...guess.changes } : search;
  const change = (changes: FilterChanges) => {
    setGuess({ urlKey, changes: { ...(guess.urlKey === urlKey ? guess.changes : {}), ...changes } });
    onChange(changes);
  };
  const depthOf = categoryDepths(facets.categories);
  const brands = facets.brands.some((brand) => brand.slug === shown.brand)
    ? facets.brands
    : shown.brand
      ? [...facets.brands, { slug: shown.brand, name: shown.brand, count: 0 }]
      : facets.brands;
  const anySet = activeFilterCount(shown) > 0;

  return (
    <div className="d-flex flex-column gap-3 part-filters">
      {vehicleLabel ? (
        <Form.Check
          type="switch"
          role="switch"
          id={`${id}-fits`}
          checked={!shown.showAll}
          onChange={(event) => change({ showAll: !event.target.checked })}
          label={
            <>
              Fits my {vehicleLabel} <Count n={facets.fits ?? 0} />
            </>
          }
        />
      ) : null}

      {/* Each group its own boundary: ~40 radio buttons are hydrated in short tasks, not one block (ADR 024). */}
      <Suspense fallback={null}>
        <fieldset>
          <legend className="h6 mb-2">Category</legend>
          <Form.Check
            type="radio"
            id={`${id}-category-all`}
            name={`${id}-category`}
            checked={!shown.category}
            onChange={() => change({ category: undefined })}
            label="All categories"
          />
          {facets.categories.map((category) => (
            <Form.Check
              key={category.slug}
              type="radio"
              id={`${id}-category-${category.slug}`}
              name={`${id}-category`}
              // A class, not a style attribute: the Content-Security-Policy refuses those in server-rendered HTML.
              className={`part-filter-option part-filter-depth-${Math.min(2, depthOf.get(category.slug) ?? 0)}`}
              checked={shown.category === category.slug}
              disabled={category.count === 0 && shown.category !== category.slug}
              onChange={() => change({ category: category.slug })}
              label={
                <>
                  {category.name} <Count n={category.count} />
                </>
              }
            />
          ))}
        </fieldset>
      </Suspense>

      <Suspense fallback={null}>
        <fieldset>
          <legend className="h6 mb-2">Brand</legend>
          <Form.Check
            type="radio"
            id={`${id}-brand-all`}
            name={`${id}-brand`}
            checked={!shown.brand}
            onChange={() => change({ brand: undefined })}
            label="All brands"
          />
          {brands.map((brand) => (
            <Form.Check
              key={brand.slug}
              type="radio"
              id={`${id}-brand-${brand.slug}`}
              name={`${id}-brand`}
              checked={shown.brand === brand.slug}
              onChange={() => change({ brand: brand.slug })}
              label={
                <>
                  {brand.name} <Count n={brand.count} />
                </>
              }
            />
          ))}
        </fieldset>
      </Suspense>

      <Suspense fallback={null}>
        <PriceRange
          idPrefix={id}
          minPrice={search.minPrice}
          maxPrice={search.maxPrice}
          bounds={facets.price}
          onApply={(minPrice, maxPrice) => change({ minPrice, maxPrice })}
        />
      </Suspense>

      <Suspense fallback={null}>
        <fieldset>
          <legend className="h6 mb-2">Availability</legend>
          <Form.Check
            type="checkbox"
            id={`${id}-in-stock`}
            checked={shown.inStock}
            onChange={(event) => change({ inStock: event.target.checked })}
            label={
              <>
                In stock only <Count n={facets.inStock} />
              </>
            }
          />
        </fieldset>
      </Suspense>

      {anySet ? (
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() =>
            change({
              category: undefined,
              brand: undefined,
              minPrice: undefined,
              maxPrice: undefined,
              inStock: false,
            })
          }
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}

function Count({ n }: { n: number }) {
  return <span className="text-body-secondary">({n})</span>;
}

/** Each category's depth in the tree, from the parent slugs (the facets come in tree order). */
function categoryDepths(categories: PartFacets['categories']): Map<string, number> {
  const depth = new Map<string, number>();
  for (const category of categories) {
    depth.set(category.slug, category.parentSlug ? (depth.get(category.parentSlug) ?? 0) + 1 : 0);
  }
  return depth;
}

function PriceRange({
  idPrefix,
  minPrice,
  maxPrice,
  bounds,
  onApply,
}: {
  idPrefix: string;
  minPrice: number | undefined;
  maxPrice: number | undefined;
  bounds: PartFacets['price'];
  onApply(minPrice: number | undefined, maxPrice: number | undefined): void;
}) {
  const [low, setLow] = useState(minPrice?.toString() ?? '');
  const [high, setHigh] = useState(maxPrice?.toString() ?? '');
  // Back/forward or 'Clear filters' changes the URL: the boxes follow.
  useEffect(() => setLow(minPrice?.toString() ?? ''), [minPrice]);
  useEffect(() => setHigh(maxPrice?.toString() ?? ''), [maxPrice]);
  const toNumber = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let min = toNumber(low);
    let max = toNumber(high);
    if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
    onApply(min, max);
  };
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend className="h6 mb-2">Price (USD)</legend>
        <div className="d-flex gap-2 align-items-end">
          {(
            [
              ['min', 'Lowest price', low, setLow, bounds.min === null ? '' : String(Math.floor(bounds.min))],
              ['max', 'Highest price', high, setHigh, bounds.max === null ? '' : String(Math.ceil(bounds.max))],
            ] as const
          ).map(([key, label, value, setValue, placeholder]) => (
            <Form.Group key={key} controlId={`${idPrefix}-${key}-price`} className="flex-fill">
              <Form.Label className="small mb-1">{label}</Form.Label>
              <Form.Control
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                size="sm"
                value={value}
                placeholder={placeholder}
                onChange={(event) => setValue(event.target.value)}
              />
            </Form.Group>
          ))}
        </div>
        <Button type="submit" variant="outline-dark" size="sm" className="mt-2">
          Apply price
        </Button>
      </fieldset>
    </form>
  );
}
