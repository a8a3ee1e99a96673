import { centsToDollars } from '../../../shared/money.ts';
import type { Order, OrderDetail } from '../../../shared/schemas/orders.ts';
import type { MailOrder } from '../mail/ports.ts';
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
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The order page's view: the wire order, its one line, every step's time and the timeline in time order. */
export function toOrderDetail(row: OrderRow): OrderDetail {
  const steps: [OrderDetail['timeline'][number]['event'], Date | null][] = [
    ['placed', row.createdAt],
    ['paid', row.paidAt],
    ['shipped', row.shippedAt],
    ['delivered', row.deliveredAt],
    [row.cancelReason === 'expired' ? 'expired' : 'cancelled', row.cancelledAt],
    ['refunded', row.refundedAt],
    ['disputed', row.disputedAt],
  ];
  const timeline = steps
    .filter((step): step is [OrderDetail['timeline'][number]['event'], Date] => step[1] !== null)
    .sort((a, b) => a[1].getTime() - b[1].getTime())
    .map(([event, at]) => ({ event, at: at.toISOString() }));
  return {
    ...toWireOrder(row),
    items: [
      {
        partId: row.partId,
        name: row.partName,
        unitPrice: centsToDollars(row.unitPriceCents),
        quantity: row.quantity,
        lineTotal: centsToDollars(row.totalCents),
      },
    ],
    placedAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
    shippedAt: iso(row.shippedAt),
    deliveredAt: iso(row.deliveredAt),
    cancelledAt: iso(row.cancelledAt),
    cancelReason: row.cancelReason,
    refundedAt: iso(row.refundedAt),
    disputedAt: iso(row.disputedAt),
    timeline,
  };
}

/** What the order mails say about an order. */
export function toMailOrder(row: OrderRow): MailOrder {
  return {
    id: row.id,
    partName: row.partName,
    quantity: row.quantity,
    unitPriceCents: row.unitPriceCents,
    totalCents: row.totalCents,
    buyerName: row.userName,
    buyerEmail: row.email,
    address: row.address,
    phone: row.phone,
  };
}
