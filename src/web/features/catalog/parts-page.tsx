import { useQuery } from '@tanstack/react-query';
import { type ReactElement, type ReactNode, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import type { Vehicle } from '../../../shared/schemas/fitment.ts';
import type { Part } from '../../../shared/schemas/parts.ts';
import { PartCard, PartCardSkeleton, PurchaseLink } from '../../components/part-card.tsx';
import { EmptyState, LoadError, SkeletonGrid } from '../../components/query-state.tsx';
import { useForgetVanishedVehicle } from '../../lib/current-vehicle.tsx';
import { useHydrated } from '../../lib/hydration.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { SearchBar, useCatalogSearch } from './catalog-search.tsx';
import {
  type CatalogSearch,
  catalogFacetsQueryOptions,
  catalogPageQueryOptions,
  limitedToVehicle,
  pageChange,
  pageCountOf,
} from './catalog-search-params.ts';
import { activeFilterCount, PartFilters } from './part-filters.tsx';
import { PartsPagination } from './parts-pagination.tsx';
import { SearchHelp } from './search-suggestions.tsx';

interface PartsPageProps {
  /** The shopper's current vehicle: the list then shows what fits it, unless they ask for all. */
  vehicle: Vehicle | null;
  /** False while the current vehicle is not known yet (a signed-in user's garage loading): the list waits. */
  vehicleReady: boolean;
  /** The vehicle selector, under the search (a boundary of its own, hydrated after the first pass). */
  vehiclePanel?: ReactElement | null;
  /** What each card says about fitting the current vehicle. */
  renderBadge?(part: Part): ReactNode;
}

/** /allparts (spec §2 Parts list), with the shopper's vehicle, filters and part-number search. */
export function PartsPage({ vehicle, vehicleReady, vehiclePanel, renderBadge }: PartsPageProps) {
  usePageTitle('Parts');
  const { search, update } = useCatalogSearch();
  const navigate = useNavigate();
  const { q, sort, page } = search;
  const vehicleId = vehicle?.id ?? null;
  const parts = useQuery({ ...catalogPageQueryOptions(search, vehicleId), enabled: vehicleReady });
  useForgetVanishedVehicle(parts.error);
  const facets = useQuery({ ...catalogFacetsQueryOptions(search, vehicleId), enabled: vehicleReady });
  const [showFilters, setShowFilters] = useState(false);
  const total = parts.data?.total ?? 0;
  const pageCount = pageCountOf(total);
  const limited = limitedToVehicle(search, vehicleId);
  const filtersSet = activeFilterCount(search);

  const goToPage = (next: number) => {
    // Next and Previous by the page's cursors; the placeholder (a page still loading) has none of its own.
    update(pageChange(page, next, parts.isPlaceholderData ? undefined : parts.data));
    window.scrollTo({ top: 0 });
  };

  return (
    <Container className="py-4">
      <h1 className="mb-3">Parts</h1>
      {/* The page's blocks are boundaries of their own, hydrated after the first pass in short tasks (ADR 024). */}
      <Suspense fallback={null}>
        <SearchBar
          q={q}
          sort={sort}
          onSearch={(text) => update({ q: text })}
          onSort={(next) => update({ sort: next })}
          onSuggestion={(choice) => {
            if (choice.kind === 'part') navigate(paths.part(choice.part._id));
            else if (choice.kind === 'search') update({ q: choice.text });
            // A category or brand picked is its filter, instead of the words that named it.
            else update({ q: '', [choice.kind]: choice.slug });
          }}
        />
      </Suspense>
      {/* Under the search, which a phone then shows on its first screen. */}
      {vehiclePanel ? <Suspense fallback={null}>{vehiclePanel}</Suspense> : null}
      {/* On a phone the filters' column above the list is empty (they open in a panel): no gutter for it. */}
      <Row className="gx-4 gy-0 gy-lg-4 mt-3 mt-lg-0">
        <Col lg={3}>
          {/* Behind a button on a phone, beside the list on a desktop; hydrated after the first pass. */}
          <Suspense fallback={null}>
            <PartFilters
              search={search}
              facets={facets}
              vehicleLabel={vehicle?.label}
              onChange={update}
              show={showFilters}
              onHide={() => setShowFilters(false)}
            />
          </Suspense>
        </Col>
        <Col lg={9}>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <FiltersButton count={filtersSet} onClick={() => setShowFilters(true)} />
            <p className="text-body-secondary small mb-0" aria-live="polite">
              {parts.isSuccess ? resultSummary(total, q, page, pageCount, parts.data.capped === true) : '\u00a0'}
            </p>
          </div>
          {vehicle ? (
            <VehicleScope
              vehicle={vehicle}
              limited={limited}
              onShowAll={() => update({ showAll: true })}
              onLimit={() => update({ showAll: false })}
            />
          ) : null}
          {parts.isError ? (
            <LoadError error={parts.error} onRetry={() => void parts.refetch()} what="the parts" />
          ) : parts.isPending ? (
            <SkeletonGrid xs={1} sm={2} xl={3} count={6} label="Loading parts" skeleton={<PartCardSkeleton />} />
          ) : parts.data.items.length === 0 ? (
            <NoParts
              search={search}
              limited={limited}
              vehicle={vehicle}
              update={update}
              onFirstPage={() => goToPage(1)}
            />
          ) : (
            <>
              <Row xs={1} sm={2} xl={3} className={`g-4 ${parts.isPlaceholderData ? 'opacity-50' : ''}`}>
                {/* The page's largest hydration: a boundary per card. */}
                {parts.data.items.map((part, index) => (
                  <Suspense key={part._id} fallback={null}>
                    <Col>
                      <PartCard part={part} priority={index < 3} badge={renderBadge?.(part)}>
                        <PurchaseLink part={part} />
                      </PartCard>
                    </Col>
                  </Suspense>
                ))}
              </Row>
              <PartsPagination page={page} pageCount={pageCount} onPage={goToPage} />
            </>
          )}
        </Col>
      </Row>
    </Container>
  );
}

/** Says whose parts the list shows, with the one click that switches ('show all'). */
function VehicleScope({
  vehicle,
  limited,
  onShowAll,
  onLimit,
}: {
  vehicle: Vehicle;
  limited: boolean;
  onShowAll(): void;
  onLimit(): void;
}) {
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 border rounded bg-white px-3 py-2 mb-3">
      {limited ? (
        <>
          <span>
            Showing parts that fit your <strong>{vehicle.label}</strong>, and universal parts.
          </span>
          <Button variant="link" className="p-0 ms-sm-auto" onClick={onShowAll}>
            Show all parts
          </Button>
        </>
      ) : (
        <>
          <span>Showing all parts.</span>
          <Button variant="link" className="p-0 ms-sm-auto" onClick={onLimit}>
            Only parts that fit my {vehicle.label}
          </Button>
        </>
      )}
    </div>
  );
}

function NoParts({
  search,
  limited,
  vehicle,
  update,
  onFirstPage,
}: {
  search: CatalogSearch;
  limited: boolean;
  vehicle: Vehicle | null;
  update: ReturnType<typeof useCatalogSearch>['update'];
  onFirstPage(): void;
}) {
  const { q, page } = search;
  if (page > 1) {
    return (
      <EmptyState>
        <p className="mb-3">There are no parts on this page.</p>
        <Button variant="outline-dark" onClick={onFirstPage}>
          Go to the first page
        </Button>
      </EmptyState>
    );
  }
  if (activeFilterCount(search) > 0) {
    return (
      <EmptyState>
        <p className="mb-3">No parts match these filters{q ? ` and “${q}”` : ''}.</p>
        <Button
          variant="outline-dark"
          onClick={() =>
            update({ category: undefined, brand: undefined, minPrice: undefined, maxPrice: undefined, inStock: false })
          }
        >
          Clear filters
        </Button>
      </EmptyState>
    );
  }
  if (q) {
    return (
      <EmptyState>
        <p className="mb-3">
          No parts match “{q}”{limited && vehicle ? ` for your ${vehicle.label}` : ''}.
        </p>
        {/* With a vehicle, 'Show all parts' is the banner's: this one only clears the search. */}
        <Button variant="outline-dark" onClick={() => update({ q: '' })}>
          {limited ? 'Clear the search' : 'Show all parts'}
        </Button>
        <SearchHelp q={q} onSearch={(text) => update({ q: text })} />
      </EmptyState>
    );
  }
  if (limited && vehicle) {
    return (
      <EmptyState>
        <p className="mb-0">No parts for your {vehicle.label} yet. 'Show all parts' lists everything we have.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState>
      <p className="mb-0">No parts in the catalogue yet. Please check back soon.</p>
    </EmptyState>
  );
}

function resultSummary(total: number, q: string, page: number, pageCount: number, capped: boolean): string {
  // A broad search ranks its best 1,000 matches (ADR 012): the total is then "at least".
  const what = `${total}${capped ? '+' : ''} ${total === 1 ? 'part' : 'parts'}${q ? ` matching “${q}”` : ''}`;
  return pageCount > 1 ? `${what}, page ${page} of ${pageCount}` : what;
}

/** On a phone, opens the filters: only with the app, so disabled until hydrated (a component of its own, so only it
 * renders again then). */
function FiltersButton({ count, onClick }: { count: number; onClick(): void }) {
  const hydrated = useHydrated();
  return (
    <Button variant="outline-dark" className="d-lg-none" disabled={!hydrated} onClick={onClick}>
      Filters{count > 0 ? ` (${count})` : ''}
    </Button>
  );
}
