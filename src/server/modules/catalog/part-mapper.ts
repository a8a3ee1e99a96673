import type { Part } from '../../../shared/schemas/parts.ts';
import { centsToDollars } from '../../../shared/money.ts';
import type { parts } from '../../db/schema.ts';

type PartRow = typeof parts.$inferSelect;

/** The one boundary where clear names become the spec's wire spellings. */
export function toWirePart(row: PartRow): Part {
  return {
    _id: row.id,
    name: row.name,
    img: row.img,
    price: centsToDollars(row.priceCents),
    availablequantity: row.availableQuantity,
    minimunorder: row.minimumOrder,
    desription: row.description,
    email: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
  };
}
