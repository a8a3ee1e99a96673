import { centsToDollars, dollarsToCents } from '../../../shared/money.ts';
import type { Part, PartInput, PartPatch } from '../../../shared/schemas/parts.ts';
import type { PartChanges, PartRow } from './part-repository.ts';

/**
 * The one boundary where clear names become the spec's wire spellings. `email` (the admin who added the part) is
 * shown to admins only (L2): on public records it would hand out an administrator's sign-in address.
 */
export function toWirePart(row: PartRow, viewer: { isAdmin: boolean }): Part {
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
  };
}

/** Wire fields of a new part → columns; dollars become integer cents here and nowhere else. */
export function fromPartInput(input: PartInput): Required<PartChanges> {
  return {
    name: input.name,
    description: input.desription ?? '',
    img: input.img,
    priceCents: dollarsToCents(input.price),
    availableQuantity: input.availablequantity,
    minimumOrder: input.minimunorder,
  };
}

/** Only the fields present in the patch become column changes: an omitted field keeps its value. */
export function fromPartPatch(patch: PartPatch): PartChanges {
  const changes: PartChanges = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.desription !== undefined) changes.description = patch.desription;
  if (patch.img !== undefined) changes.img = patch.img;
  if (patch.price !== undefined) changes.priceCents = dollarsToCents(patch.price);
  if (patch.availablequantity !== undefined) changes.availableQuantity = patch.availablequantity;
  if (patch.minimunorder !== undefined) changes.minimumOrder = patch.minimunorder;
  return changes;
}
