import { inArray } from 'drizzle-orm';
import { normalizePartNumber } from '../../shared/part-numbers.ts';
import type { Transaction } from './client.ts';
import { brands, categories, partFitments, parts, vehicleMakes, vehicleModels, vehicles } from './schema.ts';
import { type SeedPartDetails, seedPartDetails, seedVehicles } from './seed-data.ts';

/** Same rule as the catalogue's brand slugs (kept here so the seed needs no module). */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The demo vehicles, brands and what each demo part is and fits, in the seeding transaction. Makes, models and
 * years come from `seedVehicles`; the categories are the migration's. Returns how many vehicles were added.
 */
export async function seedFitment(tx: Transaction, partIds: Map<string, string>): Promise<number> {
  const makeRows = await tx
    .insert(vehicleMakes)
    .values(Object.keys(seedVehicles).map((name) => ({ name })))
    .returning();
  const makeIds = new Map(makeRows.map((row) => [row.name, row.id]));
  const modelValues = Object.entries(seedVehicles).flatMap(([make, models]) =>
    models.map((m) => ({ makeId: makeIds.get(make) ?? '', name: m.model, type: m.type })),
  );
  const modelRows = await tx.insert(vehicleModels).values(modelValues).returning();
  const modelIds = new Map(modelRows.map((row) => [`${row.makeId}|${row.name}`, row.id]));
  const modelId = (make: string, model: string) => {
    const id = modelIds.get(`${makeIds.get(make)}|${model}`);
    if (!id) throw new Error(`seed: unknown model ${make} ${model}`);
    return id;
  };

  const vehicleValues = Object.entries(seedVehicles).flatMap(([make, models]) =>
    models.flatMap((m) =>
      ['', ...(m.variants ?? [])].flatMap((variant) =>
        Array.from({ length: m.to - m.from + 1 }, (_, i) => ({
          modelId: modelId(make, m.model),
          year: m.from + i,
          variant,
        })),
      ),
    ),
  );
  await tx.insert(vehicles).values(vehicleValues);

  const details = Object.entries(seedPartDetails).filter(([name]) => partIds.has(name));
  const brandNames = [...new Set(details.map(([, d]) => d.brand))];
  const brandRows = await tx
    .insert(brands)
    .values(brandNames.map((name) => ({ name, slug: slugOf(name) })))
    .returning();
  const brandIds = new Map(brandRows.map((row) => [row.name, row.id]));
  const categoryRows = await tx
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(inArray(categories.slug, [...new Set(details.map(([, d]) => d.category))]));
  const categoryIds = new Map(categoryRows.map((row) => [row.slug, row.id]));

  for (const [name, detail] of details) {
    const partId = partIds.get(name) ?? '';
    await tx
      .update(parts)
      .set(columnsOf(detail, brandIds.get(detail.brand) ?? null, categoryIds.get(detail.category) ?? null))
      .where(inArray(parts.id, [partId]));
    if (detail.fitment?.length) {
      await tx.insert(partFitments).values(
        detail.fitment.map((row) => ({
          partId,
          modelId: modelId(row.make, row.model),
          yearFrom: row.from,
          yearTo: row.to,
          variant: row.variant ?? null,
        })),
      );
    }
  }
  return vehicleValues.length;
}

function columnsOf(detail: SeedPartDetails, brandId: string | null, categoryId: string | null) {
  const oemNumbers = detail.oemNumbers ?? [];
  return {
    brandId,
    categoryId,
    mpn: detail.mpn,
    oemNumbers,
    partNumbers: [...new Set([detail.mpn, ...oemNumbers].map(normalizePartNumber))],
    universal: detail.universal ?? false,
  };
}
