import { centsToDollars, formatUsd } from '../../../shared/money.ts';
import { greeting, type MailContent, type MailDocument, renderMail } from './mail-layout.ts';

/**
 * The order mails: placed (what to pay, and a link to pay), payment receipt (one per payment, listing
 * every order it paid), shipped, delivered, cancelled or expired, refunded, and the admin's 'new paid order'. Each
 * takes plain data (the orders module's and payments module's rows reduced to what a mail says) and is rendered
 * BEFORE the transaction that enqueues it, as the account mails are; but for the two placed mails (one order, a
 * checkout), which are enqueued as their documents and rendered by the delivery job (placing spends no time in
 * React, and the mail says what the placing statement really reserved).
 */

export type OrderMailKind =
  | 'order-placed'
  | 'payment-receipt'
  | 'order-shipped'
  | 'order-delivered'
  | 'order-cancelled'
  | 'order-expired'
  | 'order-refunded'
  | 'admin-new-paid-order';

/** One order as a mail shows it. */
export interface MailOrder {
  id: string;
  partName: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  buyerName: string;
  buyerEmail: string;
  address: string;
  phone: string;
}

/** Where the mails link to, from PUBLIC_URL (the web app's /dashboard/order/:id and /dashboard/payment/:id). */
export interface OrderLinks {
  order(id: string): string;
  pay(id: string): string;
  /** One payment for several orders (the web app's /dashboard/pay?orders=a,b). */
  payAll(ids: readonly string[]): string;
  myOrders(): string;
  manageOrders(): string;
}

export function orderLinks(base: string): OrderLinks {
  return {
    order: (id) => `${base}/dashboard/order/${id}`,
    pay: (id) => `${base}/dashboard/payment/${id}`,
    payAll: (ids) => `${base}/dashboard/pay?${new URLSearchParams({ orders: ids.join(',') })}`,
    myOrders: () => `${base}/dashboard/myorder`,
    manageOrders: () => `${base}/dashboard/manageorder`,
  };
}

const ORDER_REASON = 'You received this email because it concerns an order you placed at Redline Parts.';
const usd = (cents: number) => formatUsd(centsToDollars(cents));
/** The short order number customers and the shop can quote: the id's first block. */
export const orderNumber = (id: string) => id.slice(0, 8).toUpperCase();

function lineRows(order: MailOrder): [string, string][] {
  return [
    ['Order', `#${orderNumber(order.id)}`],
    ['Part', order.partName],
    ['Quantity', `${order.quantity} PCS`],
    ['Unit price', usd(order.unitPriceCents)],
    ['Total', usd(order.totalCents)],
  ];
}

/**
 * Answered as its document, like the checkout's: the order is placed and its mail enqueued in one transaction, and
 * the delivery job renders the HTML (the placing spends no time in React; measured in bench/orders-throughput.ts).
 */
export function orderPlacedMail(order: MailOrder, links: OrderLinks, holdHours: number): MailDocument {
  return {
    subject: `Your Redline Parts order #${orderNumber(order.id)}: please pay ${usd(order.totalCents)}`,
    preview: `We hold ${order.quantity} PCS of ${order.partName} for you for ${holdHours} hours from your order.`,
    heading: 'Thank you for your order',
    blocks: [
      { kind: 'paragraph', text: greeting(order.buyerName) },
      { kind: 'paragraph', text: `We have reserved your parts. Please pay ${usd(order.totalCents)} to complete it.` },
      { kind: 'details', rows: lineRows(order) },
      { kind: 'action', label: `Pay ${usd(order.totalCents)}`, url: links.pay(order.id) },
      {
        kind: 'note',
        text: `Unpaid orders are held for ${holdHours} hours, then cancelled and the parts go back on sale.`,
      },
    ],
    reason: ORDER_REASON,
  };
}

/**
 * A checkout placed several orders at once: one mail lists them all, with one link to pay for all of them. Answered
 * as its document: the checkout enqueues it as data in its transaction and the delivery job renders the HTML.
 */
export function checkoutPlacedMail(
  checkout: { orders: readonly MailOrder[]; buyerName: string; payUrl: string },
  holdHours: number,
): MailDocument {
  const total = checkout.orders.reduce((sum, order) => sum + order.totalCents, 0);
  const count = checkout.orders.length === 1 ? '1 order' : `${checkout.orders.length} orders`;
  return {
    subject: `Your Redline Parts checkout: please pay ${usd(total)}`,
    preview: `We hold the parts of ${count} for you for ${holdHours} hours from your order.`,
    heading: 'Thank you for your order',
    blocks: [
      { kind: 'paragraph', text: greeting(checkout.buyerName) },
      { kind: 'paragraph', text: `We have reserved your parts (${count}). Please pay ${usd(total)} to complete them.` },
      ...checkout.orders.map((order) => ({ kind: 'details' as const, rows: lineRows(order) })),
      { kind: 'details', rows: [['Total to pay', usd(total)]] },
      { kind: 'action', label: `Pay ${usd(total)}`, url: checkout.payUrl },
      {
        kind: 'note',
        text: `Unpaid orders are held for ${holdHours} hours, then cancelled and the parts go back on sale.`,
      },
    ],
    reason: ORDER_REASON,
  };
}

/** One receipt per payment: a group payment lists every order it paid. */
export function paymentReceiptMail(
  payment: { transactionId: string; orders: readonly MailOrder[]; buyerName: string },
  links: OrderLinks,
): Promise<MailContent> {
  const total = payment.orders.reduce((sum, order) => sum + order.totalCents, 0);
  const first = payment.orders[0];
  return renderMail({
    subject: `Receipt: your payment of ${usd(total)} to Redline Parts`,
    preview: `Paid ${usd(total)} for ${payment.orders.length === 1 ? '1 order' : `${payment.orders.length} orders`}.`,
    heading: 'Payment received',
    blocks: [
      { kind: 'paragraph', text: greeting(payment.buyerName) },
      { kind: 'paragraph', text: `We received your payment of ${usd(total)}. We will ship your parts soon.` },
      ...payment.orders.map((order) => ({ kind: 'details' as const, rows: lineRows(order) })),
      {
        kind: 'details',
        rows: [
          ['Amount paid', usd(total)],
          ['Transaction id', payment.transactionId],
        ],
      },
      ...(first ? [{ kind: 'action' as const, label: 'See your order', url: links.order(first.id) }] : []),
    ],
    reason: ORDER_REASON,
  });
}

export function orderShippedMail(
  order: MailOrder & { carrier: string; trackingNumber: string },
  links: OrderLinks,
): Promise<MailContent> {
  return renderMail({
    subject: `Your Redline Parts order #${orderNumber(order.id)} has shipped`,
    preview: `${order.carrier} tracking number ${order.trackingNumber}`,
    heading: 'Your order is on its way',
    blocks: [
      { kind: 'paragraph', text: greeting(order.buyerName) },
      { kind: 'paragraph', text: `We shipped ${order.quantity} PCS of ${order.partName} with ${order.carrier}.` },
      {
        kind: 'details',
        rows: [
          ['Carrier', order.carrier],
          ['Tracking number', order.trackingNumber],
          ['Ship to', order.address || '—'],
        ],
      },
      { kind: 'action', label: 'See your order', url: links.order(order.id) },
    ],
    reason: ORDER_REASON,
  });
}

export function orderDeliveredMail(order: MailOrder, links: OrderLinks): Promise<MailContent> {
  return renderMail({
    subject: `Your Redline Parts order #${orderNumber(order.id)} was delivered`,
    preview: `${order.quantity} PCS of ${order.partName} were delivered.`,
    heading: 'Your order was delivered',
    blocks: [
      { kind: 'paragraph', text: greeting(order.buyerName) },
      { kind: 'paragraph', text: `Your ${order.quantity} PCS of ${order.partName} were delivered. Enjoy the ride.` },
      { kind: 'details', rows: lineRows(order) },
      { kind: 'action', label: 'See your order', url: links.order(order.id) },
    ],
    reason: ORDER_REASON,
  });
}

export function orderCancelledMail(
  order: MailOrder,
  reason: 'buyer' | 'admin' | 'expired',
  links: OrderLinks,
  holdHours: number,
): Promise<MailContent> {
  const why =
    reason === 'expired'
      ? `It was not paid within ${holdHours} hours, so we cancelled it and the parts went back on sale.`
      : reason === 'admin'
        ? 'The shop cancelled it. You were not charged.'
        : 'You cancelled it. You were not charged.';
  return renderMail({
    subject: `Your Redline Parts order #${orderNumber(order.id)} was ${reason === 'expired' ? 'not paid in time' : 'cancelled'}`,
    preview: why,
    heading: reason === 'expired' ? 'Your unpaid order expired' : 'Your order was cancelled',
    blocks: [
      { kind: 'paragraph', text: greeting(order.buyerName) },
      { kind: 'paragraph', text: why },
      { kind: 'details', rows: lineRows(order) },
      { kind: 'action', label: 'See my orders', url: links.myOrders() },
    ],
    reason: ORDER_REASON,
  });
}

export function orderRefundedMail(order: MailOrder, amountCents: number, links: OrderLinks): Promise<MailContent> {
  return renderMail({
    subject: `Refund of ${usd(amountCents)} for your Redline Parts order #${orderNumber(order.id)}`,
    preview: `We refunded ${usd(amountCents)} to your card.`,
    heading: 'Your order was refunded',
    blocks: [
      { kind: 'paragraph', text: greeting(order.buyerName) },
      {
        kind: 'paragraph',
        text: `We refunded ${usd(amountCents)} to the card you paid with. Banks usually show it within 5 to 10 days.`,
      },
      { kind: 'details', rows: [...lineRows(order), ['Refunded', usd(amountCents)]] },
      { kind: 'action', label: 'See your order', url: links.order(order.id) },
    ],
    reason: ORDER_REASON,
  });
}

/** To the shop: a paid order waits to be shipped. */
export function adminNewPaidOrderMail(
  payment: { transactionId: string; orders: readonly MailOrder[] },
  links: OrderLinks,
): Promise<MailContent> {
  const total = payment.orders.reduce((sum, order) => sum + order.totalCents, 0);
  const first = payment.orders[0];
  return renderMail({
    subject: `New paid order: ${usd(total)} from ${first?.buyerEmail ?? 'a customer'}`,
    preview: `${payment.orders.length === 1 ? '1 order' : `${payment.orders.length} orders`} to ship.`,
    heading: 'New paid order to ship',
    blocks: [
      {
        kind: 'paragraph',
        text: `${first?.buyerName || first?.buyerEmail || 'A customer'} paid ${usd(total)}. Ship to the address below.`,
      },
      ...payment.orders.map((order) => ({ kind: 'details' as const, rows: lineRows(order) })),
      {
        kind: 'details',
        rows: [
          ['Customer', first?.buyerEmail ?? ''],
          ['Ship to', first?.address || 'not given yet'],
          ['Phone', first?.phone || '—'],
          ['Transaction id', payment.transactionId],
        ],
      },
      { kind: 'action', label: 'Open the order', url: first ? links.order(first.id) : links.manageOrders() },
    ],
    reason: 'You received this email because you manage orders at Redline Parts.',
  });
}
