import { sql } from 'drizzle-orm';
import type { CursorPayload } from '../../../shared/cursor.ts';
import type { Database } from '../../db/client.ts';
import { prepareNamedRows } from '../../db/named-statement.ts';
import type { NotificationEvents, NotificationListener } from '../../db/notifications.ts';
import { brands, categories, parts } from '../../db/schema.ts';
import type { PartFitmentPort } from './part-fitment-port.ts';
import type { FacetCounts, PartFilter, PartRow } from './part-repository.ts';
import { escapeLike } from './part-search.ts';
import type { SearchSources } from './part-search-memory.ts';
import { KeptRows, SearchColumns, type SearchFacts } from './part-search-table.ts';
import { writeSignature } from './pg-text-rank.ts';

/**
 * Each part's facet facts in memory (issue 13, ADR 019): "parts that fit vehicle V, page 1, with facet counts" read
 * ~700 scattered rows of `parts` per request (PostgreSQL: ~4 of its 5 ms), the same rows again and again. Here every
 * instance keeps, for every part, just what facets and the catalogue orders need (category, brand, price, stock,
 * age, universal: ~100 bytes a part), and each vehicle's fitting part ids; a request then counts and orders in
 * memory and reads only its page's rows from the database.
 *
 * Freshness is the catalogue notifications' (0014, 0016): a write to `parts` names the parts it changed
 * ('parts:<ids>', or 'parts' for a bulk write), and those are read again before the next read uses them; fitment and
 * vehicle writes forget the fitting sets; brand and category writes their labels. While this instance does not hear
 * the notifications (listener down, not yet up) nothing here is used: the repository asks the database as before.
 * A write's answer waits until its own notifications have arrived (`caughtUp`), so the writer's next read is fresh.
 */

/** The small tables facets name things by. */
interface Labels {
  brandsById: Map<string, { slug: string; name: string }>;
  brandIdBySlug: Map<string, string>;
  /** A category slug → its id and its direct subcategories' ids (a filter on a category takes both). */
  categoryIdsBySlug: Map<string, string[]>;
}

/** What the repository gets: the facts, the labels, and the parts that fit a vehicle. */
export interface FactsView {
  table: FactTable;
  labels: Labels;
  /** The rows (of `table`) of the parts that fit the vehicle: its fitment rows' parts and every universal part. */
  fitting(vehicleId: string): Promise<Int32Array>;
  /** What the in-memory search asks the database (part-search-memory.ts), answered from what is kept when it can. */
  sources: SearchSources;
  /** The rows pages showed lately, each kept until a write names it (PartRepository's page rows). */
  pageRows: KeptPageRows;
}

/**
 * The rows of the parts that pages showed lately, by id, as the page statement reads them (no fit mark): the one
 * statement a search or fit page still sent was ~30 % of its server CPU (pg's parsing and the pool, measured at
 * 100,000 parts), and a shop's pages show the same popular parts again and again. A part's row is forgotten when a
 * notification names it (any write to `parts`: stock, price, text), every row when a brand or category changes (their
 * names are in the row), on a bulk write and when the notifications are not heard. The least recently shown go first.
 */
export class KeptPageRows {
  readonly #rows = new Map<string, Readonly<PartRow>>();
  readonly #limit: number;
  #generation = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Moves on with every write heard: a row read before it may be older than the write, and is not kept. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): Readonly<PartRow> | undefined {
    const row = this.#rows.get(id);
    if (row !== undefined) {
      // Shown again: the last to go.
      this.#rows.delete(id);
      this.#rows.set(id, row);
    }
    return row;
  }

  /** Keeps rows read when the generation was `generation` (frozen: every page shares them). */
  keep(rows: readonly PartRow[], generation: number): void {
    if (generation !== this.#generation) return;
    for (const row of rows) {
      this.#rows.delete(row.id);
      this.#rows.set(row.id, Object.freeze(row));
    }
    for (const id of this.#rows.keys()) {
      if (this.#rows.size <= this.#limit) break;
      this.#rows.delete(id);
    }
  }

  forget(ids: readonly string[]): void {
    this.#generation += 1;
    for (const id of ids) this.#rows.delete(id);
  }

  clear(): void {
    this.#generation += 1;
    this.#rows.clear();
  }
}

/**
 * The facts as columns, one row a part (a row is never reused until everything is read again; a removed part's
 * row is marked dead): a request over a vehicle's ~700 parts reads numbers from typed arrays, where a map of
 * objects per uuid cost ~1 µs a part (measured: 36 % of the server's CPU in the fitment benchmark).
 */
export class FactTable {
  size = 0;
  ids: string[] = [];
  readonly rowOf = new Map<string, number>();
  alive = new Uint8Array(0);
  /** Index into `categoryIds` (interned), -1 for none. */
  category = new Int32Array(0);
  /** Index into `brandIds` (interned), -1 for none. */
  brand = new Int32Array(0);
  price = new Float64Array(0);
  inStock = new Uint8Array(0);
  /** `created_at` in microseconds since 1970 (exact in a double). */
  created = new Float64Array(0);
  /**
   * What ranking a search reads of each row, side by side: `created` and the id key (the id's first 13 hex digits as a
   * number: 52 bits, exact, ordered as the ids are but for a rare tie) as doubles 0 and 1 of the row's RANK_DOUBLES in
   * `rankKeys`, its name's trigram signature (pg-text-rank.ts) from int RANK_SIGNATURE of its 2 × RANK_DOUBLES in
   * `rankInts` (the same memory). A search reads them for up to 1,000 scattered candidates: in three arrays that was
   * three cache misses a candidate, the largest part of its ranking at 100,000 parts.
   */
  rankKeys = new Float64Array(0);
  rankInts = new Int32Array(0);
  universal = new Uint8Array(0);
  readonly categoryIds: string[] = [];
  readonly categoryIndex = new Map<string, number>();
  readonly brandIds: string[] = [];
  readonly brandIndex = new Map<string, number>();
  /** Name, part numbers and full-text document of each row, for the search (ADR 020). */
  readonly search = new SearchColumns();
  /** Moves on when a row is added or changes brand or category (`rowsOfBrandsOrCategories` keeps its answers). */
  #labelsVersion = 0;
  /**
   * Moves on with every change a search's matches can see: a row added or removed, a name, part number, full-text
   * document, brand or category changed (not a price or a stock level). What a search keeps per word is kept for one
   * version (part-search-memory.ts).
   */
  searchVersion = 0;
  readonly #rowsByLabels = new KeptRows<number>(KEPT_ROWS);

  /** The part's row, its facts written in place; `universalChanged` when it joins or leaves the universal parts. */
  put(row: FactRow): { row: number; universalChanged: boolean } {
    let at = this.rowOf.get(row.id);
    const wasUniversal = at !== undefined && this.alive[at] === 1 && this.universal[at] === 1;
    const isNew = at === undefined || this.alive[at] === 0;
    if (at === undefined) {
      at = this.size;
      if (at === this.alive.length) this.#grow(Math.max(1024, at * 2));
      this.size += 1;
      this.ids[at] = row.id;
      this.rankKeys[at * RANK_DOUBLES + 1] = Number.parseInt(row.id.slice(0, 8) + row.id.slice(9, 13) + row.id[14], 16);
      this.rowOf.set(row.id, at);
    }
    this.alive[at] = 1;
    const category = row.categoryId === null ? -1 : intern(row.categoryId, this.categoryIds, this.categoryIndex);
    const brand = row.brandId === null ? -1 : intern(row.brandId, this.brandIds, this.brandIndex);
    if (isNew || this.category[at] !== category || this.brand[at] !== brand) {
      this.#labelsVersion += 1;
      this.searchVersion += 1;
    }
    this.category[at] = category;
    this.brand[at] = brand;
    this.price[at] = Number(row.priceCents);
    this.inStock[at] = row.inStock ? 1 : 0;
    this.created[at] = row.createdMicros;
    this.universal[at] = row.universal ? 1 : 0;
    if (this.search.put(at, row, isNew)) this.searchVersion += 1;
    this.rankKeys[at * RANK_DOUBLES] = row.createdMicros;
    const { at: nameAt, count: nameCount, ints: trigrams } = this.search.trigrams;
    const start = nameAt[at] as number;
    writeSignature(
      this.rankInts,
      at * 2 * RANK_DOUBLES + RANK_SIGNATURE,
      trigrams.subarray(start, start + (nameCount[at] as number)),
    );
    return { row: at, universalChanged: wasUniversal !== Boolean(row.universal) };
  }

  /**
   * The rows whose brand is one of `brandIds` or whose category is one of `categoryIds` (a search word naming them),
   * kept until a row is added or relabelled: a word names the same few brands and categories search after search.
   */
  rowsOfBrandsOrCategories(brandIds: readonly string[], categoryIds: readonly string[]): Int32Array {
    const key = `${brandIds.join(',')}|${categoryIds.join(',')}`;
    const kept = this.#rowsByLabels.get(key, this.#labelsVersion);
    if (kept) return kept;
    const brandOk = flags(this.brandIds.length, brandIds, this.brandIndex);
    const categoryOk = flags(this.categoryIds.length, categoryIds, this.categoryIndex);
    const rows: number[] = [];
    for (let row = 0; row < this.size; row++) {
      const brand = this.brand[row] as number;
      const category = this.category[row] as number;
      if ((brand >= 0 && brandOk[brand] === 1) || (category >= 0 && categoryOk[category] === 1)) rows.push(row);
    }
    const found = Int32Array.from(rows);
    this.#rowsByLabels.set(key, this.#labelsVersion, found);
    return found;
  }

  /**
   * Oldest first, then by id (negative when row `a` comes first): the catalogue's order, and how the search breaks
   * ties. Ids compare as PostgreSQL compares uuids (their lowercase text), by number first: rows created in one
   * statement share `created_at`, and comparing their id strings was a tenth of a search's CPU.
   */
  olderFirst(a: number, b: number): number {
    const keys = this.rankKeys;
    const byAge = (keys[a * RANK_DOUBLES] as number) - (keys[b * RANK_DOUBLES] as number);
    if (byAge !== 0) return byAge;
    const byKey = (keys[a * RANK_DOUBLES + 1] as number) - (keys[b * RANK_DOUBLES + 1] as number);
    if (byKey !== 0) return byKey;
    const idA = this.ids[a] as string;
    const idB = this.ids[b] as string;
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  }

  /** The part is gone; `true` when it was universal. */
  remove(id: string): boolean {
    const at = this.rowOf.get(id);
    if (at === undefined || this.alive[at] === 0) return false;
    this.alive[at] = 0;
    this.searchVersion += 1;
    return this.universal[at] === 1;
  }

  #grow(capacity: number): void {
    const grown = <T extends Uint8Array | Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.alive = grown(this.alive, (n) => new Uint8Array(n));
    this.category = grown(this.category, (n) => new Int32Array(n));
    this.brand = grown(this.brand, (n) => new Int32Array(n));
    this.price = grown(this.price, (n) => new Float64Array(n));
    this.inStock = grown(this.inStock, (n) => new Uint8Array(n));
    this.created = grown(this.created, (n) => new Float64Array(n));
    this.rankKeys = grown(this.rankKeys, (n) => new Float64Array(n * RANK_DOUBLES));
    this.rankInts = new Int32Array(this.rankKeys.buffer);
    this.universal = grown(this.universal, (n) => new Uint8Array(n));
  }
}

/** A part's facts as read from `parts` (`factColumns`). */
export interface FactRow extends SearchFacts {
  id: string;
  categoryId: string | null;
  brandId: string | null;
  priceCents: number;
  inStock: boolean;
  /** `created_at` in microseconds since 1970. */
  createdMicros: number;
  universal: boolean;
}

function flags(size: number, ids: readonly string[], index: Map<string, number>): Uint8Array {
  const ok = new Uint8Array(size);
  for (const id of ids) {
    const at = index.get(id);
    if (at !== undefined) ok[at] = 1;
  }
  return ok;
}

function intern(id: string, list: string[], index: Map<string, number>): number {
  let at = index.get(id);
  if (at === undefined) {
    at = list.length;
    list.push(id);
    index.set(id, at);
  }
  return at;
}

/** 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (the cursor's spelling of `created_at`) → microseconds since 1970. */
export function microsOf(key: string): number {
  return Date.parse(`${key.slice(0, 23)}Z`) * 1000 + Number(key.slice(23, 26));
}

const CHANNEL = 'redline_catalog';
/** A statement that changed more parts than the trigger names (0016) says 'parts': every fact is read again. */
const ALL_PARTS = 'parts';
/** A full reload is at most this often: a bulk import sends 'parts' for every batch; reads go to SQL meanwhile. */
const RELOAD_EVERY_MS = 2_000;
/** Vehicles whose fitting parts are kept (a few hundred to a few thousand rows each). */
const MAX_FITTING_SETS = 2_000;
/** A row's doubles in `FactTable.rankKeys` (32 bytes), and where its name's signature starts among its ints. */
export const RANK_DOUBLES = 4;
export const RANK_SIGNATURE = 4;
/** Page rows kept (KeptPageRows): ~1 KB each. */
const KEPT_PAGE_ROWS = 5_000;
/** Rows the search keeps of its words' name matches, and of its sets of models' fitted parts (4 bytes a row). */
const KEPT_ROWS = 4_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A write waits at most this long for its own notifications (as the read cache, ADR 016). */
const WRITE_CATCH_UP_MS = 1_000;

const inStockSql = sql<boolean>`(${parts.availableQuantity} > 0 and ${parts.availableQuantity} >= ${parts.minimumOrder})`;
// Microseconds since 1970, exact (numeric, then bigint): parsing a timestamp per row in JavaScript was most of a
// reload's time.
const createdMicrosSql = sql<number>`(extract(epoch from ${parts.createdAt}) * 1000000)::int8`.mapWith(Number);
const factColumns = {
  id: parts.id,
  categoryId: parts.categoryId,
  brandId: parts.brandId,
  priceCents: parts.priceCents,
  inStock: inStockSql,
  createdMicros: createdMicrosSql,
  universal: parts.universal,
  name: parts.name,
  partNumbers: parts.partNumbers,
  searchVector: sql<string>`${parts.searchVector}::text`,
};
/** Parts read per statement of a reload (a reload of 100,000 parts must not stall the event loop). */
const RELOAD_SLICE = 2_000;

export class PartFacts {
  readonly #db: Database;
  readonly #fitment: PartFitmentPort;
  #listener: NotificationListener | undefined;
  #listening = false;
  #closing = false;
  #table = new FactTable();
  /** Everything must be read again (never loaded, a bulk write, the listener came back). */
  #stale = true;
  #lastReloadAt = 0;
  /** Parts named by notifications since they were last read. */
  readonly #dirty = new Set<string>();
  #refreshing: Promise<void> | undefined;
  #reloading: Promise<void> | undefined;
  /** Moves on with every bulk write (and loss of the listener): a reload that started before it is not enough. */
  #staleGeneration = 0;
  #labels: Labels | undefined;
  #labelsGeneration = 0;
  /** Per vehicle, its fitting rows with the universal parts of `#universalVersion`. */
  readonly #fitting = new Map<string, { fitted: string[]; rows?: Int32Array; universalVersion: number }>();
  #fittingGeneration = 0;
  /** The search's name matches per word (kept while no name changes) and fitted parts per set of models. */
  readonly #nameMatches = new KeptRows<number>(KEPT_ROWS);
  readonly #fittedToModels = new KeptRows<number>(KEPT_ROWS);
  /** Bumped when a part becomes or stops being universal (every vehicle's rows change). */
  #universalVersion = 0;
  readonly #stats = { views: 0, reloads: 0, partsRead: 0 };
  readonly #pageRows = new KeptPageRows(KEPT_PAGE_ROWS);

  readonly #factsAfter: { execute(values: { after: string; limit: number }): Promise<FactRow[]> };
  readonly #factsOf: { execute(values: { ids: string }): Promise<FactRow[]> };

  constructor(db: Database, fitment: PartFitmentPort) {
    this.#db = db;
    this.#fitment = fitment;
    this.#factsAfter = prepareNamedRows<FactRow>(
      db,
      db
        .select(factColumns)
        .from(parts)
        .where(sql`${parts.id} > ${sql.placeholder('after')}::uuid`)
        .orderBy(parts.id)
        .limit(sql.placeholder('limit')),
      factColumns,
    );
    this.#factsOf = prepareNamedRows<FactRow>(
      db,
      db
        .select(factColumns)
        .from(parts)
        .where(sql`${parts.id} = any(${sql.placeholder('ids')}::uuid[])`),
      factColumns,
    );
  }

  get listening(): boolean {
    return this.#listening;
  }

  /**
   * Moves on with every write a search word's facts depend on (brands, categories, vehicles, fitment, and any part's
   * name, numbers or text); undefined while these facts are not heard (PartRepository's word facts then expire).
   */
  get wordsVersion(): string | undefined {
    if (!this.#listening || this.#stale) return undefined;
    return `${this.#labelsGeneration}/${this.#fittingGeneration}/${this.#table.searchVersion}/${this.#dirty.size}`;
  }

  /** How much is kept and how often it was used and read again (tests, and an operator's question). */
  get stats(): {
    parts: number;
    vehicles: number;
    pageRows: number;
    views: number;
    reloads: number;
    partsRead: number;
  } {
    return {
      parts: this.#table.rowOf.size,
      vehicles: this.#fitting.size,
      pageRows: this.#pageRows.size,
      ...this.#stats,
    };
  }

  /** Start hearing the catalogue's notifications (one connection of its own on PostgreSQL). */
  async listen(listen: (channel: string, events: NotificationEvents) => Promise<NotificationListener>): Promise<void> {
    this.#listener = await listen(CHANNEL, {
      onNotification: (payload) => this.#heard(payload),
      onListening: (listening) => {
        // Down or up again: whatever changed meanwhile went unheard.
        this.#forgetAll();
        this.#listening = listening && !this.#closing;
        // Loaded before the first shopper asks (reads go to the database until then).
        this.#reloadSoon();
      },
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#listening = false;
    await this.#listener?.close();
    // The database is closed after the app: no read of ours may still be on its way then.
    await Promise.allSettled([this.#reloading, this.#refreshing]);
    this.#forgetAll();
  }

  /** Waits (bounded) until this instance has heard every notification committed so far. */
  async caughtUp(): Promise<void> {
    if (this.#listening) await this.#listener?.caughtUp(WRITE_CATCH_UP_MS);
  }

  /**
   * The facts, fresh as of every notification heard before this call; undefined when they cannot be trusted: not
   * listening, or not loaded since a bulk write (the reload runs in the background and the caller asks the
   * database meanwhile, so no read waits for 100,000 rows).
   */
  async view(): Promise<FactsView | undefined> {
    if (!this.#listening) return undefined;
    if (this.#stale) {
      this.#reloadSoon();
      return undefined;
    }
    // At most three rounds: writes arriving all the time must not hold a read back for ever.
    for (let round = 0; round < 3 && this.#dirty.size > 0 && !this.#stale; round += 1) {
      this.#refreshing ??= this.#refreshDirty().finally(() => {
        this.#refreshing = undefined;
      });
      await this.#refreshing;
    }
    if (!this.#listening || this.#stale) return undefined;
    const labels = this.#labels ?? (await this.#loadLabels());
    if (!labels) return undefined;
    this.#stats.views += 1;
    return {
      table: this.#table,
      labels,
      fitting: (vehicleId) => this.#fittingOf(vehicleId),
      sources: {
        fittingVersion: this.#fittingGeneration,
        nameMatches: (word, typo) => this.#nameMatchesOf(word, typo),
        fittedToModels: (modelIds) => this.#fittedToModelsOf(modelIds),
      },
      pageRows: this.#pageRows,
    };
  }

  #heard(payload: string): void {
    if (payload === ALL_PARTS) {
      this.#pageRows.clear();
      this.#markStale();
    } else if (payload.startsWith(`${ALL_PARTS}:`)) {
      const ids = payload.slice(ALL_PARTS.length + 1).split(',');
      // Anything but uuids did not come from the trigger (0016): read everything again rather than ask for it.
      if (!ids.every((id) => UUID.test(id))) {
        this.#pageRows.clear();
        this.#markStale();
        return;
      }
      this.#pageRows.forget(ids);
      // Kept even while stale: a reload under way may have read these parts before their write committed.
      for (const id of ids) this.#dirty.add(id);
    } else if (payload === 'brands' || payload === 'categories') {
      this.#pageRows.clear();
      this.#labels = undefined;
      this.#labelsGeneration += 1;
    } else if (payload === 'part_fitments' || payload === 'vehicles') {
      this.#fitting.clear();
      this.#fittingGeneration += 1;
    }
  }

  #markStale(): void {
    this.#stale = true;
    this.#staleGeneration += 1;
  }

  #forgetAll(): void {
    this.#markStale();
    this.#lastReloadAt = 0;
    this.#dirty.clear();
    this.#table = new FactTable();
    this.#nameMatches.clear();
    this.#fittedToModels.clear();
    this.#labels = undefined;
    this.#labelsGeneration += 1;
    this.#fitting.clear();
    this.#fittingGeneration += 1;
    this.#pageRows.clear();
  }

  /** Starts reading every part again, unless a reload is under way or one started less than RELOAD_EVERY_MS ago. */
  #reloadSoon(): void {
    if (this.#reloading || !this.#listening || Date.now() - this.#lastReloadAt < RELOAD_EVERY_MS) return;
    this.#lastReloadAt = Date.now();
    // A failed reload (the database away) leaves the facts stale; a later read tries again.
    this.#reloading = this.#reload()
      .catch(() => {})
      .finally(() => {
        this.#reloading = undefined;
      });
  }

  /**
   * Every part into a new table. Parts named by notifications during the read stay dirty and are read again on the
   * new table by the next `view`; a bulk write during the read leaves the facts stale (its generation moved on).
   */
  async #reload(): Promise<void> {
    const generation = this.#staleGeneration;
    this.#dirty.clear();
    const table = new FactTable();
    // In slices by id (each answer mapped in one go would stall the event loop: ~140 ms for 100,000 rows). A write
    // between two slices is named by its notification and read again afterwards, as any write during a reload.
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.#factsAfter.execute({ after, limit: RELOAD_SLICE });
      for (const row of rows) table.put(row);
      const last = rows.at(-1);
      if (!last || rows.length < RELOAD_SLICE) break;
      after = last.id;
    }
    if (!this.#listening) return;
    // The search's pools grew by doubling while the parts were read: fitted to what they hold.
    table.search.trim();
    this.#stats.reloads += 1;
    this.#table = table;
    // Rows of the old table mean other parts in the new one.
    this.#nameMatches.clear();
    this.#fittedToModels.clear();
    // Rows are the new table's: every vehicle's kept rows start again.
    this.#fitting.clear();
    this.#fittingGeneration += 1;
    if (generation === this.#staleGeneration) this.#stale = false;
  }

  /**
   * The parts named since they were last read. What is taken is cleared BEFORE the read, so a notification arriving
   * during it marks its parts again and the next round reads them; the answer goes into the table it was asked for
   * (a reload finishing meanwhile brought a newer one).
   */
  async #refreshDirty(): Promise<void> {
    const table = this.#table;
    const ids = [...this.#dirty];
    this.#dirty.clear();
    try {
      const rows = await this.#factsOf.execute({ ids: `{${ids.join(',')}}` });
      this.#stats.partsRead += ids.length;
      const found = new Set<string>();
      let universalChanged = false;
      for (const row of rows) {
        found.add(row.id);
        universalChanged = table.put(row).universalChanged || universalChanged;
      }
      for (const id of ids) if (!found.has(id)) universalChanged = table.remove(id) || universalChanged;
      if (universalChanged) this.#universalVersion += 1;
    } catch (error) {
      for (const id of ids) this.#dirty.add(id);
      throw error;
    }
  }

  async #loadLabels(): Promise<Labels | undefined> {
    const generation = this.#labelsGeneration;
    const [brandRows, categoryRows] = await Promise.all([
      this.#db.select({ id: brands.id, slug: brands.slug, name: brands.name }).from(brands),
      this.#db.select({ id: categories.id, slug: categories.slug, parentId: categories.parentId }).from(categories),
    ]);
    const labels: Labels = { brandsById: new Map(), brandIdBySlug: new Map(), categoryIdsBySlug: new Map() };
    for (const brand of brandRows) {
      labels.brandsById.set(brand.id, { slug: brand.slug, name: brand.name });
      labels.brandIdBySlug.set(brand.slug, brand.id);
    }
    const slugById = new Map(categoryRows.map((category) => [category.id, category.slug]));
    for (const category of categoryRows) labels.categoryIdsBySlug.set(category.slug, [category.id]);
    for (const category of categoryRows) {
      const parentSlug = category.parentId === null ? undefined : slugById.get(category.parentId);
      if (parentSlug !== undefined) labels.categoryIdsBySlug.get(parentSlug)?.push(category.id);
    }
    if (generation !== this.#labelsGeneration) return undefined;
    this.#labels = labels;
    return labels;
  }

  /**
   * The rows whose name contains the word or, with `typo`, is like it (pg_trgm's `<%`, the session's threshold):
   * asked of the database (its trigram index) and kept until a part is added or renamed. Ids not (yet) in the table
   * are left out and the answer is not kept.
   */
  async #nameMatchesOf(word: string, typo: boolean): Promise<Int32Array> {
    const key = `${typo ? '~' : '='}${word}`;
    const table = this.#table;
    const generation = table.search.namesGeneration;
    const kept = this.#nameMatches.get(key, generation);
    if (kept) return kept;
    const contains = sql`${parts.name} ilike ${`%${escapeLike(word)}%`}`;
    const found = await this.#db
      .select({ id: parts.id })
      .from(parts)
      .where(typo ? sql`(${contains} or ${word} <% ${parts.name})` : contains);
    const { rows, complete } = rowsIn(
      table,
      found.map((row) => row.id),
    );
    if (complete && table === this.#table && generation === table.search.namesGeneration) {
      this.#nameMatches.set(key, generation, rows);
    }
    return rows;
  }

  /** The rows of the parts fitted to any of these models, kept until fitment or vehicles change. */
  async #fittedToModelsOf(modelIds: readonly string[]): Promise<Int32Array> {
    const key = [...modelIds].sort().join(',');
    const table = this.#table;
    const generation = this.#fittingGeneration;
    const kept = this.#fittedToModels.get(key, generation);
    if (kept) return kept;
    const { rows, complete } = rowsIn(table, await this.#fitment.partIdsFittedToModels(modelIds));
    if (complete && table === this.#table && generation === this.#fittingGeneration) {
      this.#fittedToModels.set(key, generation, rows);
    }
    return rows;
  }

  /**
   * The vehicle's rows: its fitment rows' parts (read once, kept until fitment or vehicles change) and the universal
   * parts, each once; kept until a part becomes or stops being universal. A fitted part not (yet) in the table is
   * left out and the rows are not kept, so the next read looks again.
   */
  async #fittingOf(vehicleId: string): Promise<Int32Array> {
    const generation = this.#fittingGeneration;
    const table = this.#table;
    let entry = this.#fitting.get(vehicleId);
    if (entry === undefined) {
      const fitted = await this.#fitment.partIdsFittingVehicle(vehicleId);
      entry = { fitted, universalVersion: -1 };
      if (generation === this.#fittingGeneration && table === this.#table) {
        if (this.#fitting.size >= MAX_FITTING_SETS) this.#fitting.clear();
        this.#fitting.set(vehicleId, entry);
      }
    }
    if (entry.rows && entry.universalVersion === this.#universalVersion) return entry.rows;
    const rows: number[] = [];
    let complete = true;
    for (const id of entry.fitted) {
      const row = table.rowOf.get(id);
      if (row === undefined) complete = false;
      else if (table.universal[row] === 0) rows.push(row);
    }
    for (let row = 0; row < table.size; row++) if (table.universal[row] === 1) rows.push(row);
    const result = Int32Array.from(rows);
    if (complete) {
      entry.rows = result;
      entry.universalVersion = this.#universalVersion;
    }
    return result;
  }
}

/** The table's rows of these ids; `complete` false when one is not in the table (yet). */
function rowsIn(table: FactTable, ids: readonly string[]): { rows: Int32Array; complete: boolean } {
  const rows: number[] = [];
  let complete = true;
  for (const id of ids) {
    const row = table.rowOf.get(id);
    if (row === undefined) complete = false;
    else rows.push(row);
  }
  return { rows: Int32Array.from(rows), complete };
}

/** A filter as the facts can answer it (the repository decides when: no search, no "without fitment"). */
export type FactsFilter = Pick<PartFilter, 'category' | 'brand' | 'minPriceCents' | 'maxPriceCents' | 'inStock'>;

/**
 * The orders the facts can page (name order is PostgreSQL's collation: the database's job). `relevance`: a search's
 * best first (`FactsPage.relevance`), ties oldest first; paged by offset only, as the SQL search is.
 */
export type FactsOrder = 'catalogue' | 'newest' | 'price_asc' | 'price_desc' | 'relevance';

export interface FactsPage {
  order: FactsOrder;
  direction: 'forward' | 'backward';
  position: CursorPayload | undefined;
  /** Rows to read (the page size and one more), undefined for all. */
  read: number | undefined;
  offset: number;
  /** For `relevance`: the best `wanted` of `rows`, as indexes into it, best first (`topByRelevance`). */
  relevance?: (rows: number[], wanted: number) => number[];
}

/** The facet counts but `fits` (within a vehicle's fit every counted part fits: the repository sets it). */
export type FactsCounts = Omit<FacetCounts, 'fits'>;

/**
 * The facet counts of `scope` (rows of the table; each facet under every filter but its own) and, with `page`, the
 * page's ids in the list's order: the facet statement's rules (part-repository.ts, `#facetStatement`), in memory.
 */
export function countFacts(
  view: Pick<FactsView, 'table' | 'labels'>,
  scope: Int32Array,
  filter: FactsFilter,
  page: FactsPage | undefined,
): { counts: FactsCounts; pageIds: string[] } {
  const { table, labels } = view;
  const passes = rowFilter(view, filter);
  const byCategory = new Int32Array(table.categoryIds.length);
  const byBrand = new Int32Array(table.brandIds.length);
  let priceMin = Number.POSITIVE_INFINITY;
  let priceMax = Number.NEGATIVE_INFINITY;
  let inStock = 0;
  const matching: number[] = [];
  for (let i = 0; i < scope.length; i++) {
    const row = scope[i] as number;
    if (table.alive[row] === 0) continue;
    const category = table.category[row] as number;
    const brand = table.brand[row] as number;
    const price = table.price[row] as number;
    const stocked = table.inStock[row] === 1;
    const cOk = passes.category(row);
    const bOk = passes.brand(row);
    const pOk = passes.price(row);
    const sOk = passes.stock(row);
    if (bOk && pOk && sOk && category >= 0) byCategory[category] = (byCategory[category] as number) + 1;
    if (cOk && pOk && sOk && brand >= 0) byBrand[brand] = (byBrand[brand] as number) + 1;
    if (cOk && bOk && sOk) {
      if (price < priceMin) priceMin = price;
      if (price > priceMax) priceMax = price;
    }
    if (cOk && bOk && pOk) {
      if (stocked) inStock += 1;
      if (sOk) matching.push(row);
    }
  }
  const counts: FactsCounts = {
    categories: new Map(),
    brands: [],
    price: priceMin <= priceMax ? { min: priceMin, max: priceMax } : { min: null, max: null },
    inStock,
    total: matching.length,
  };
  byCategory.forEach((n, at) => {
    if (n > 0) counts.categories.set(table.categoryIds[at] as string, n);
  });
  byBrand.forEach((n, at) => {
    const brand = n > 0 ? labels.brandsById.get(table.brandIds[at] as string) : undefined;
    if (brand) counts.brands.push({ slug: brand.slug, name: brand.name, count: n });
  });
  return { counts, pageIds: page ? pageOf(table, matching, page) : [] };
}

/**
 * The filter's rule per row, one test per facet (a facet is counted under every filter but its own, `countFacts`); a
 * brand slug no part has matches no part, as an unknown category does.
 */
function rowFilter({ table, labels }: Pick<FactsView, 'table' | 'labels'>, filter: FactsFilter) {
  let categoryOk: Uint8Array | undefined;
  if (filter.category !== undefined) {
    categoryOk = new Uint8Array(table.categoryIds.length);
    for (const id of labels.categoryIdsBySlug.get(filter.category) ?? []) {
      const at = table.categoryIndex.get(id);
      if (at !== undefined) categoryOk[at] = 1;
    }
  }
  // -2 names nothing any part has.
  const brandWanted =
    filter.brand === undefined ? -1 : (table.brandIndex.get(labels.brandIdBySlug.get(filter.brand) ?? '') ?? -2);
  const min = filter.minPriceCents ?? Number.NEGATIVE_INFINITY;
  const max = filter.maxPriceCents ?? Number.POSITIVE_INFINITY;
  const stockWanted = filter.inStock !== undefined;
  return {
    /** False when no row can fail: the filter asks nothing. */
    asks: categoryOk !== undefined || brandWanted !== -1 || min > -Infinity || max < Infinity || stockWanted,
    category: (row: number) => {
      const category = table.category[row] as number;
      return categoryOk === undefined || (category >= 0 && categoryOk[category] === 1);
    },
    brand: (row: number) => brandWanted === -1 || table.brand[row] === brandWanted,
    price: (row: number) => {
      const price = table.price[row] as number;
      return price >= min && price <= max;
    },
    stock: (row: number) => !stockWanted || table.inStock[row] === 1,
  };
}

/**
 * What `countFacts` gives a list that shows no facet counts (`GET /api/part`): the page and how many parts match,
 * without reading what only the counts need (each row's category, brand and price, unless the filter asks).
 */
export function pageOfFacts(
  view: Pick<FactsView, 'table' | 'labels'>,
  scope: Int32Array,
  filter: FactsFilter,
  page: FactsPage | undefined,
): { total: number; pageIds: string[] } {
  const { table } = view;
  const passes = rowFilter(view, filter);
  const matching: number[] = [];
  for (let i = 0; i < scope.length; i++) {
    const row = scope[i] as number;
    if (table.alive[row] === 0) continue;
    if (passes.asks && !(passes.category(row) && passes.brand(row) && passes.price(row) && passes.stock(row))) continue;
    matching.push(row);
  }
  return { total: matching.length, pageIds: page ? pageOf(table, matching, page) : [] };
}

/** A search's page: relevance, highest first, then oldest first and by id (`scopedRelevance` in the SQL). */
function pageByRelevance(table: FactTable, rows: number[], page: FactsPage): string[] {
  const end = page.read === undefined ? rows.length : page.offset + page.read;
  const best = page.relevance?.(rows, end) ?? [];
  return best.slice(page.offset, end).map((i) => table.ids[rows[i] as number] as string);
}

/**
 * The first `wanted` of `0 .. count - 1` in the order `before` gives: a page needs only its first offset + limit + 1
 * rows, kept sorted in a small buffer, so most rows are refused by one comparison with its last.
 */
function firstInOrder(count: number, wanted: number, before: (a: number, b: number) => number): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (wanted * 4 >= count) return all.sort(before);
  const kept: number[] = [];
  for (const i of all) keepInOrder(kept, i, wanted, before);
  return kept;
}

/**
 * Puts `i` into `kept` (sorted by `before`, at most `wanted` long) where it belongs, or nowhere when it would come
 * after the last of a full list.
 */
export function keepInOrder(kept: number[], i: number, wanted: number, before: (a: number, b: number) => number): void {
  if (kept.length >= wanted && before(i, kept[kept.length - 1] as number) >= 0) return;
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(kept[mid] as number, i) <= 0) lo = mid + 1;
    else hi = mid;
  }
  kept.splice(lo, 0, i);
  if (kept.length > wanted) kept.pop();
}

/** The page's ids: the rows in the order (read backwards before a cursor), beyond the cursor, offset, limit. */
function pageOf(table: FactTable, rows: number[], page: FactsPage): string[] {
  if (page.order === 'relevance') return pageByRelevance(table, rows, page);
  const byPrice = page.order === 'price_asc' || page.order === 'price_desc';
  const keys = byPrice ? table.price : table.created;
  const ascending = (page.order === 'catalogue' || page.order === 'price_asc') === (page.direction === 'forward');
  const sign = ascending ? 1 : -1;
  const { ids } = table;
  // Ties are broken by id: uuids order as PostgreSQL orders them when compared as lowercase text.
  const compare = (aKey: number, aId: string, bKey: number, bId: string) =>
    sign * (aKey < bKey ? -1 : aKey > bKey ? 1 : aId < bId ? -1 : aId > bId ? 1 : 0);
  const before = (a: number, b: number) =>
    compare(keys[a] as number, ids[a] as string, keys[b] as number, ids[b] as string);
  let candidates = rows;
  if (page.position) {
    const positionKey = byPrice ? Number(page.position.k) : microsOf(String(page.position.k));
    const positionId = String(page.position.i).toLowerCase();
    candidates = rows.filter((row) => compare(keys[row] as number, ids[row] as string, positionKey, positionId) > 0);
  }
  const wanted = page.read === undefined ? candidates.length : page.offset + page.read;
  const ordered = firstInOrder(candidates.length, wanted, (a, b) =>
    before(candidates[a] as number, candidates[b] as number),
  ).map((i) => candidates[i] as number);
  return ordered.slice(page.offset, wanted).map((row) => ids[row] as string);
}
