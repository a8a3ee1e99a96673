import { createHash } from 'node:crypto';
import { and, asc, count, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CursorOrder, CursorPayload } from '../../../shared/cursor.ts';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { PartSort } from '../../../shared/schemas/parts.ts';
import type { Database, Transaction } from '../../db/client.ts';
import {
  type KeyColumn,
  type KeysetDirection,
  keysetBeyond,
  keysetOrder,
  keysetPage,
  type Page,
  withPage,
} from '../../db/paging.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { brands, categories, parts } from '../../db/schema.ts';
import type { PartFitmentPort } from './part-fitment-port.ts';
import {
  CLOSE_ENOUGH,
  hasLetterOrDigit,
  namesIt,
  rankedCandidates,
  relevance,
  SEARCH_CANDIDATES,
  type SearchPlan,
  type SearchWord,
  searchCondition,
  searchWords,
} from './part-search.ts';
import { partSearch, partSearchWords } from './search-schema.ts';

/** The generated search document stays in the database: no reader needs it. */
type PartColumns = Omit<typeof parts.$inferSelect, 'searchVector'>;
/** A part with its brand and category (a category's parent is the only other level of the tree). */
export interface PartRow extends PartColumns {
  brandSlug: string | null;
  brandName: string | null;
  categorySlug: string | null;
  categoryName: string | null;
  parentCategoryName: string | null;
  /** Only when the list was asked to mark fit for a vehicle (else null): its fitment rows match it (universal aside). */
  fitsVehicle: boolean | null;
  /** `created_at` to the microsecond, as a cursor holds it (a Date has milliseconds only). */
  createdAtKey: string;
}
type NewPartRow = typeof parts.$inferInsert;

/** A part as a cart line shows it and the order rule checks it. */
export interface OrderablePartView {
  id: string;
  name: string;
  img: string;
  priceCents: number;
  minimumOrder: number;
  availableQuantity: number;
}
export type PartChanges = Partial<
  Pick<
    PartColumns,
    | 'name'
    | 'description'
    | 'img'
    | 'priceCents'
    | 'availableQuantity'
    | 'minimumOrder'
    | 'mpn'
    | 'oemNumbers'
    | 'partNumbers'
    | 'universal'
    | 'brandId'
    | 'categoryId'
  >
>;

/**
 * What a list of parts may be narrowed by. Each field needs its SQL condition in `conditionsOf` below (the type
 * insists), and any field that is set sends the list down the counted path: only the empty filter may report the
 * whole catalogue's size.
 */
export interface PartFilter {
  /**
   * Search (ADR 012): full text over name, MPN and description, the name by trigrams (typos), brand, category and the
   * makes and models a part fits by name, part numbers in any spelling; symbols as substrings, LIKE wildcards
   * literally. Without a sort the list is ordered by relevance.
   */
  q?: string | undefined;
  /** A vehicle id: parts whose fitment matches it, and universal parts. */
  fitsVehicle?: string | undefined;
  /** A category slug: parts of it and of its subcategories. */
  category?: string | undefined;
  /** A brand slug. */
  brand?: string | undefined;
  minPriceCents?: number | undefined;
  maxPriceCents?: number | undefined;
  /** Parts that can be ordered now (at least their minimum order in stock). */
  inStock?: true | undefined;
  /** Parts that are not universal and have no fitment row yet (Manage Products). */
  withoutFitment?: true | undefined;
}

/** The facet filters: each facet is counted under every filter but its own. */
const FACET_KEYS = ['category', 'brand', 'price', 'inStock'] as const;
type FacetKey = (typeof FACET_KEYS)[number];

export interface FacetCounts {
  categories: Map<string, number>;
  brands: { slug: string; name: string; count: number }[];
  price: { min: number | null; max: number | null };
  inStock: number;
  total: number;
  fits: number | null;
}

interface PartPage extends Page {
  sort?: PartSort | undefined;
  /** Keyset paging (ADR 017): the page after, or before, this position of the list's order (not with `offset`). */
  after?: CursorPayload | undefined;
  before?: CursorPayload | undefined;
}

/** A list order that pages by cursor: the sorts, and the catalogue order of the unsorted list (not relevance). */
type KeyedOrder = Exclude<CursorOrder, 'orders' | 'users'>;

/** The columns an order is made of: the table's, or the facet statement's `scoped` rows. */
interface OrderColumns {
  createdAt: SQL;
  id: SQL;
  priceCents: SQL;
  name: SQL;
}
const tableColumns: OrderColumns = {
  createdAt: sql`${parts.createdAt}`,
  id: sql`${parts.id}`,
  priceCents: sql`${parts.priceCents}`,
  name: sql`${parts.name}`,
};
const scopedColumns: OrderColumns = {
  createdAt: sql`created_at`,
  id: sql`id`,
  priceCents: sql`price_cents`,
  name: sql`name`,
};

/**
 * Each order matches an index exactly, NULLS placement included: Postgres does not use NOT NULL to relax it, and a
 * mismatch (plain DESC is NULLS FIRST, the index is DESC NULLS LAST) turns a 24-row index scan into a full sort.
 * `parts_created_at_idx` is (created_at DESC NULLS LAST, id DESC NULLS LAST); scanned backwards it gives the
 * catalogue order (ASC NULLS FIRST). `parts_price_idx` (price_cents, id) and `parts_name_idx` (name, id) are plain
 * ASC (NULLS LAST); their backward scans are DESC NULLS FIRST. The id in each is the tie-breaker a cursor needs.
 */
function keysOf(order: KeyedOrder, c: OrderColumns): KeyColumn[] {
  const both = (key: SQL, dir: 'asc' | 'desc', nulls: 'first' | 'last'): KeyColumn[] => [
    { expr: key, dir, nulls },
    { expr: c.id, dir, nulls },
  ];
  switch (order) {
    case 'catalogue':
      return both(c.createdAt, 'asc', 'first');
    case 'newest':
      return both(c.createdAt, 'desc', 'last');
    case 'price_asc':
      return both(c.priceCents, 'asc', 'last');
    case 'price_desc':
      return both(c.priceCents, 'desc', 'first');
    case 'name':
      return both(c.name, 'asc', 'last');
  }
}

/** A cursor's position as SQL values, cast to the key's type. */
function positionOf(cursor: CursorPayload): SQL[] {
  const key =
    cursor.o === 'price_asc' || cursor.o === 'price_desc'
      ? sql`${cursor.k}::int`
      : cursor.o === 'name'
        ? sql`${cursor.k}::text`
        : sql`${cursor.k}::timestamptz`;
  return [key, sql`${cursor.i}::uuid`];
}

/** A row's position in an order, as a cursor names it. */
function cursorOf(order: KeyedOrder, row: PartRow): CursorPayload {
  switch (order) {
    case 'catalogue':
    case 'newest':
      return { o: order, k: row.createdAtKey, i: row.id };
    case 'price_asc':
    case 'price_desc':
      return { o: order, k: row.priceCents, i: row.id };
    case 'name':
      return { o: order, k: row.name, i: row.id };
  }
}

/** How a list reads its page: the order as keys (none for relevance), and the cursor's position in it, if any. */
interface PagePlan {
  keyed: KeyedOrder | undefined;
  direction: KeysetDirection;
  position: CursorPayload | undefined;
  /** The page size asked for; one row more is read to know whether there is a next (or previous) page. */
  limit: number | undefined;
  offset: number;
}

function planOf(page: PartPage, search: SearchPlan | undefined): PagePlan {
  const position = page.after ?? page.before;
  const keyed: KeyedOrder | undefined = page.sort ?? (search ? undefined : 'catalogue');
  // The query schema refuses a cursor of another order; a relevance order has no keys (ADR 012: capped, offset).
  if (position && position.o !== keyed) throw new Error('a cursor of another order reached the repository');
  return {
    keyed,
    direction: page.before ? 'backward' : 'forward',
    position,
    limit: page.limit,
    offset: page.offset ?? 0,
  };
}

const readLimit = (plan: PagePlan) => (plan.limit === undefined ? undefined : plan.limit + 1);

/**
 * The facet statement's shape without a search: what decides its TEXT (which filters are set, how the fit is asked,
 * the page's order, direction, cursor and offset) as `key`, the same request with every value a placeholder, and
 * the values by placeholder name. Placeholders stand in for values only inside `sql` templates, so the casts below
 * never reach code that reads the value.
 */
function facetShape(filter: PartFilter, fitsFor: string | undefined, page: PagePlan | undefined) {
  const values: Record<string, unknown> = {};
  const slot = <T>(name: string, value: T): T => {
    values[name] = value;
    return sql.placeholder(name) as unknown as T;
  };
  const shaped: PartFilter = {};
  const key: string[] = [];
  for (const name of Object.keys(conditionOf) as (keyof PartFilter)[]) {
    const value = filter[name];
    if (value === undefined) continue;
    key.push(name);
    // `true` flags carry no value: the condition is the same for every request that sets them.
    (shaped as Record<string, unknown>)[name] = value === true ? true : slot(name, value);
  }
  // "Fits the vehicle filtered on" is a different statement from "fits another vehicle" (see #facetStatement).
  let shapedFitsFor: string | undefined;
  if (fitsFor !== undefined && fitsFor === filter.fitsVehicle) {
    shapedFitsFor = shaped.fitsVehicle;
    key.push('fits=filter');
  } else if (fitsFor !== undefined) {
    shapedFitsFor = slot('fitsFor', fitsFor);
    key.push('fits=other');
  }
  let shapedPage: PagePlan | undefined;
  if (page) {
    const position = page.position
      ? ({
          ...page.position,
          k: slot('positionKey', page.position.k),
          i: slot('positionId', page.position.i),
        } as CursorPayload)
      : undefined;
    shapedPage = { ...page, position };
    key.push(
      `page:${page.keyed ?? 'relevance'}:${page.direction}:${position ? 'cursor' : ''}:${page.limit === undefined ? '' : 'limit'}:${page.offset > 0 ? 'offset' : ''}`,
    );
    values.limit = readLimit(page);
    values.offset = page.offset;
  }
  return {
    key: key.join('|'),
    filter: shaped,
    fitsFor: shapedFitsFor,
    page: shapedPage,
    pageSlots: {
      limit: sql.placeholder('limit') as unknown as SQL,
      offset: sql.placeholder('offset') as unknown as SQL,
    },
    values,
  };
}

/** A page as read → its rows (in the list's order) and the cursors of the pages beside it. */
function finishPage(plan: PagePlan, read: PartRow[]): { rows: PartRow[]; next?: CursorPayload; prev?: CursorPayload } {
  const { keyed } = plan;
  return keysetPage(
    read,
    { limit: plan.limit, direction: plan.direction, afterSomething: plan.position !== undefined || plan.offset > 0 },
    keyed ? (row) => cursorOf(keyed, row) : undefined,
  );
}

const oldestFirst = keysetOrder(keysOf('catalogue', tableColumns));
/** Relevance over the facet statement's `scoped` rows (`PartRepository.listWithFacets`); the sorts are `keysOf`. */
const scopedRelevance = sql`rank desc, created_at asc nulls first, id asc nulls first`;

/** The part's own category and its parent, joined for its labels. */
const partCategory = alias(categories, 'part_category');
const partParentCategory = alias(categories, 'part_parent_category');

const inStock = sql`(${parts.availableQuantity} > 0 and ${parts.availableQuantity} >= ${parts.minimumOrder})`;

/** The ids of the parts that fit a vehicle: its fitment rows' parts and every universal part. */
function partIdsFitting(vehicleId: string, fitment: PartFitmentPort): SQL {
  return sql`${fitment.partIdsFitting(vehicleId)} union all select universal_parts.id from ${parts} universal_parts where universal_parts.universal`;
}

/**
 * Each filter field's condition and its group: `scope` narrows what is counted at all; the facet groups are left out
 * of their own facet's count. The type insists that every field has one. The SQL pieces of fitment come from the
 * fitment module's port; the catalogue never names its tables (ADR 010).
 */
const conditionOf: {
  [K in keyof PartFilter]-?: {
    group: 'scope' | FacetKey;
    sql: (value: NonNullable<PartFilter[K]>, fitment: PartFitmentPort, search: SearchPlan | undefined) => SQL;
  };
} = {
  q: {
    group: 'scope',
    // The plan is made from this very `q` before the statement is built (PartRepository.#plan).
    sql: (_q, _fitment, search) => (search ? searchCondition(search) : sql`false`),
  },
  fitsVehicle: {
    group: 'scope',
    // One IN over a UNION rather than "universal OR id IN (…)": an OR cannot become a join, so it would read every
    // part; this reads the vehicle's fitment rows from their index and the universal parts from theirs.
    sql: (vehicleId, fitment) => sql`${parts.id} in (${partIdsFitting(vehicleId, fitment)})`,
  },
  withoutFitment: {
    group: 'scope',
    sql: (_set, fitment) => sql`(not ${parts.universal} and not ${fitment.hasFitment(parts.id)})`,
  },
  category: {
    group: 'category',
    sql: (slug) =>
      sql`${parts.categoryId} in (select own.id from ${categories} own where own.slug = ${slug} union all select sub.id from ${categories} sub inner join ${categories} super on super.id = sub.parent_id where super.slug = ${slug})`,
  },
  brand: {
    group: 'brand',
    sql: (slug) => sql`${parts.brandId} in (select ${brands.id} from ${brands} where ${brands.slug} = ${slug})`,
  },
  minPriceCents: { group: 'price', sql: (cents) => sql`${parts.priceCents} >= ${cents}` },
  maxPriceCents: { group: 'price', sql: (cents) => sql`${parts.priceCents} <= ${cents}` },
  inStock: { group: 'inStock', sql: () => inStock },
};

/** Only a search is asked for: no other filter field is set. */
function onlySearch(filter: PartFilter): boolean {
  return (Object.keys(conditionOf) as (keyof PartFilter)[]).every((key) => key === 'q' || filter[key] === undefined);
}

/** The filter's conditions by group. */
function conditionsOf(
  filter: PartFilter,
  fitment: PartFitmentPort,
  search: SearchPlan | undefined,
): Record<'scope' | FacetKey, SQL[]> {
  const groups: Record<'scope' | FacetKey, SQL[]> = { scope: [], category: [], brand: [], price: [], inStock: [] };
  for (const key of Object.keys(conditionOf) as (keyof PartFilter)[]) {
    const value = filter[key];
    if (value === undefined) continue;
    const condition = conditionOf[key] as {
      group: 'scope' | FacetKey;
      sql: (v: unknown, f: PartFitmentPort, s: SearchPlan | undefined) => SQL;
    };
    groups[condition.group].push(condition.sql(value, fitment, search));
  }
  return groups;
}

/** The filter as one WHERE condition; undefined exactly when no field of the filter is set. */
function whereOf(filter: PartFilter, fitment: PartFitmentPort, search: SearchPlan | undefined): SQL | undefined {
  const conditions = Object.values(conditionsOf(filter, fitment, search)).flat();
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** `matches` is the filtered list's total (a window count), null elsewhere. */
type ListColumns = typeof partWithLabels & { fitsVehicle: SQL<boolean | null>; matches: SQL<number | null> };

const { searchVector: _searchVector, ...partColumns } = getTableColumns(parts);
const partWithLabels = {
  ...partColumns,
  brandSlug: brands.slug,
  brandName: brands.name,
  categorySlug: partCategory.slug,
  categoryName: partCategory.name,
  parentCategoryName: partParentCategory.name,
  createdAtKey: sql<string>`to_char(${parts.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

/**
 * The number of parts in the WHOLE catalogue, reused for a few seconds. Every paged list reports X-Total-Count, and
 * count(*) over the whole table is the one part of an unfiltered list request that grows with the catalogue. It is
 * the answer for the empty filter only: a filtered list counts its own matches and must never fall back on this, or
 * it would announce the whole catalogue. This instance's own inserts and deletes forget it at once; another
 * instance's are seen within TTL_MS (it only sizes the page control).
 */
class UnfilteredCatalogueCount {
  static readonly TTL_MS = 5_000;
  readonly #countAll: () => Promise<number>;
  #cached: { value: number; expires: number } | undefined;

  constructor(countAll: () => Promise<number>) {
    this.#countAll = countAll;
  }

  async get(): Promise<number> {
    const cached = this.#cached;
    if (cached && cached.expires > Date.now()) return cached.value;
    const value = await this.#countAll();
    this.remember(value);
    return value;
  }

  /** An unfiltered list that saw the end of the catalogue knows its size exactly. */
  remember(value: number): void {
    this.#cached = { value, expires: Date.now() + UnfilteredCatalogueCount.TTL_MS };
  }

  forget(): void {
    this.#cached = undefined;
  }
}

/**
 * What one run of words of a search is (`PartRepository.#plan`): a single word, or up to VEHICLE_WORDS words side by
 * side, and the vehicle models it names (typed: as the start of a name too). A single word also says whether it has
 * an English stem, whether the catalogue's full text knows it, the catalogue's words it is probably a typo of, and
 * the brands and categories it (or those words) names.
 */
interface SpanFacts {
  /** Positions of its first and last word in the search, from 1. */
  first: number;
  last: number;
  text: string;
  models: string[];
  modelsTyped: string[];
  stem: boolean;
  known: boolean;
  fixes: string[];
  brands: string[];
  brandsTyped: string[];
  categories: string[];
  categoriesTyped: string[];
}

/** One word as part-search.ts matches it, from its facts (`typed`: the word still being typed). */
function wordOf(facts: SpanFacts, models: string[], typed: boolean): SearchWord {
  return {
    text: facts.text,
    kind: 'word',
    known: facts.known,
    fixes: facts.fixes,
    models,
    brands: typed ? facts.brandsTyped : facts.brands,
    categories: typed ? facts.categoriesTyped : facts.categories,
  };
}

/** A search's runs of words, and the model of the vehicle its list is limited to (null: none). */
interface SearchFacts {
  spans: SpanFacts[];
  vehicleModel: string | null;
}

/** At most this many words side by side name one vehicle ("yamaha mt 07"). */
const VEHICLE_WORDS = 3;
/** Trigram similarity from which a catalogue word counts as what a word the full text does not know meant. */
const TYPO_OF = 0.4;
/** At most this many catalogue words stand in for one typo, the likest first. */
const TYPO_FIXES = 3;

/**
 * The facts of a search's words remembered per instance for TTL_MS, so a popular search is one statement rather
 * than two. A stem never changes; a brand, category, vehicle or catalogue word added or renamed meanwhile is seen by
 * a search within TTL_MS.
 */
class SpanFactsMemory {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 5_000;
  readonly #entries = new Map<string, { facts: SearchFacts; expires: number }>();

  get(key: string): SearchFacts | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > Date.now()) return entry.facts;
    this.#entries.delete(key);
    return undefined;
  }

  remember(key: string, facts: SearchFacts): void {
    if (this.#entries.size >= SpanFactsMemory.MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { facts, expires: Date.now() + SpanFactsMemory.TTL_MS });
  }
}

/** Brand names become slugs for URLs: "Brembo" → "brembo", "SBS Friction" → "sbs-friction". */
export function brandSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  // A name of no Latin letters or digits still needs a stable slug.
  return slug || `brand-${[...name].reduce((h, c) => (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0, 7).toString(36)}`;
}

interface PartPageOptions extends PartPage {
  /** Mark each row's `fitsVehicle` for this vehicle (its fitment rows match it). */
  markFitFor?: string | undefined;
}

/** One page of a list: its rows, the filter's total, and where the pages beside it start (keyed orders only). */
export interface PartListResult {
  rows: PartRow[];
  total: number;
  capped: boolean;
  next?: CursorPayload;
  prev?: CursorPayload;
}

/** What the search box offers while a shopper types (`PartRepository.suggest`). */
export interface SearchSuggestions {
  /** The best matches of the search; or, when nothing matches, the parts whose names are closest to it. */
  parts: PartRow[];
  /** True when `parts` are the closest names rather than matches. */
  closest: boolean;
  categories: { slug: string; name: string }[];
  brands: { slug: string; name: string }[];
  /** When nothing matches: the brand, category, make, model or part name most like the search. */
  correction: string | null;
}

/** One row of the facet statement: a facet's kind, its key and name, its count, and a price range's ends. */
type FacetRow = {
  kind: string;
  key: string | null;
  name: string | null;
  n: number;
  lo: number | null;
  hi: number | null;
};

/** The facet statement's columns, as a prepared select reads them. */
const facetRowColumns = {
  kind: sql<string>`kind`,
  key: sql<string | null>`key`,
  name: sql<string | null>`name`,
  n: sql<number>`n`,
  lo: sql<number | null>`lo`,
  hi: sql<number | null>`hi`,
};

/**
 * A prepared statement's name: the hash of its text, so one name never means two texts on a connection (node-postgres
 * refuses that). Each connection parses and plans a named statement once, then only binds and executes it.
 */
function statementName(text: string): string {
  return `rp_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
}

/** A text[] as the drivers hand it back: node-postgres parses it, PGlite too; a literal "{a,b}" is parsed here. */
function pgTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && value.length > 2) return value.slice(1, -1).split(',');
  return [];
}

/** The brand facet's order: by name, then slug. */
function sortBrands(list: FacetCounts['brands']): void {
  list.sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));
}

const withoutMatches = <Row extends { matches: unknown }>({ matches: _matches, ...row }: Row) => row;

export class PartRepository {
  readonly #db: Database;
  readonly #fitment: PartFitmentPort;
  readonly #catalogueSize: UnfilteredCatalogueCount;
  /** What #plan learnt about each search's words, for a few seconds (popular searches come again and again). */
  readonly #spanFacts = new SpanFactsMemory();
  /** The facet statement without a search, built once per shape (`facetShape`); a few dozen at most. */
  readonly #facetStatements = new Map<string, { execute(values: Record<string, unknown>): Promise<FacetRow[]> }>();
  readonly #pageRowsStatements = new Map<
    string,
    { execute(values: Record<string, unknown>): Promise<(PartRow & { matches: number | null })[]> }
  >();
  constructor(db: Database, fitment: PartFitmentPort) {
    this.#db = db;
    this.#fitment = fitment;
    this.#catalogueSize = new UnfilteredCatalogueCount(() => this.#count(undefined));
  }

  /**
   * The search's words as part-search.ts matches them; undefined for no search. One small statement first asks
   * which words have a stem in PostgreSQL's English dictionary ("for", "the" have none and are left out, as a search
   * engine would), which the full text knows and what the others are probably typos of, and which makes or models
   * each word, or each few words side by side, name (the last word, while typing, also by the start of a name).
   * `limitedTo`: the vehicle the list is already limited to; words that name it are left out (they add nothing).
   */
  async #plan(q: string | undefined, prefixLast = false, limitedTo?: string): Promise<SearchPlan | undefined> {
    const text = q?.trim().toLowerCase();
    if (!text) return undefined;
    const candidates = searchWords(text);
    const { spans, vehicleModel } = await this.#spansOf(candidates, prefixLast, limitedTo);
    const last = candidates.length;
    const typing = (span: SpanFacts) => prefixLast && span.last === last;
    const modelsOf = (span: SpanFacts) => (typing(span) ? span.modelsTyped : span.models);
    // The runs of words that name a vehicle: the longest first ("yamaha mt07" rather than "yamaha" and "mt07").
    const vehicleAt = new Map<number, SpanFacts>();
    const claimed = new Set<number>();
    const longestFirst = [...spans].sort((a, b) => b.last - b.first - (a.last - a.first) || a.first - b.first);
    for (const span of longestFirst) {
      const positions = Array.from({ length: span.last - span.first + 1 }, (_, i) => span.first + i);
      if (modelsOf(span).length === 0 || positions.some((at) => claimed.has(at))) continue;
      for (const at of positions) claimed.add(at);
      vehicleAt.set(span.first, span);
    }
    const single = new Map(spans.filter((span) => span.first === span.last).map((span) => [span.first, span]));
    const words: SearchWord[] = [];
    let consumed = false;
    let typedKept = false;
    const vehicleWords: SearchWord[] = [];
    for (let at = 1; at <= last; at += 1) {
      const word = candidates[at - 1] ?? '';
      const vehicle = vehicleAt.get(at);
      if (vehicle) {
        const models = modelsOf(vehicle);
        if (vehicleModel !== null && models.includes(vehicleModel)) {
          consumed = true;
          continue;
        }
        const one = vehicle.first === vehicle.last;
        const entry: SearchWord = one
          ? wordOf(vehicle, models, typing(vehicle))
          : { text: vehicle.text, kind: 'word', phrase: true, known: true, models };
        // Only a vehicle named outright (not one a word being typed may yet become) keeps its universal parts.
        if (vehicle.models.length > 0) vehicleWords.push(entry);
        words.push(entry);
        typedKept ||= typing(vehicle);
        continue;
      }
      if (claimed.has(at)) continue;
      if (!hasLetterOrDigit(word)) {
        words.push({ text: word, kind: 'symbols' });
        typedKept ||= at === last;
        continue;
      }
      const facts = single.get(at);
      if (!facts?.stem) continue;
      const typed = prefixLast && at === last;
      words.push(wordOf(facts, typed ? facts.modelsTyped : facts.models, typed));
      typedKept ||= at === last;
    }
    // A vehicle named beside other words is that vehicle's fitment, as if it were chosen: its universal parts too.
    if (words.some((word) => !vehicleWords.includes(word) && word.kind === 'word')) {
      for (const word of vehicleWords) word.universal = true;
    }
    // Nothing but stop words ("the"): what was typed, as a substring. Only the chosen vehicle: no search words left.
    if (words.length === 0 && !consumed) words.push({ text, kind: 'symbols' });
    return { text, number: normalizePartNumber(text), words, prefixLast: prefixLast && typedKept };
  }

  /**
   * The facts of every word and every run of up to VEHICLE_WORDS words of a search (`SpanFacts`), and the model of
   * the vehicle the list is limited to (null: none), from one statement, remembered for a few seconds.
   */
  async #spansOf(candidates: string[], prefixLast: boolean, limitedTo: string | undefined): Promise<SearchFacts> {
    const key = `${prefixLast ? '+' : '='}${limitedTo ?? ''}|${candidates.join('\u0001')}`;
    const remembered = this.#spanFacts.get(key);
    if (remembered) return remembered;
    const list = sql.join(
      candidates.map((word) => sql`${word}`),
      sql`, `,
    );
    // The word and the catalogue words it is probably a typo of: each may name a brand or a category.
    const forms = sql`(array[span.text] || typo.fixes)`;
    const brandsNamed = (prefix: boolean) =>
      sql`array(select named_brand.id::text from ${brands} named_brand where exists (select 1 from unnest(${forms}) form where ${namesIt(sql`form`, sql`named_brand.name`, prefix)}))`;
    const categoriesNamed = (prefix: boolean) => {
      const named = (name: SQL) =>
        sql`exists (select 1 from unnest(${forms}) form where ${namesIt(sql`form`, name, prefix)})`;
      return sql`array(select named_category.id::text from ${categories} named_category where ${named(sql`named_category.name`)} union select sub.id::text from ${categories} sub inner join ${categories} named_parent on named_parent.id = sub.parent_id where ${named(sql`named_parent.name`)})`;
    };
    const oneWord = sql`(span.first = span.last)`;
    // Only the last word of a search being typed is also read as the start of a name.
    const typedSpan = prefixLast ? sql`span.last = ${candidates.length}` : sql`false`;
    const rows = rowsOf<{
      first: number;
      last: number;
      text: string;
      models: unknown;
      typed: unknown;
      vehicle_model: string | null;
      stem: boolean | string | null;
      known: boolean | string | null;
      fixes: unknown;
      brands: unknown;
      brands_typed: unknown;
      categories: unknown;
      categories_typed: unknown;
    }>(
      await this.#db.execute(sql`
        with vehicle_names as materialized (${this.#fitment.vehicleNames()}),
        typed_words as (select word, ord::int as ord from unnest(array[${list}]::text[]) with ordinality as typed(word, ord)),
        spans as (
          select a.ord as first, b.ord as last, string_agg(c.word, ' ' order by c.ord) as text
          from typed_words a
          inner join typed_words b on b.ord between a.ord and a.ord + ${VEHICLE_WORDS - 1}
          inner join typed_words c on c.ord between a.ord and b.ord
          group by a.ord, b.ord
        )
        select span.first, span.last, span.text,
          ${this.#fitment.modelsNamedBy(sql`span.text`, oneWord, false)} as models,
          ${
            prefixLast
              ? sql`case when ${typedSpan} then ${this.#fitment.modelsNamedBy(sql`span.text`, oneWord, true)} end`
              : sql`null`
          } as typed,
          ${limitedTo === undefined ? sql`null` : this.#fitment.modelOfVehicle(limitedTo)}::text as vehicle_model,
          word.stem, word.known, typo.fixes,
          case when span.first = span.last then ${brandsNamed(false)} end as brands,
          case when span.first = span.last and ${typedSpan} then ${brandsNamed(true)} end as brands_typed,
          case when span.first = span.last then ${categoriesNamed(false)} end as categories,
          case when span.first = span.last and ${typedSpan} then ${categoriesNamed(true)} end as categories_typed
        from spans span
        left join lateral (
          select numnode(plainto_tsquery('english', span.text)) > 0 as stem,
            exists (select 1 from ${partSearch} where ${partSearch.document} @@ plainto_tsquery('english', span.text)) as known
          where span.first = span.last
        ) word on true
        cross join lateral (
          select case when word.known or word.stem is not true then '{}'::text[] else array(
            select ${partSearchWords.word} from ${partSearchWords}
            where ${partSearchWords.word} % span.text and ${partSearchWords.word} <> span.text
              and similarity(${partSearchWords.word}, span.text) >= ${TYPO_OF}
              and exists (select 1 from ${partSearch} where ${partSearch.document} @@ plainto_tsquery('english', ${partSearchWords.word}))
            order by similarity(${partSearchWords.word}, span.text) desc, ${partSearchWords.word}
            limit ${TYPO_FIXES}) end as fixes
          -- Computed once per word, not again wherever the brands and categories read it.
          offset 0
        ) typo`),
    );
    const yes = (value: boolean | string | null) => value === true || value === 't';
    const spans = rows.map(
      (row): SpanFacts => ({
        first: Number(row.first),
        last: Number(row.last),
        text: row.text,
        models: pgTextArray(row.models),
        // Only a run that ends with the word being typed is read as typed; the others name what they name.
        modelsTyped: row.typed === null ? pgTextArray(row.models) : pgTextArray(row.typed),
        stem: yes(row.stem),
        known: yes(row.known),
        fixes: pgTextArray(row.fixes),
        brands: pgTextArray(row.brands),
        brandsTyped: pgTextArray(row.brands_typed ?? row.brands),
        categories: pgTextArray(row.categories),
        categoriesTyped: pgTextArray(row.categories_typed ?? row.categories),
      }),
    );
    const facts = { spans, vehicleModel: rows[0]?.vehicle_model ?? null };
    this.#spanFacts.remember(key, facts);
    return facts;
  }

  /**
   * Search-as-you-type (ADR 012): the best few parts (the last word also as a prefix), the categories and brands the
   * words name, and, when no part matches, the closest part names and a correction. With `vehicle` (the list is
   * limited to it, ADR 030), every part offered fits it (fitted or universal), marked so, and so does a part name
   * offered as the correction.
   */
  async suggest(
    q: string,
    limits: { parts: number; categories: number; brands: number },
    vehicle?: string,
  ): Promise<SearchSuggestions> {
    const search = await this.#plan(q, true, vehicle);
    if (!search) return { parts: [], closest: false, categories: [], brands: [], correction: null };
    const columns = this.#columns(vehicle, { fitsVehicle: vehicle });
    let found: PartRow[];
    if (vehicle === undefined) {
      const ranked = await this.#ranked(search, limits.parts, 0);
      found = await this.#rowsOfPage(ranked?.ids ?? [], undefined, {});
    } else {
      const filter: PartFilter = { q, fitsVehicle: vehicle };
      const page = { limit: limits.parts, markFitFor: vehicle };
      found = (await this.#list(filter, page, search, planOf(page, search))).rows.slice(0, limits.parts);
    }
    // The parts a closest name or a correction may come from: those that fit the vehicle, when there is one.
    const fitting = (id: SQL) =>
      vehicle === undefined ? sql`true` : sql`${id} in (${partIdsFitting(vehicle, this.#fitment)})`;
    const text = search.text;
    const words = sql.join(
      searchWords(text).map((word) => sql`${word}`),
      sql`, `,
    );
    // A category or brand is offered when one of the words names it (or begins its name, while typing).
    const named = (name: SQL) =>
      sql`exists (select 1 from unnest(array[${words}]::text[]) typed where word_similarity(typed, ${name}) >= 0.6 or ${name} ilike typed || '%')`;
    const [categoryRows, brandRows] = await Promise.all([
      this.#db
        .select({ slug: categories.slug, name: categories.name })
        .from(categories)
        .where(named(sql`${categories.name}`))
        .orderBy(sql`word_similarity(${text}, ${categories.name}) desc`, asc(categories.position), asc(categories.name))
        .limit(limits.categories),
      this.#db
        .select({ slug: brands.slug, name: brands.name })
        .from(brands)
        .where(named(sql`${brands.name}`))
        .orderBy(sql`word_similarity(${text}, ${brands.name}) desc`, asc(brands.name))
        .limit(limits.brands),
    ]);
    if (found.length > 0) {
      return { parts: found, closest: false, categories: categoryRows, brands: brandRows, correction: null };
    }
    // Nothing matches: the names most like the search. `%` is similarity ≥ 0.3, answered by the trigram index.
    const closest: PartRow[] = (
      await this.#select(columns)
        .where(
          sql`${parts.id} in (select ${partSearch.partId} from ${partSearch} where ${partSearch.name} % ${text}) and ${fitting(sql`${parts.id}`)}`,
        )
        .orderBy(sql`similarity(${parts.name}, ${text}) desc`, ...oldestFirst)
        .limit(limits.parts)
    ).map(withoutMatches);
    const [best] = rowsOf<{ name: string; score: number }>(
      await this.#db.execute(sql`
        select name, score from (
          select name, similarity(${text}, name) as score from ${brands}
          union all select name, similarity(${text}, name) from ${categories}
          union all select name, score from ${this.#fitment.vehicleNamesLike(text, 1)} vehicle_names
          union all (select name, similarity(${text}, name) from ${partSearch} where name % ${text} and ${fitting(sql`${partSearch.partId}`)} order by 2 desc limit 1)
        ) candidates
        where score >= ${CLOSE_ENOUGH}
        order by score desc, name
        limit 1`),
    );
    const correction = best && best.name.toLowerCase() !== text ? best.name : null;
    return { parts: closest, closest: true, categories: categoryRows, brands: brandRows, correction };
  }

  /**
   * One page of parts and how many parts match the filter in all (for X-Total-Count). `capped`: a search with more
   * matches than it ranks (SEARCH_CANDIDATES, ADR 012); the total is then "at least".
   */
  async list(filter: PartFilter, page: PartPageOptions = {}): Promise<PartListResult> {
    const search = await this.#plan(filter.q, false, filter.fitsVehicle);
    const plan = planOf(page, search);
    const ranked =
      search && onlySearch(filter) && !plan.keyed
        ? await this.#ranked(search, readLimit(plan), plan.offset)
        : undefined;
    if (ranked) {
      const rows = await this.#rowsOfPage(ranked.ids, page.markFitFor, filter);
      return { ...finishPage(plan, rows), total: ranked.total, capped: ranked.total >= SEARCH_CANDIDATES };
    }
    const { rows, total } = await this.#list(filter, page, search, plan);
    return { ...finishPage(plan, rows), total, capped: search !== undefined && total >= SEARCH_CANDIDATES };
  }

  /**
   * A search with no other filter, in relevance order: its candidates are ranked from the search table alone and
   * `parts` is read for the page's rows only (`#rowsOfPage`). Undefined past the last page (no row to count from):
   * the caller then counts the usual way.
   */
  async #ranked(
    search: SearchPlan,
    limit: number | undefined,
    offset: number,
  ): Promise<{ ids: string[]; total: number } | undefined> {
    const rows = rowsOf<{ id: string; matches: number }>(
      await this.#db.execute(sql`
        select id, (count(*) over ())::int as matches from (${rankedCandidates(search)}) ranked
        order by ${scopedRelevance}
        ${limit === undefined ? sql`` : sql`limit ${limit}`} ${offset > 0 ? sql`offset ${offset}` : sql``}`),
    );
    const first = rows[0];
    if (!first) return offset > 0 ? undefined : { ids: [], total: 0 };
    return { ids: rows.map((row) => row.id), total: Number(first.matches) };
  }

  /** The page as read: one row more than the limit when there is more, in reverse when read backwards. */
  async #list(filter: PartFilter, page: PartPageOptions, search: SearchPlan | undefined, plan: PagePlan) {
    // Without a sort the spec's order is kept: oldest first, as the catalogue was added; a search without a sort
    // puts the best answers first, ties in that same order.
    const keys = plan.keyed ? keysOf(plan.keyed, tableColumns) : undefined;
    const order = keys
      ? keysetOrder(keys, plan.direction)
      : [sql`${relevance(search as SearchPlan)} desc`, ...oldestFirst];
    const beyond = keys && plan.position ? keysetBeyond(keys, positionOf(plan.position), plan.direction) : undefined;
    const where = whereOf(filter, this.#fitment, search);
    if (where) return this.#listMatching(this.#columns(page.markFitFor, filter), where, order, beyond, plan);
    return this.#listWhole(this.#columns(page.markFitFor), order, beyond, plan);
  }

  /**
   * The row's columns; `fitsVehicle` is null unless asked to mark fit for a vehicle. When the filter already keeps
   * only the parts that fit it, every row fits and no second look at the fitment rows is needed.
   */
  #columns(markFitFor: string | undefined, filter: PartFilter = {}): ListColumns {
    let fitsVehicle = sql<boolean | null>`null::boolean`;
    if (markFitFor !== undefined && markFitFor === filter.fitsVehicle) fitsVehicle = sql<boolean | null>`true`;
    else if (markFitFor !== undefined) {
      fitsVehicle = sql<boolean | null>`(${parts.id} in (${this.#fitment.partIdsFitting(markFitFor)}))`;
    }
    return { ...partWithLabels, fitsVehicle, matches: sql<number | null>`null::int` };
  }

  #select(columns: ListColumns, db: Database | Transaction = this.#db) {
    return db
      .select(columns)
      .from(parts)
      .leftJoin(brands, eq(brands.id, parts.brandId))
      .leftJoin(partCategory, eq(partCategory.id, parts.categoryId))
      .leftJoin(partParentCategory, eq(partParentCategory.id, partCategory.parentId));
  }

  /**
   * The unfiltered catalogue: the one list whose total may come from `UnfilteredCatalogueCount`. With a cursor
   * (`beyond`) the page is an index range scan from the position, as cheap deep in the catalogue as on page 1.
   */
  async #listWhole(columns: ListColumns, order: SQL[], beyond: SQL | undefined, plan: PagePlan) {
    const { limit, offset } = plan;
    const rows: PartRow[] = (
      await withPage(
        this.#select(columns)
          .where(beyond)
          .orderBy(...order)
          .$dynamic(),
        { limit: readLimit(plan), offset },
      )
    ).map(withoutMatches);
    // A page that reaches the end (and is not past it) already tells the total when it is read by offset: skip
    // the count query. This covers the unpaged spec call and every short result; only full pages pay for count(*).
    const reachesEnd = limit === undefined || rows.length <= limit;
    if (!beyond && reachesEnd && (rows.length > 0 || offset === 0)) {
      const total = offset + rows.length;
      this.#catalogueSize.remember(total);
      return { rows, total };
    }
    return { rows, total: await this.#catalogueSize.get() };
  }

  /**
   * A filtered list counts its matches in the same pass, with a window function: a search must read every row
   * anyway (a substring match cannot use a btree index), and a vehicle's fitting parts are all read to be sorted,
   * so a second pass for the total is saved. The page's ids are chosen first from the parts alone; brand, category
   * and fit are joined to those few rows only.
   */
  async #listMatching(columns: ListColumns, where: SQL, order: SQL[], beyond: SQL | undefined, plan: PagePlan) {
    // After a cursor the window would count only the rows beyond it: the total is then counted on its own.
    const page = withPage(
      this.#db
        .select({
          id: parts.id,
          matches: (beyond ? sql<number>`null::int` : sql<number>`(count(*) over ())::int`).as('matches'),
        })
        .from(parts)
        .where(beyond ? and(where, beyond) : where)
        .orderBy(...order)
        .$dynamic(),
      { limit: readLimit(plan), offset: plan.offset },
    ).as('page');
    const [found, counted] = await Promise.all([
      this.#select({ ...columns, matches: sql<number | null>`${page.matches}` })
        .innerJoin(page, eq(page.id, parts.id))
        .orderBy(...order),
      beyond ? this.#count(where) : undefined,
    ]);
    const rows: PartRow[] = found.map(withoutMatches);
    if (counted !== undefined) return { rows, total: counted };
    const first = found[0];
    if (first) return { rows, total: Number(first.matches) };
    // Past the last page the window has no row to report on.
    return { rows, total: plan.offset === 0 ? 0 : await this.#count(where) };
  }

  async #count(where: SQL | undefined): Promise<number> {
    const [row] = await this.#db.select({ total: count() }).from(parts).where(where);
    return row?.total ?? 0;
  }

  /**
   * Facet counts of the parts the filter's scope (search, vehicle, no-fitment) allows: each facet under every other
   * filter, in one statement that reads the scoped parts once. With a vehicle the scope is its fitting parts, found
   * through the fitment index, so the cost follows that set and not the catalogue (ADR 010).
   */
  async facets(filter: PartFilter, fitsFor: string | undefined): Promise<FacetCounts> {
    const search = await this.#plan(filter.q, false, filter.fitsVehicle);
    const { facets } = this.#facetsOf(await this.#facetRows(filter, fitsFor, search), fitsFor);
    return facets;
  }

  /**
   * One page of the list AND its facet counts from ONE read of the scoped parts (the parts page for a vehicle, the
   * catalogue's busiest read): the facet statement also picks the page's ids (the list's order, its limit and
   * offset) and its `total` is the list's X-Total-Count; a second, small statement reads those few rows with their
   * labels.
   * Meant for a filter with a scope (vehicle fit, search, no fitment): without one the scope is the whole catalogue,
   * and `list` (index order, a remembered count) plus `facets` is the cheaper way.
   */
  async listWithFacets(
    filter: PartFilter,
    page: PartPageOptions,
    fitsFor: string | undefined,
  ): Promise<PartListResult & { facets: FacetCounts }> {
    const search = await this.#plan(filter.q, false, filter.fitsVehicle);
    const capped = (total: number) => search !== undefined && total >= SEARCH_CANDIDATES;
    const plan = planOf(page, search);
    const { facets, pageIds } = this.#facetsOf(await this.#facetRows(filter, fitsFor, search, plan), fitsFor);
    if (pageIds.length === 0) return { rows: [], total: facets.total, capped: capped(facets.total), facets };
    const rows = await this.#rowsOfPage(pageIds, page.markFitFor, filter);
    return { ...finishPage(plan, rows), total: facets.total, capped: capped(facets.total), facets };
  }

  /** The page's rows with their labels, in the order of `pageIds` (a part removed meanwhile is left out). */
  async #rowsOfPage(pageIds: string[], markFitFor: string | undefined, filter: PartFilter): Promise<PartRow[]> {
    if (pageIds.length === 0) return [];
    const found = await this.#pageRowsStatement(markFitFor, filter).execute({
      ids: `{${pageIds.join(',')}}`,
      markFitFor,
    });
    const byId = new Map<string, PartRow>(found.map((row) => [row.id, withoutMatches(row)]));
    return pageIds.map((id) => byId.get(id)).filter((row): row is PartRow => row !== undefined);
  }

  /**
   * The page's rows with their labels, by id, built once per way of marking fit (none, the filter's vehicle, another
   * vehicle) as a named statement: one array parameter rather than `in ($1, …, $n)`, so any page is the same text.
   */
  #pageRowsStatement(markFitFor: string | undefined, filter: PartFilter) {
    const mark = markFitFor === undefined ? 'none' : markFitFor === filter.fitsVehicle ? 'filter' : 'other';
    let statement = this.#pageRowsStatements.get(mark);
    if (statement === undefined) {
      // A placeholder stands in for the vehicle inside the SQL only (see facetShape).
      const vehicle = sql.placeholder('markFitFor') as unknown as string;
      const columns =
        mark === 'none'
          ? this.#columns(undefined)
          : this.#columns(vehicle, mark === 'filter' ? { fitsVehicle: vehicle } : {});
      const query = this.#select(columns).where(sql`${parts.id} = any(${sql.placeholder('ids')}::uuid[])`);
      statement = query.prepare(statementName(query.toSQL().sql));
      this.#pageRowsStatements.set(mark, statement);
    }
    return statement;
  }

  /**
   * The facet statement: the scoped parts are read once into `scoped`, and each facet is counted from it under every
   * filter but its own. With `page`, the page's ids come out of the same statement (rows of kind 'page', `n` their
   * position), ordered over `scoped` as `list` orders the parts.
   */
  async #facetRows(
    filter: PartFilter,
    fitsFor: string | undefined,
    search: SearchPlan | undefined,
    page?: PagePlan,
  ): Promise<FacetRow[]> {
    // A search's text follows its words: built and sent as it is.
    if (search !== undefined) {
      return rowsOf<FacetRow>(await this.#db.execute<FacetRow>(this.#facetStatement(filter, fitsFor, search, page)));
    }
    // Without one, the text is one of a few shapes (which filters are set, the page's order and direction): each is
    // built once with placeholders and kept as a named statement, so a request neither rebuilds it (Drizzle's
    // building is a large share of an uncached catalogue read's server CPU) nor has PostgreSQL parse and plan it again.
    const shape = facetShape(filter, fitsFor, page);
    let statement = this.#facetStatements.get(shape.key);
    if (statement === undefined) {
      // Drizzle prepares only its query builders: the statement is read as a subquery of one.
      const query = this.#db
        .select(facetRowColumns)
        .from(
          sql`(${this.#facetStatement(shape.filter, shape.fitsFor, undefined, shape.page, shape.pageSlots)}) facet_rows`,
        );
      statement = query.prepare(statementName(query.toSQL().sql));
      this.#facetStatements.set(shape.key, statement);
    }
    return statement.execute(shape.values);
  }

  /** The facet statement's SQL (see `#facetRows`); `pageSlots` stand for the page's limit and offset values. */
  #facetStatement(
    filter: PartFilter,
    fitsFor: string | undefined,
    search: SearchPlan | undefined,
    page?: PagePlan,
    pageSlots?: { limit: SQL; offset: SQL },
  ): SQL {
    const groups = conditionsOf(filter, this.#fitment, search);
    const all = (...keys: FacetKey[]) => {
      const conditions = keys.flatMap((key) => groups[key]);
      return conditions.length > 0 ? and(...conditions) : sql`true`;
    };
    // Within a fit filter every scoped part fits; otherwise ask the fitment rows once per scoped part.
    let fits = sql`null::boolean`;
    if (fitsFor !== undefined && fitsFor === filter.fitsVehicle) fits = sql`true`;
    else if (fitsFor !== undefined) {
      fits = sql`(${parts.universal} or ${parts.id} in (${this.#fitment.partIdsFitting(fitsFor)}))`;
    }
    const scope = groups.scope.length > 0 ? and(...groups.scope) : sql`true`;
    // The page's own columns are read only when a page is asked for (its order's columns, relevance when searching).
    const pageColumns = page
      ? sql`, ${parts.id} as id, ${parts.createdAt} as created_at, ${parts.name} as name, ${
          search && !page.keyed ? relevance(search) : sql`0`
        } as rank`
      : sql``;
    // The page's rows: `n` is each one's position. The id is renamed so that the ORDER BY sorts the uuid, not its text.
    // With a cursor, only the rows beyond its position (read backwards for the page before it, see finishPage).
    const keys = page?.keyed ? keysOf(page.keyed, scopedColumns) : undefined;
    const pageOrder = page
      ? keys
        ? sql.join(keysetOrder(keys, page.direction), sql`, `)
        : scopedRelevance
      : undefined;
    const beyond =
      page && keys && page.position
        ? sql` and ${keysetBeyond(keys, positionOf(page.position), page.direction)}`
        : sql``;
    const limit = page ? readLimit(page) : undefined;
    const pageRows =
      page && pageOrder
        ? sql`
      union all
      (select 'page', id::text as page_id, null, (row_number() over (order by ${pageOrder}))::int, null, null
        from scoped where category_ok and brand_ok and price_ok and stock_ok${beyond}
        order by ${pageOrder}
        ${limit === undefined ? sql`` : sql`limit ${pageSlots?.limit ?? limit}`} ${
          page.offset > 0 ? sql`offset ${pageSlots?.offset ?? page.offset}` : sql``
        })`
        : sql``;
    return sql`
      with scoped as materialized (
        select ${parts.categoryId} as category_id, ${parts.brandId} as brand_id, ${parts.priceCents} as price_cents,
          ${inStock} as in_stock, ${all('category')} as category_ok, ${all('brand')} as brand_ok,
          ${all('price')} as price_ok, ${all('inStock')} as stock_ok, ${fits} as fits${pageColumns}
        from ${parts} where ${scope}
      )
      select 'category' as kind, category_id::text as key, null as name, count(*)::int as n, null::int as lo, null::int as hi
        from scoped where brand_ok and price_ok and stock_ok and category_id is not null group by category_id
      union all
      select 'brand', ${brands.slug}, ${brands.name}, by_brand.n, null, null
        from (select brand_id, count(*)::int as n from scoped where category_ok and price_ok and stock_ok
              group by brand_id) by_brand
        inner join ${brands} on ${brands.id} = by_brand.brand_id
      union all
      select 'price', null, null, count(*)::int, min(price_cents), max(price_cents)
        from scoped where category_ok and brand_ok and stock_ok
      union all
      select 'inStock', null, null, count(*)::int, null, null
        from scoped where category_ok and brand_ok and price_ok and in_stock
      union all
      select 'total', null, null, count(*)::int, null, null
        from scoped where category_ok and brand_ok and price_ok and stock_ok
      union all
      select 'fits', null, null, count(*)::int, null, null
        from scoped where category_ok and brand_ok and price_ok and stock_ok and fits${pageRows}
    `;
  }

  /** The facet statement's rows → the counts, and the page's ids in order (when a page was asked for). */
  #facetsOf(rows: FacetRow[], fitsFor: string | undefined): { facets: FacetCounts; pageIds: string[] } {
    const facets: FacetCounts = {
      categories: new Map(),
      brands: [],
      price: { min: null, max: null },
      inStock: 0,
      total: 0,
      fits: fitsFor === undefined ? null : 0,
    };
    const page: { id: string; position: number }[] = [];
    for (const row of rows) {
      const n = Number(row.n);
      if (row.kind === 'category' && row.key) facets.categories.set(row.key, n);
      else if (row.kind === 'brand' && row.key)
        facets.brands.push({ slug: row.key, name: row.name ?? row.key, count: n });
      else if (row.kind === 'price')
        facets.price = { min: row.lo === null ? null : Number(row.lo), max: row.hi === null ? null : Number(row.hi) };
      else if (row.kind === 'inStock') facets.inStock = n;
      else if (row.kind === 'total') facets.total = n;
      else if (row.kind === 'fits' && fitsFor !== undefined) facets.fits = n;
      else if (row.kind === 'page' && row.key) page.push({ id: row.key, position: n });
    }
    sortBrands(facets.brands);
    page.sort((a, b) => a.position - b.position);
    return { facets, pageIds: page.map((entry) => entry.id) };
  }

  /** Every category, in tree order (roots by position, then each root's children). */
  async categories(): Promise<{ id: string; slug: string; name: string; parentId: string | null }[]> {
    return this.#db
      .select({ id: categories.id, slug: categories.slug, name: categories.name, parentId: categories.parentId })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.name));
  }

  async brands(): Promise<{ slug: string; name: string }[]> {
    return this.#db
      .select({ slug: brands.slug, name: brands.name })
      .from(brands)
      .orderBy(asc(brands.name), asc(brands.slug));
  }

  async findById(id: string, db: Database | Transaction = this.#db, markFitFor?: string): Promise<PartRow | undefined> {
    const rows = await this.#select(this.#columns(markFitFor), db).where(eq(parts.id, id)).limit(1);
    return rows.map(withoutMatches)[0];
  }

  /** A part write and what goes with it (its brand, its fitment through the port) in one transaction. */
  async write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // Forgotten before and after: a list running meanwhile may have remembered the size from before the write.
    this.#catalogueSize.forget();
    try {
      return await this.#db.transaction(work);
    } finally {
      this.#catalogueSize.forget();
    }
  }

  /** The brand of this name (case and spacing aside, by its slug), created when the shop does not know it yet. */
  async brandIdFor(tx: Transaction, name: string): Promise<string> {
    const slug = brandSlug(name);
    await tx.insert(brands).values({ slug, name }).onConflictDoNothing();
    const [row] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.slug, slug)).limit(1);
    if (!row) throw new Error('brand not saved');
    return row.id;
  }

  /** Undefined: no category of that slug. */
  async categoryIdOf(tx: Transaction, slug: string): Promise<string | undefined> {
    const [row] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug)).limit(1);
    return row?.id;
  }

  async insert(tx: Transaction, values: NewPartRow): Promise<string> {
    this.#catalogueSize.forget();
    const [row] = await tx.insert(parts).values(values).returning({ id: parts.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Changes only the given columns; undefined means "leave as it is". False: no such part. */
  async update(tx: Transaction, id: string, changes: PartChanges): Promise<boolean> {
    const rows = await tx
      .update(parts)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(parts.id, id))
      .returning({ id: parts.id });
    return rows.length > 0;
  }

  /** Locks the part for the rest of the transaction (a fitment-only edit changes no column of it). False: none. */
  async lock(tx: Transaction, id: string): Promise<boolean> {
    const rows = await tx.select({ id: parts.id }).from(parts).where(eq(parts.id, id)).for('update');
    return rows.length > 0;
  }

  /**
   * Gives a deleted order's quantity back to its part, in the orders module's transaction (the orders module asks
   * through its `StockRelease` port; reserving stock is the one statement orders runs itself, see ADR 006).
   */
  async release(tx: Transaction, partId: string, quantity: number): Promise<void> {
    await tx
      .update(parts)
      .set({ availableQuantity: sql`${parts.availableQuantity} + ${quantity}`, updatedAt: new Date() })
      .where(eq(parts.id, partId));
  }

  /**
   * The parts of a cart as they are now, for the cart module's `CartCatalogPort` (ADR 011): what a line shows and
   * what the order rule checks. Unknown ids are simply missing from the answer.
   */
  async orderableByIds(ids: readonly string[]): Promise<OrderablePartView[]> {
    if (ids.length === 0) return [];
    return this.#db
      .select({
        id: parts.id,
        name: parts.name,
        img: parts.img,
        priceCents: parts.priceCents,
        minimumOrder: parts.minimumOrder,
        availableQuantity: parts.availableQuantity,
      })
      .from(parts)
      .where(inArray(parts.id, [...ids]));
  }

  /** True when a part was deleted. Orders keep their copy of name and price (part_id becomes null). */
  async delete(id: string): Promise<boolean> {
    this.#catalogueSize.forget();
    const rows = await this.#db.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
    this.#catalogueSize.forget();
    return rows.length > 0;
  }
}
