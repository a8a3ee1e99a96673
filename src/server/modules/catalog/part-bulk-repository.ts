import { and, asc, eq, gt, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { distinctPartNumbers, normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { brands, categories, parts } from '../../db/schema.ts';
import type { ImportPart as BulkPart, ExportPart as ExportPartRow } from '../catalog-transfer/ports.ts';
import { brandSlug } from './part-repository.ts';

/** Optional columns of a bulk update and their SQL types (a VALUES list needs each cell cast). */
const UPDATABLE = {
  description: { column: 'description', type: 'text' },
  img: { column: 'img', type: 'text' },
  minimumOrder: { column: 'minimum_order', type: 'integer' },
  universal: { column: 'universal', type: 'boolean' },
  categoryId: { column: 'category_id', type: 'uuid' },
} as const;
type Updatable = keyof typeof UPDATABLE;

/** Parts read per statement by `idsByMpn`. */
const MPN_PAGE = 10_000;

const textArray = (values: readonly string[]): SQL =>
  values.length === 0
    ? sql`'{}'::text[]`
    : sql`array[${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )}]::text[]`;

/** A row's OEM numbers (each once) and its part numbers as search compares them (MPN and OEM numbers). */
function numbersOf(row: BulkPart): { oem: string[]; all: string[] } {
  const oem = distinctPartNumbers(row.oemNumbers ?? []);
  return { oem, all: [...new Set([row.mpn, ...oem].map(normalizePartNumber))].filter(Boolean) };
}

/**
 * The catalogue's bulk writes and reads for import and export (ADR 014): many parts per statement, keyed
 * by part number. Kept apart from `PartRepository` (one part per call, the shop's pages) so each stays small.
 */
export class PartBulkRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Category ids by slug and by name (both lower case): an import may name either. */
  async categoryIds(): Promise<Map<string, string>> {
    const rows = await this.#db
      .select({ id: categories.id, slug: categories.slug, name: categories.name })
      .from(categories);
    const ids = new Map<string, string>();
    for (const row of rows) ids.set(row.name.toLowerCase(), row.id);
    for (const row of rows) ids.set(row.slug.toLowerCase(), row.id);
    return ids;
  }

  /**
   * Every part's id by its MPN as search compares part numbers (`normalizePartNumber`), read once per import in
   * pages: a lookup per batch would scan `part_numbers` again and again (its GIN index does not serve a list of
   * hundreds of numbers well). Where two parts share a number (typed before import existed) the oldest is kept.
   */
  async idsByMpn(): Promise<Map<string, string>> {
    const found = new Map<string, { id: string; createdAt: number }>();
    let after: string | undefined;
    for (;;) {
      const page = await this.#db
        .select({ id: parts.id, mpn: parts.mpn, createdAt: parts.createdAt })
        .from(parts)
        .where(and(isNotNull(parts.mpn), after === undefined ? undefined : gt(parts.id, after)))
        .orderBy(asc(parts.id))
        .limit(MPN_PAGE);
      for (const row of page) {
        const key = normalizePartNumber(row.mpn ?? '');
        const known = found.get(key);
        if (key && (!known || known.createdAt > row.createdAt.getTime())) {
          found.set(key, { id: row.id, createdAt: row.createdAt.getTime() });
        }
      }
      if (page.length < MPN_PAGE) break;
      after = page.at(-1)?.id;
    }
    return new Map([...found].map(([key, value]) => [key, value.id]));
  }

  /** Brand ids by brand slug, creating the brands not known yet. */
  async brandIds(tx: Transaction, names: readonly string[]): Promise<Map<string, string>> {
    const bySlug = new Map<string, string>();
    for (const name of names) if (!bySlug.has(brandSlug(name))) bySlug.set(brandSlug(name), name);
    if (bySlug.size === 0) return new Map();
    await tx
      .insert(brands)
      .values([...bySlug].map(([slug, name]) => ({ slug, name })))
      .onConflictDoNothing();
    const rows = await tx
      .select({ id: brands.id, slug: brands.slug })
      .from(brands)
      .where(inArray(brands.slug, [...bySlug.keys()]));
    return new Map(rows.map((row) => [row.slug, row.id]));
  }

  /**
   * Adds the new parts and updates the existing ones (`existing`: part id by MPN key), in the caller's transaction.
   * `columns` are the optional columns the file has: only those change on existing parts. Returns each part's id by
   * its MPN key.
   */
  async upsert(
    tx: Transaction,
    rows: readonly BulkPart[],
    existing: ReadonlyMap<string, string>,
    columns: ReadonlySet<keyof BulkPart>,
    createdByEmail: string,
  ): Promise<{ ids: Map<string, string>; created: number; updated: number }> {
    const brandIds = await this.brandIds(
      tx,
      rows.flatMap((row) => (row.brand ? [row.brand] : [])),
    );
    const brandIdOf = (row: BulkPart) =>
      row.brand === undefined ? undefined : row.brand === null ? null : (brandIds.get(brandSlug(row.brand)) ?? null);
    const ids = new Map<string, string>();
    const fresh = rows.filter((row) => !existing.has(normalizePartNumber(row.mpn)));
    const known = rows.filter((row) => existing.has(normalizePartNumber(row.mpn)));
    const updated = await this.#update(tx, known, existing, columns, brandIdOf);
    // A part deleted since `existing` was read is added again rather than lost.
    fresh.push(...known.filter((row) => !updated.has(existing.get(normalizePartNumber(row.mpn)) ?? '')));
    for (const row of known) {
      const id = existing.get(normalizePartNumber(row.mpn));
      if (id && updated.has(id)) ids.set(normalizePartNumber(row.mpn), id);
    }
    if (fresh.length > 0) {
      const inserted = await tx
        .insert(parts)
        .values(
          fresh.map((row) => {
            const numbers = numbersOf(row);
            return {
              name: row.name,
              mpn: row.mpn,
              priceCents: row.priceCents,
              availableQuantity: row.availableQuantity,
              description: row.description ?? '',
              img: row.img ?? '',
              minimumOrder: row.minimumOrder ?? 1,
              universal: row.universal ?? false,
              oemNumbers: numbers.oem,
              partNumbers: numbers.all,
              brandId: brandIdOf(row) ?? null,
              categoryId: row.categoryId ?? null,
              createdByEmail,
            };
          }),
        )
        .returning({ id: parts.id, mpn: parts.mpn });
      for (const row of inserted) if (row.mpn) ids.set(normalizePartNumber(row.mpn), row.id);
    }
    return { ids, created: fresh.length, updated: updated.size };
  }

  /** The existing parts' rows in one UPDATE … FROM (VALUES …); answers the ids it found. */
  async #update(
    tx: Transaction,
    known: readonly BulkPart[],
    existing: ReadonlyMap<string, string>,
    columns: ReadonlySet<keyof BulkPart>,
    brandIdOf: (row: BulkPart) => string | null | undefined,
  ): Promise<Set<string>> {
    if (known.length === 0) return new Set();
    const optional = (Object.keys(UPDATABLE) as Updatable[]).filter((key) => columns.has(key));
    const hasOem = columns.has('oemNumbers');
    const hasBrand = columns.has('brand');
    const values = sql.join(
      known.map((row) => {
        const numbers = numbersOf(row);
        const cells: SQL[] = [
          sql`${existing.get(normalizePartNumber(row.mpn))}::uuid`,
          sql`${row.mpn}::text`,
          sql`${row.name}::text`,
          sql`${row.priceCents}::integer`,
          sql`${row.availableQuantity}::integer`,
          ...optional.map((key) => sql`${row[key] ?? null}::${sql.raw(UPDATABLE[key].type)}`),
        ];
        if (hasOem) cells.push(textArray(numbers.oem), textArray(numbers.all));
        if (hasBrand) cells.push(sql`${brandIdOf(row) ?? null}::uuid`);
        return sql`(${sql.join(cells, sql`, `)})`;
      }),
      sql`, `,
    );
    const names = [
      'id',
      'mpn',
      'name',
      'price_cents',
      'available_quantity',
      ...optional.map((key) => UPDATABLE[key].column),
      ...(hasOem ? ['oem_numbers', 'part_numbers'] : []),
      ...(hasBrand ? ['brand_id'] : []),
    ];
    const changed = names.filter((name) => name !== 'id');
    const sets = changed.map((name) => sql.raw(`${name} = v.${name}`));
    // A row whose values are all as they were is not written: a supplier's file resent with a few new prices
    // rewrites only those parts (each rewrite costs a new row version and new entries in every index).
    const differs = sql.raw(
      `(${changed.map((name) => `parts.${name}`).join(', ')}) is distinct from (${changed.map((name) => `v.${name}`).join(', ')})`,
    );
    // Locked first, so the statement below and the answer agree. Every part still there counts as updated, changed
    // or not; one deleted since the import read the MPN keys is missing here (and added again by the caller).
    const ids = known.map((row) => existing.get(normalizePartNumber(row.mpn)) ?? '');
    const rows = await tx.select({ id: parts.id }).from(parts).where(inArray(parts.id, ids)).for('update');
    // Without OEM numbers in the file the part's list is kept: its MPN key (the match) is in it already.
    await tx.execute(
      sql`update ${parts} set ${sql.join([...sets, sql.raw('updated_at = now()')], sql`, `)} from (values ${values}) as v(${sql.raw(names.join(', '))}) where ${parts.id} = v.id and ${differs}`,
    );
    return new Set(rows.map((row) => row.id));
  }

  /** A page of the catalogue for export, in id order after `afterId` (keyset paging: each page is an index read). */
  async exportPage(afterId: string | undefined, limit: number): Promise<ExportPartRow[]> {
    return this.#db
      .select({
        id: parts.id,
        mpn: parts.mpn,
        name: parts.name,
        brandName: brands.name,
        oemNumbers: parts.oemNumbers,
        categorySlug: categories.slug,
        priceCents: parts.priceCents,
        availableQuantity: parts.availableQuantity,
        minimumOrder: parts.minimumOrder,
        description: parts.description,
        img: parts.img,
        universal: parts.universal,
      })
      .from(parts)
      .leftJoin(brands, eq(brands.id, parts.brandId))
      .leftJoin(categories, eq(categories.id, parts.categoryId))
      .where(afterId === undefined ? undefined : gt(parts.id, afterId))
      .orderBy(asc(parts.id))
      .limit(limit);
  }
}
