import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { PartCard, PartCardSkeleton, PurchaseLink } from '../../components/part-card.tsx';
import { EmptyState, LoadError, SkeletonGrid } from '../../components/query-state.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { SearchBar, useCatalogSearch } from './catalog-search.tsx';
import { catalogPageQueryOptions, pageCountOf } from './catalog-search-params.ts';
import { PartsPagination } from './parts-pagination.tsx';

export function Component() {
  usePageTitle('Parts');
  const { q, sort, page, update } = useCatalogSearch();
  const parts = useQuery(catalogPageQueryOptions({ q, sort, page }));
  const total = parts.data?.total ?? 0;
  const pageCount = pageCountOf(total);

  const goToPage = (next: number) => {
    update({ page: next });
    window.scrollTo({ top: 0 });
  };

  return (
    <Container className="py-4">
      <h1 className="mb-3">Parts</h1>
      <SearchBar q={q} sort={sort} onSearch={(text) => update({ q: text })} onSort={(next) => update({ sort: next })} />
      <p className="text-body-secondary small" aria-live="polite">
        {parts.isSuccess ? resultSummary(total, q, page, pageCount) : '\u00a0'}
      </p>
      {parts.isError ? (
        <LoadError error={parts.error} onRetry={() => void parts.refetch()} what="the parts" />
      ) : parts.isPending ? (
        <SkeletonGrid xs={1} sm={2} lg={3} xl={4} count={8} label="Loading parts" skeleton={<PartCardSkeleton />} />
      ) : parts.data.items.length === 0 ? (
        <EmptyState>
          {q ? (
            <>
              <p className="mb-3">No parts match “{q}”.</p>
              <Button variant="outline-dark" onClick={() => update({ q: '' })}>
                Show all parts
              </Button>
            </>
          ) : page > 1 ? (
            <>
              <p className="mb-3">There are no parts on this page.</p>
              <Button variant="outline-dark" onClick={() => goToPage(1)}>
                Go to the first page
              </Button>
            </>
          ) : (
            <p className="mb-0">No parts in the catalogue yet. Please check back soon.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <Row xs={1} sm={2} lg={3} xl={4} className={`g-4 ${parts.isPlaceholderData ? 'opacity-50' : ''}`}>
            {parts.data.items.map((part, index) => (
              <Col key={part._id}>
                <PartCard part={part} priority={index < 4}>
                  <PurchaseLink part={part} />
                </PartCard>
              </Col>
            ))}
          </Row>
          <PartsPagination page={page} pageCount={pageCount} onPage={goToPage} />
        </>
      )}
    </Container>
  );
}

function resultSummary(total: number, q: string, page: number, pageCount: number): string {
  const what = `${total} ${total === 1 ? 'part' : 'parts'}${q ? ` matching “${q}”` : ''}`;
  return pageCount > 1 ? `${what}, page ${page} of ${pageCount}` : what;
}
