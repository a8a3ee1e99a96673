import { type FormEvent, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useSearchParams } from 'react-router';
import { type PartSort, partSortValues } from '../../../shared/schemas/parts.ts';
import { readCatalogSearch } from './catalog-search-params.ts';

const sortLabels: Record<PartSort | 'oldest', string> = {
  oldest: 'Catalogue order',
  newest: 'Newest first',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  name: 'Name: A to Z',
};

/** The list state lives in the URL (?q=&sort=&page=), so a search can be shared, bookmarked and gone back to. */
export function useCatalogSearch() {
  const [params, setParams] = useSearchParams();
  const { q, sort, page } = readCatalogSearch(params);
  const update = (changes: { q?: string; sort?: PartSort | undefined; page?: number }) => {
    const next = new URLSearchParams(params);
    const apply = (key: string, value: string | undefined) => {
      if (value) next.set(key, value);
      else next.delete(key);
    };
    if ('q' in changes) apply('q', changes.q?.trim());
    if ('sort' in changes) apply('sort', changes.sort);
    // A new search or order starts again at page 1.
    const nextPage = changes.page ?? ('q' in changes || 'sort' in changes ? 1 : page);
    apply('page', nextPage > 1 ? String(nextPage) : undefined);
    setParams(next);
  };
  return { q, sort, page, update };
}

export function SearchBar({
  q,
  sort,
  onSearch,
  onSort,
}: {
  q: string;
  sort: PartSort | undefined;
  onSearch(text: string): void;
  onSort(sort: PartSort | undefined): void;
}) {
  const [text, setText] = useState(q);
  // Back/forward or a link changes the URL: the box follows.
  useEffect(() => setText(q), [q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };
  return (
    <Form role="search" onSubmit={submit} className="mb-2">
      <Row className="g-2 align-items-end">
        <Col xs={12} md>
          <Form.Label htmlFor="parts-search">Search parts</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control
              id="parts-search"
              type="search"
              value={text}
              maxLength={100}
              placeholder="Name or description, e.g. brake"
              onChange={(event) => setText(event.target.value)}
            />
            <Button type="submit" variant="dark">
              Search
            </Button>
          </div>
        </Col>
        <Col xs={12} md="auto">
          <Form.Label htmlFor="parts-sort">Sort by</Form.Label>
          <Form.Select
            id="parts-sort"
            value={sort ?? 'oldest'}
            onChange={(event) => {
              const value = event.target.value;
              onSort(partSortValues.find((v) => v === value));
            }}
          >
            {(['oldest', ...partSortValues] as const).map((value) => (
              <option key={value} value={value}>
                {sortLabels[value]}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Row>
    </Form>
  );
}
