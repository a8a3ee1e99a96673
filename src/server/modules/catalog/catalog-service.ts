import { type CursorPayload, decodeCursor, encodeCursor } from '../../../shared/cursor.ts';
import type { Brand, CategoryNode, PartFacets } from '../../../shared/schemas/fitment.ts';
import type {
  Part,
  PartDetails,
  PartFacetsQuery,
  PartInput,
  PartListPage,
  PartListQuery,
  PartPatch,
} from '../../../shared/schemas/parts.ts';
import { type PartSuggestions, type PartSuggestQuery, SUGGESTION_LIMITS } from '../../../shared/schemas/search.ts';
import type { Transaction } from '../../db/client.ts';
import { InvalidError, NotFoundError } from '../../errors.ts';
import type { PageCursors } from '../../page-links.ts';
import type { PartFitmentPort } from './part-fitment-port.ts';
import { fromPartInput, fromPartPatch, partNumbersOf, toWirePart } from './part-mapper.ts';
import type { PartPhotosPort } from './part-photos-port.ts';
import type { FacetCounts, PartFilter, PartListResult, PartRepository } from './part-repository.ts';

const notFound = () => new NotFoundError('This part does not exist.');
const vehicleNotFound = () => new NotFoundError('This vehicle does not exist.');
/** Who is looking: only admins see who added a part (L2). */
interface Viewer {
  isAdmin: boolean;
}
const ADMIN: Viewer = { isAdmin: true };

/** The list's query → the repository's filter. Dollars become cents here; an empty search is no search. */
function filterOf(query: PartFacetsQuery): PartFilter {
  return {
    q: query.q || undefined,
    fitsVehicle: query.fits === 'true' ? query.vehicle : undefined,
    category: query.category,
    brand: query.brand,
    minPriceCents: query.minPrice === undefined ? undefined : Math.round(query.minPrice * 100),
    maxPriceCents: query.maxPrice === undefined ? undefined : Math.round(query.maxPrice * 100),
    inStock: query.inStock === 'true' ? true : undefined,
    withoutFitment: query.fitment === 'none' ? true : undefined,
  };
}

/**
 * Answers remembered for a few seconds, per instance. Used where a read is asked for on every page view but changes
 * seldom: facet counts without a vehicle (their scope is the whole catalogue, which a count reads in full) and the
 * category tree (written only by seeding and migrations). This instance's part writes forget the facets at once;
 * another instance's writes show within `ttlMs`.
 */
class ShortMemory<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > Date.now()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  remember(key: string, value: V): void {
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, expires: Date.now() + this.#ttlMs });
  }

  forget(): void {
    this.#entries.clear();
  }
}

/** The list query's paging → the repository's page (the query schema has already checked the cursor). */
function pageOf(query: PartListQuery) {
  const { sort, limit, offset, vehicle, after, before } = query;
  const position = (text: string | undefined) => (text === undefined ? undefined : decodeCursor(text));
  return { sort, limit, offset, markFitFor: vehicle, after: position(after), before: position(before) };
}

const cursorText = (cursor: CursorPayload | undefined) => (cursor ? encodeCursor(cursor) : null);
const cursorsOf = (result: PartListResult): PageCursors => ({
  nextCursor: cursorText(result.next),
  prevCursor: cursorText(result.prev),
});

type CategoryRows = Awaited<ReturnType<PartRepository['categories']>>;

/** The catalogue. Ids reach it already checked as UUIDs by the routes' params schema. */
export class CatalogService {
  readonly #parts: PartRepository;
  readonly #fitment: PartFitmentPort;
  readonly #facetMemory = new ShortMemory<FacetCounts>(5_000, 200);
  readonly #categoryMemory = new ShortMemory<CategoryRows>(5_000, 1);
  readonly #photos: PartPhotosPort;
  constructor(parts: PartRepository, fitment: PartFitmentPort, photos: PartPhotosPort) {
    this.#parts = parts;
    this.#fitment = fitment;
    this.#photos = photos;
  }

  async list(
    query: PartListQuery,
    viewer: Viewer,
  ): Promise<{ items: Part[]; total: number; capped: boolean } & PageCursors> {
    await this.#assertVehicle(query.vehicle);
    const result = await this.#parts.list(filterOf(query), pageOf(query));
    const { rows, total, capped } = result;
    return { items: rows.map((row) => toWirePart(row, viewer)), total, capped, ...cursorsOf(result) };
  }

  /** Counts for the list's filters: each facet under every other filter; `total` is the list's X-Total-Count. */
  async facets(query: PartFacetsQuery): Promise<PartFacets> {
    await this.#assertVehicle(query.vehicle);
    return this.#wireFacets(await this.#facetCounts(filterOf(query), query.vehicle));
  }

  /**
   * One page of the list with the counts beside its filters, in one call (the parts page's view: one request, not two).
   * With a scope (a vehicle's fitting parts, a search, no fitment yet) both come from one read of the scoped parts;
   * without one the page is read in index order and the counts are the remembered ones, as the two calls would.
   */
  async listWithFacets(query: PartListQuery, viewer: Viewer): Promise<PartListPage> {
    const { vehicle } = query;
    await this.#assertVehicle(vehicle);
    const filter = filterOf(query);
    const page = pageOf(query);
    const scoped = filter.q !== undefined || filter.fitsVehicle !== undefined || filter.withoutFitment !== undefined;
    if (scoped) {
      const result = await this.#parts.listWithFacets(filter, page, vehicle);
      const { rows, total, capped, facets } = result;
      return {
        items: rows.map((row) => toWirePart(row, viewer)),
        total,
        capped,
        facets: await this.#wireFacets(facets),
        ...cursorsOf(result),
      };
    }
    const [result, counts] = await Promise.all([this.#parts.list(filter, page), this.#facetCounts(filter, vehicle)]);
    const { rows, total, capped } = result;
    return {
      items: rows.map((row) => toWirePart(row, viewer)),
      total,
      capped,
      facets: await this.#wireFacets(counts),
      ...cursorsOf(result),
    };
  }

  /** Facet counts; without a vehicle (the whole catalogue's scope) remembered for a few seconds. */
  async #facetCounts(filter: PartFilter, vehicle: string | undefined): Promise<FacetCounts> {
    const key = vehicle === undefined ? JSON.stringify(filter) : undefined;
    let counts = key === undefined ? undefined : this.#facetMemory.get(key);
    if (!counts) {
      counts = await this.#parts.facets(filter, vehicle);
      if (key !== undefined) this.#facetMemory.remember(key, counts);
    }
    return counts;
  }

  /** The counts as the API gives them: every category in tree order (a count includes its subcategories), dollars. */
  async #wireFacets(counts: FacetCounts): Promise<PartFacets> {
    const tree = await this.#categories();
    const own = counts.categories;
    const countOf = (id: string) =>
      (own.get(id) ?? 0) + tree.filter((c) => c.parentId === id).reduce((sum, c) => sum + (own.get(c.id) ?? 0), 0);
    const slugOf = new Map(tree.map((c) => [c.id, c.slug]));
    return {
      total: counts.total,
      categories: inTreeOrder(tree).map((c) => ({
        slug: c.slug,
        name: c.name,
        parentSlug: c.parentId ? (slugOf.get(c.parentId) ?? null) : null,
        count: countOf(c.id),
      })),
      brands: counts.brands,
      price: {
        min: counts.price.min === null ? null : counts.price.min / 100,
        max: counts.price.max === null ? null : counts.price.max / 100,
      },
      inStock: counts.inStock,
      fits: counts.fits,
    };
  }

  async get(id: string, viewer: Viewer, vehicle?: string): Promise<PartDetails> {
    await this.#assertVehicle(vehicle);
    const row = await this.#parts.findById(id, undefined, vehicle);
    if (!row) throw notFound();
    return { ...toWirePart(row, viewer), ...(await this.#extras(id)) };
  }

  async categoryTree(): Promise<CategoryNode[]> {
    const tree = await this.#categories();
    return tree
      .filter((c) => c.parentId === null)
      .map((root) => ({
        slug: root.slug,
        name: root.name,
        children: tree.filter((c) => c.parentId === root.id).map((c) => ({ slug: c.slug, name: c.name })),
      }));
  }

  brands(): Promise<Brand[]> {
    return this.#parts.brands();
  }

  /**
   * Search-as-you-type (ADR 012): a few parts, categories and brands; a correction when nothing matches. With a
   * vehicle, only parts that fit it (ADR 030).
   */
  async suggest(query: PartSuggestQuery, viewer: Viewer): Promise<PartSuggestions> {
    await this.#assertVehicle(query.vehicle);
    const found = await this.#parts.suggest(query.q, SUGGESTION_LIMITS, query.vehicle);
    return { ...found, parts: found.parts.map((row) => toWirePart(row, viewer)) };
  }

  /** The adder is the signed-in admin: the body's `email` is never trusted. */
  async create(input: PartInput, adminEmail: string): Promise<PartDetails> {
    const id = await this.#parts.write(async (tx) => {
      const links = await this.#links(tx, input);
      const partId = await this.#parts.insert(tx, { ...fromPartInput(input), ...links, createdByEmail: adminEmail });
      if (input.fitment) await this.#fitment.replaceFitment(tx, partId, input.fitment);
      return partId;
    });
    this.#facetMemory.forget();
    return this.#wire(id);
  }

  async update(id: string, patch: PartPatch): Promise<PartDetails> {
    const changes = fromPartPatch(patch);
    const touchesLinks = patch.brand !== undefined || patch.category !== undefined;
    if (Object.keys(changes).length === 0 && !touchesLinks && patch.fitment === undefined) {
      throw new InvalidError('Send at least one field to change.');
    }
    await this.#parts.write(async (tx) => {
      if (patch.mpn !== undefined || patch.oemNumbers !== undefined) {
        const current = await this.#parts.findById(id, tx);
        if (!current) throw notFound();
        const mpn = changes.mpn !== undefined ? changes.mpn : current.mpn;
        changes.partNumbers = partNumbersOf(mpn, changes.oemNumbers ?? current.oemNumbers);
      }
      const all = { ...changes, ...(await this.#links(tx, patch)) };
      const found =
        Object.keys(all).length > 0 ? await this.#parts.update(tx, id, all) : await this.#parts.lock(tx, id);
      if (!found) throw notFound();
      if (patch.fitment !== undefined) await this.#fitment.replaceFitment(tx, id, patch.fitment);
    });
    this.#facetMemory.forget();
    return this.#wire(id);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.#parts.delete(id))) throw notFound();
    this.#facetMemory.forget();
  }

  /** After a write: the part as its admin sees it, with its fitment. */
  async #wire(id: string): Promise<PartDetails> {
    const row = await this.#parts.findById(id);
    if (!row) throw notFound();
    return { ...toWirePart(row, ADMIN), ...(await this.#extras(id)) };
  }

  /** What a part's details add to its list fields: its fitment, and its uploaded photos (ADR 013). */
  async #extras(id: string): Promise<Pick<PartDetails, 'fitment' | 'photos'>> {
    return { fitment: await this.#fitment.fitmentOf(id), photos: await this.#photos.photosOf(id) };
  }

  /** Brand (by name, created when new) and category (by slug, which must exist) as column values. */
  async #links(
    tx: Transaction,
    input: Pick<PartPatch, 'brand' | 'category'>,
  ): Promise<{ brandId?: string | null; categoryId?: string | null }> {
    const links: { brandId?: string | null; categoryId?: string | null } = {};
    if (input.brand !== undefined) links.brandId = input.brand ? await this.#parts.brandIdFor(tx, input.brand) : null;
    if (input.category !== undefined) {
      if (input.category === null) links.categoryId = null;
      else {
        const categoryId = await this.#parts.categoryIdOf(tx, input.category);
        if (!categoryId) throw new NotFoundError('This category does not exist.');
        links.categoryId = categoryId;
      }
    }
    return links;
  }

  /** A `vehicle` that names nothing is 404 (a garage may hold a vehicle an admin has since removed). */
  async #assertVehicle(vehicle: string | undefined): Promise<void> {
    // Asked every time, not remembered: a browser that still names a deleted vehicle must hear 404 at once, so
    // it forgets it (the fitment module's deletes are not seen here).
    if (vehicle !== undefined && !(await this.#fitment.vehicleExists(vehicle))) throw vehicleNotFound();
  }

  async #categories(): Promise<CategoryRows> {
    const remembered = this.#categoryMemory.get('tree');
    if (remembered) return remembered;
    const tree = await this.#parts.categories();
    this.#categoryMemory.remember('tree', tree);
    return tree;
  }
}

/** Roots by position, each followed by its children. */
function inTreeOrder<T extends { id: string; parentId: string | null }>(tree: T[]): T[] {
  return tree
    .filter((c) => c.parentId === null)
    .flatMap((root) => [root, ...tree.filter((c) => c.parentId === root.id)]);
}
