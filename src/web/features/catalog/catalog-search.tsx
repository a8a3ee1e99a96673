import { type FormEvent, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useSearchParams } from 'react-router';
import { type PartSort, partSortValues } from '../../../shared/part-order.ts';
import { paths } from '../../../shared/paths.ts';
import { type CatalogSearch, type PageCursor, readCatalogSearch } from './catalog-search-params.ts';
import { SearchCombobox, type SuggestionChoice } from './search-suggestions.tsx';

const sortLabels: Record<PartSort | 'oldest', string> = {
  oldest: 'Catalogue order',
  newest: 'Newest first',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  name: 'Name: A to Z',
};

type CatalogChanges = Partial<Omit<CatalogSearch, 'page' | 'cursor'>> & { page?: number; cursor?: PageCursor };

/** How each list setting is written in the URL; a default (empty, false) is left out. */
function urlValue(key: keyof CatalogSearch, value: CatalogSearch[keyof CatalogSearch]): string | undefined {
  if (key === 'showAll') return value ? 'false' : undefined;
  if (key === 'noFitment') return value ? 'none' : undefined;
  if (key === 'inStock') return value ? 'true' : undefined;
  if (key === 'q') return typeof value === 'string' ? value.trim() || undefined : undefined;
  return value === undefined || value === '' || value === false ? undefined : String(value);
}

const urlNames: Record<keyof CatalogSearch, string> = {
  q: 'q',
  sort: 'sort',
  page: 'page',
  category: 'category',
  brand: 'brand',
  minPrice: 'minPrice',
  maxPrice: 'maxPrice',
  inStock: 'inStock',
  showAll: 'fits',
  noFitment: 'fitment',
  cursor: 'after',
};

/**
 * The list state lives in the URL (?q=&sort=&page= and the filters, and after Next or Previous the page's cursor,
 * `after=` or `before=`), so a search can be shared, bookmarked and gone back to.
 */
export function useCatalogSearch() {
  const [params, setParams] = useSearchParams();
  const search = readCatalogSearch(params);
  const update = (changes: CatalogChanges) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes) as [keyof CatalogSearch, CatalogSearch[keyof CatalogSearch]][]) {
      if (key === 'page' || key === 'cursor') continue;
      const text = urlValue(key, value);
      if (text === undefined) next.delete(urlNames[key]);
      else next.set(urlNames[key], text);
    }
    // A new search, order or filter starts again at page 1.
    const filtersChanged = Object.keys(changes).some((key) => key !== 'page' && key !== 'cursor');
    const nextPage = changes.page ?? (filtersChanged ? 1 : search.page);
    if (nextPage > 1) next.set('page', String(nextPage));
    else next.delete('page');
    // A cursor belongs to the page it leads to (Next / Previous); any other change reads its page by offset.
    next.delete('after');
    next.delete('before');
    if (changes.cursor && nextPage > 1) next.set(changes.cursor.dir, changes.cursor.value);
    setParams(next);
  };
  return { ...search, search, update };
}

export function SearchBar({
  q,
  sort,
  onSearch,
  onSort,
  onSuggestion,
}: {
  q: string;
  sort: PartSort | undefined;
  onSearch(text: string): void;
  onSort(sort: PartSort | undefined): void;
  /** With it, the box suggests parts, categories and brands while typing; this receives the pick. */
  onSuggestion?(choice: SuggestionChoice): void;
}) {
  const [text, setText] = useState(q);
  // Back/forward or a link changes the URL: the box follows.
  useEffect(() => setText(q), [q]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // What the box holds, not the state: text typed before this part of the page was hydrated is in the box (React
    // keeps a field's value when it hydrates it) but not in `text` until the next keystroke.
    const typed = new FormData(event.currentTarget).get('q');
    onSearch(typeof typed === 'string' ? typed : text);
  };
  return (
    // A plain GET of the list before the app runs (the box is `q`, as in the list's address).
    <Form role="search" action={paths.parts} method="get" onSubmit={submit} className="mb-2">
      <Row className="g-2 align-items-end">
        <Col xs={12} md>
          <Form.Label htmlFor="parts-search">Search parts</Form.Label>
          <div className="d-flex gap-2">
            {onSuggestion ? (
              <SearchCombobox
                id="parts-search"
                name="q"
                value={text}
                placeholder="Name, brand, vehicle or part number"
                onChange={setText}
                onChoose={(choice) => {
                  if (choice.kind === 'search') setText(choice.text);
                  // A category or brand becomes a filter in place of the words that named it.
                  else if (choice.kind !== 'part') setText('');
                  onSuggestion(choice);
                }}
              />
            ) : (
              <Form.Control
                id="parts-search"
                name="q"
                type="search"
                value={text}
                maxLength={100}
                placeholder="Name, description or part number"
                onChange={(event) => setText(event.target.value)}
              />
            )}
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
                {/* Without a sort a search is ordered by relevance (ADR 012). */}
                {value === 'oldest' && q ? 'Best match' : sortLabels[value]}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Row>
    </Form>
  );
}
