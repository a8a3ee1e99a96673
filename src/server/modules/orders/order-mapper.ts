import { centsToDollars } from '../../../shared/money.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { OrderRow } from './order-repository.ts';

/** The one boundary where the order's clear column names become the spec's wire fields. */
export function toWireOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    partId: row.partId,
    name: row.partName,
    price: centsToDollars(row.unitPriceCents),
    quantity: row.quantity,
    total: centsToDollars(row.totalCents),
    email: row.email,
    // The spec names the buyer's display name twice (userName in the payload, displayName on the order).
    userName: row.userName,
    displayName: row.userName,
    address: row.address,
    phone: row.phone,
    paid: row.paid,
    status: row.status,
    transactionId: row.transactionId,
    createdAt: row.createdAt.toISOString(),
  };
}
