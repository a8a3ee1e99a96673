import { centsToDollars, dollarsToCents } from '../../../shared/money.ts';
import { distinctPartNumbers, normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { FitStatus } from '../../../shared/schemas/fitment.ts';
import type { Part, PartInput, PartPatch } from '../../../shared/schemas/parts.ts';
import type { PartChanges, PartRow } from './part-repository.ts';

/** With a vehicle asked about: universal parts fit everything, the rest as their fitment rows say. */
function fitOf(row: PartRow): FitStatus | undefined {
  if (row.fitsVehicle === null) return undefined;
  if (row.universal) return 'universal';
  return row.fitsVehicle ? 'fits' : 'doesNotFit';
}

/**
 * The one boundary where clear names become the spec's wire spellings. `email` (the admin who added the part) is
 * shown to admins only (L2): on public records it would hand out an administrator's sign-in address.
 */
export function toWirePart(row: PartRow, viewer: { isAdmin: boolean }): Part {
  const fit = fitOf(row);
  return {
    _id: row.id,
    name: row.name,
    img: row.img,
    price: centsToDollars(row.priceCents),
    availablequantity: row.availableQuantity,
    minimunorder: row.minimumOrder,
    desription: row.description,
    email: viewer.isAdmin ? row.createdByEmail : null,
    createdAt: row.createdAt.toISOString(),
    brand: row.brandSlug && row.brandName ? { slug: row.brandSlug, name: row.brandName } : null,
    mpn: row.mpn,
    oemNumbers: row.oemNumbers,
    category:
      row.categorySlug && row.categoryName
        ? {
            slug: row.categorySlug,
            name: row.categoryName,
            path: row.parentCategoryName ? [row.parentCategoryName, row.categoryName] : [row.categoryName],
          }
        : null,
    universal: row.universal,
    ...(fit === undefined ? {} : { fit }),
  };
}

/** MPN and OEM numbers as search compares them: one indexed list per part. */
export function partNumbersOf(mpn: string | null, oemNumbers: string[]): string[] {
  return [...new Set([mpn, ...oemNumbers].filter((n): n is string => !!n).map(normalizePartNumber))].filter(Boolean);
}

/** Wire fields of a new part → columns; dollars become integer cents here and nowhere else. */
export function fromPartInput(input: PartInput): Required<Omit<PartChanges, 'brandId' | 'categoryId'>> {
  const mpn = input.mpn ?? null;
  const oemNumbers = distinctPartNumbers(input.oemNumbers ?? []);
  return {
    name: input.name,
    description: input.desription ?? '',
    img: input.img,
    priceCents: dollarsToCents(input.price),
    availableQuantity: input.availablequantity,
    minimumOrder: input.minimunorder,
    mpn,
    oemNumbers,
    partNumbers: partNumbersOf(mpn, oemNumbers),
    universal: input.universal ?? false,
  };
}

/**
 * Only the fields present in the patch become column changes: an omitted field keeps its value. Part numbers are
 * recomputed by the service, which knows the numbers the patch leaves alone.
 */
export function fromPartPatch(patch: PartPatch): PartChanges {
  const changes: PartChanges = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.desription !== undefined) changes.description = patch.desription;
  if (patch.img !== undefined) changes.img = patch.img;
  if (patch.price !== undefined) changes.priceCents = dollarsToCents(patch.price);
  if (patch.availablequantity !== undefined) changes.availableQuantity = patch.availablequantity;
  if (patch.minimunorder !== undefined) changes.minimumOrder = patch.minimunorder;
  if (patch.mpn !== undefined) changes.mpn = patch.mpn;
  if (patch.oemNumbers !== undefined) changes.oemNumbers = distinctPartNumbers(patch.oemNumbers);
  if (patch.universal !== undefined) changes.universal = patch.universal;
  return changes;
}
