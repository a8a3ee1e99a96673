import { decodeCursor, encodeCursor } from '../../../shared/cursor.ts';
import type { OrderCancelReason } from '../../../shared/enums.ts';
import { checkOrderQuantity, stockOutRefusal } from '../../../shared/order-rules.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import {
  type AllOrdersQuery,
  MY_ORDERS_DEFAULT_LIMIT,
  type MyOrdersQuery,
  type Order,
  type OrderDetail,
  type PlaceOrderBody,
  type ShipOrderBody,
} from '../../../shared/schemas/orders.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type AppError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { sameEmail } from '../accounts/ports.ts';
import {
  enqueueMail,
  type OrderLinks,
  orderCancelledMail,
  orderDeliveredMail,
  orderShippedMail,
} from '../mail/ports.ts';
import { clientAddressKey } from './client-address.ts';
import { holdRefusalError } from './hold-refusals.ts';
import { toMailOrder, toOrderDetail, toWireOrder } from './order-mapper.ts';
import { refusalError } from './order-refusals.ts';
import type { HoldLimits, OrderListResult, OrderPage, OrderRepository, OrderRow } from './order-repository.ts';

/**
 * Asked before an unpaid order is cancelled and before a paid one ships; the payments module answers (orders never
 * reads its tables). Required: without it a charged order could be cancelled and its stock released.
 */
export interface PaymentGuard {
  /** Outside any transaction: refuses (409) when the provider holds a payment for the order that is under way. */
  assertNoPaymentUnderway(orderId: string): Promise<void>;
  /**
   * Inside the cancelling transaction, after the order's row is locked: holds the order's payment records until the
   * transaction ends and says whether one of them has succeeded (a charge recorded here keeps its order).
   */
  hasSucceededPayment(tx: Transaction, orderId: string): Promise<boolean>;
}

/** Asked before a paid order ships (the payments module's refunds answer): a refund of it is asked or done. */
export interface RefundGuard {
  /** Inside the shipping transaction, after the order's row is locked. */
  hasLiveRefund(tx: Transaction, orderId: string): Promise<boolean>;
}

/** The catalogue's side of an order: its stock given back, in the caller's transaction. */
export interface StockRelease {
  release(tx: Transaction, partId: string, quantity: number): Promise<void>;
}

/** After a transaction that enqueued a mail commits: deliver it now (the job runner). */
export interface MailKick {
  kick(): void;
}

export interface OrderSettings {
  holdHours: number;
  holdLimits: HoldLimits;
  /** Keys the hash of the client address kept on an order (the app's secret). */
  addressSecret: string;
  links: OrderLinks;
}

/** A page of an order list on the wire: the orders, the total and the cursors of the pages beside it. */
export interface OrderListPage {
  items: Order[];
  total: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** The query's paging → the repository's (the query schema has already checked the cursors). */
function orderPageOf(page: { limit?: number; offset?: number; after?: string; before?: string }): OrderPage {
  const position = (text: string | undefined) => (text === undefined ? undefined : decodeCursor(text));
  return { limit: page.limit, offset: page.offset, after: position(page.after), before: position(page.before) };
}

function wireList(result: OrderListResult): OrderListPage {
  return {
    items: result.rows.map(toWireOrder),
    total: result.total,
    nextCursor: result.next ? encodeCursor(result.next) : null,
    prevCursor: result.prev ? encodeCursor(result.prev) : null,
  };
}

const orderNotFound = () => new NotFoundError('This order does not exist.');
const partNotFound = () => new NotFoundError('This part does not exist.');
const orderPaid = () => new ConflictError('A paid order cannot be deleted.', 'order_paid');

/**
 * Order rules. Who may touch an order: its buyer, or an admin. Anybody else is told the order does not exist
 * (404, never 403), so order ids cannot be probed. Order ids reach it already checked as UUIDs by the routes.
 */
export class OrdersService {
  readonly #db: Database;
  readonly #orders: OrderRepository;
  readonly #stock: StockRelease;
  readonly #paymentGuard: PaymentGuard;
  readonly #refundGuard: RefundGuard;
  readonly #mail: MailKick;
  readonly #settings: OrderSettings;

  constructor(deps: {
    db: Database;
    orders: OrderRepository;
    stock: StockRelease;
    paymentGuard: PaymentGuard;
    refundGuard: RefundGuard;
    mail: MailKick;
    settings: OrderSettings;
  }) {
    this.#db = deps.db;
    this.#orders = deps.orders;
    this.#stock = deps.stock;
    this.#paymentGuard = deps.paymentGuard;
    this.#refundGuard = deps.refundGuard;
    this.#mail = deps.mail;
    this.#settings = deps.settings;
  }

  /**
   * The statement that reserves stock is the guard; a refusal is explained by the shared order rule against the part
   * as that statement found it, then by the hold caps the statement says refused it. When both would have allowed the
   * order, another buyer changed the part in the meantime: one more attempt sees it as it is now. No mail is written
   * here: the please-pay mail goes only if the order is still unpaid later (payment-reminders.ts). `clientAddress`
   * is the request's address (the per-address hold cap; only its keyed hash is kept).
   */
  async place(
    user: SessionUser,
    body: PlaceOrderBody,
    db: Database | Transaction = this.#db,
    clientAddress?: string,
  ): Promise<Order> {
    // A body id that names nothing, malformed or unknown, is "not found" (path ids are checked by their schema).
    if (!isUuid(body.partId)) throw partNotFound();
    const order = {
      partId: body.partId,
      userId: user.id,
      emailVerified: user.emailVerified,
      placedFromKey: clientAddressKey(this.#settings.addressSecret, clientAddress),
      quantity: body.quantity,
      email: user.email,
      userName: user.displayName,
      address: body.address ?? '',
      phone: body.phone ?? '',
    };
    for (let attempt = 1; ; attempt++) {
      const result = await db.transaction((tx) => this.#orders.place(order, this.#settings.holdLimits, tx));
      if (result.ok) return toWireOrder(result.order);
      if (!result.part) throw partNotFound();
      const check = checkOrderQuantity(result.part, body.quantity);
      if (!check.ok) throw refusalError(check);
      const holdRefusal = holdRefusalError(result.part.hold, body.quantity);
      if (holdRefusal) throw holdRefusal;
      // Still racing after a second look: what other buyers took is what is missing.
      if (attempt === 2) throw refusalError(stockOutRefusal(result.part.availableQuantity));
    }
  }

  /** The caller's orders (an admin may name another buyer's email), one page at a time, with the total. */
  async listMine(user: SessionUser, query: MyOrdersQuery): Promise<OrderListPage> {
    const { email, status, ...page } = query;
    const paged = { ...orderPageOf(page), limit: page.limit ?? MY_ORDERS_DEFAULT_LIMIT };
    if (email && !sameEmail(email, user.email)) {
      if (!user.isAdmin) throw new ForbiddenError('You can only see your own orders.');
      return wireList(await this.#orders.listByEmail(email, paged, { status }));
    }
    return wireList(await this.#orders.listByUser(user.id, paged, { status }));
  }

  async #visibleOrder(user: SessionUser, id: string): Promise<OrderRow> {
    const order = await this.#orders.findById(id);
    if (!order || (order.userId !== user.id && !user.isAdmin)) throw orderNotFound();
    return order;
  }

  async get(user: SessionUser, id: string): Promise<Order> {
    return toWireOrder(await this.#visibleOrder(user, id));
  }

  /** The order page: everything about one order and its timeline (its buyer or an admin; anyone else 404). */
  async detail(user: SessionUser, id: string): Promise<OrderDetail> {
    return toOrderDetail(await this.#visibleOrder(user, id));
  }

  /**
   * The spec's Delete, which now means cancel: an unpaid order becomes cancelled and its stock goes back,
   * in one transaction that holds the order's row, unless money for it has moved. The row and its payment records
   * stay. A cancelled order is gone for the spec's client (404 on a second Delete; left out of the lists).
   */
  async delete(user: SessionUser, id: string): Promise<void> {
    const order = await this.#visibleOrder(user, id);
    if (order.status === 'cancelled') throw orderNotFound();
    if (order.paid) throw orderPaid();
    await this.#paymentGuard.assertNoPaymentUnderway(id);
    const reason: OrderCancelReason = order.userId === user.id ? 'buyer' : 'admin';
    const outcome = await this.#cancel(order, reason);
    if (outcome === 'paid') throw orderPaid();
    if (outcome === 'gone') throw orderNotFound();
  }

  /**
   * Cancels one unpaid order: lock its row, then its payment records (the order in which confirming a payment takes
   * them), release the stock and enqueue the mail, all in one transaction.
   */
  async #cancel(order: OrderRow, reason: OrderCancelReason, now = new Date()): Promise<'cancelled' | 'paid' | 'gone'> {
    const mail = await orderCancelledMail(toMailOrder(order), reason, this.#settings.links, this.#settings.holdHours);
    const outcome = await this.#db.transaction(async (tx) => {
      const locked = await this.#orders.lock(tx, order.id);
      if (!locked || locked.status === 'cancelled') return 'gone' as const;
      if (locked.status !== 'unpaid') return 'paid' as const;
      // A card payment that went through (order not yet marked paid) keeps its order: cancelling it would release
      // the stock of parts that were paid for.
      if (await this.#paymentGuard.hasSucceededPayment(tx, order.id)) return 'paid' as const;
      await this.#orders.cancel(tx, order.id, reason, now);
      if (locked.partId) await this.#stock.release(tx, locked.partId, locked.quantity);
      await enqueueMail(tx, {
        kind: reason === 'expired' ? 'order-expired' : 'order-cancelled',
        to: locked.email,
        ...mail,
      });
      return 'cancelled' as const;
    });
    if (outcome === 'cancelled') this.#mail.kick();
    return outcome;
  }

  /**
   * The expiry job: unpaid orders older than ORDER_HOLD_HOURS are cancelled (stock released, buyer mailed), a batch
   * at a time, each in its own short transaction. An order whose card payment is under way at the provider is left
   * for the next run. Answers how many expired.
   */
  async expireOverdue(now = new Date(), batch = 100): Promise<number> {
    const cutoff = new Date(now.getTime() - this.#settings.holdHours * 3_600_000);
    let expired = 0;
    for (const id of await this.#orders.listOverdueUnpaid(cutoff, batch)) {
      const order = await this.#orders.findById(id);
      if (order?.status !== 'unpaid') continue;
      try {
        await this.#paymentGuard.assertNoPaymentUnderway(id);
      } catch (error) {
        if (error instanceof ConflictError) continue;
        throw error;
      }
      if ((await this.#cancel(order, 'expired', now)) === 'cancelled') expired++;
    }
    return expired;
  }

  async listAll(query: AllOrdersQuery): Promise<OrderListPage> {
    const { status, q, ...page } = query;
    return wireList(await this.#orders.listAll(orderPageOf(page), { status, search: q }));
  }

  /**
   * Admin: paid → shipped, with carrier and tracking number (the spec's bodiless call ships without them).
   * Shipping a shipped order again is a no-op; an unpaid one, or one being refunded, cannot be shipped.
   */
  async ship(id: string, body: ShipOrderBody | undefined): Promise<Order> {
    const current = await this.#orders.findById(id);
    if (!current) throw orderNotFound();
    if (current.status === 'shipped') return toWireOrder(current);
    const shipment = { carrier: body?.carrier ?? '', trackingNumber: body?.trackingNumber ?? '' };
    const mail = await orderShippedMail({ ...toMailOrder(current), ...shipment }, this.#settings.links);
    const outcome = await this.#db.transaction(async (tx) => {
      const locked = await this.#orders.lock(tx, id);
      if (!locked) return { error: orderNotFound() };
      if (locked.status === 'shipped') return { order: locked };
      if (locked.status !== 'paid') return { error: notShippable(locked.status) };
      if (await this.#refundGuard.hasLiveRefund(tx, id)) {
        return {
          error: new ConflictError('This order is being refunded, so it cannot be shipped.', 'refund_under_way'),
        };
      }
      const shipped = await this.#orders.markShipped(tx, id, {
        carrier: shipment.carrier || null,
        trackingNumber: shipment.trackingNumber || null,
      });
      if (!shipped) return { error: notShippable(locked.status) };
      await enqueueMail(tx, { kind: 'order-shipped', to: shipped.email, ...mail });
      return { order: shipped, mailed: true };
    });
    if ('error' in outcome) throw outcome.error;
    if (outcome.mailed) this.#mail.kick();
    return toWireOrder(outcome.order);
  }

  /** Admin: shipped → delivered. Again on a delivered order: no-op; anything else 409. */
  async deliver(id: string): Promise<Order> {
    const current = await this.#orders.findById(id);
    if (!current) throw orderNotFound();
    if (current.status === 'delivered') return toWireOrder(current);
    const mail = await orderDeliveredMail(toMailOrder(current), this.#settings.links);
    const outcome = await this.#db.transaction(async (tx) => {
      const locked = await this.#orders.lock(tx, id);
      if (!locked) return { error: orderNotFound() };
      if (locked.status === 'delivered') return { order: locked };
      const delivered = await this.#orders.markDelivered(tx, id);
      if (!delivered) {
        return { error: new ConflictError('Only a shipped order can be marked delivered.', 'order_not_shipped') };
      }
      await enqueueMail(tx, { kind: 'order-delivered', to: delivered.email, ...mail });
      return { order: delivered, mailed: true };
    });
    if ('error' in outcome) throw outcome.error;
    if (outcome.mailed) this.#mail.kick();
    return toWireOrder(outcome.order);
  }
}

function notShippable(status: string): AppError {
  if (status === 'unpaid') return new ConflictError('Only a paid order can be shipped.', 'order_not_paid');
  return new ConflictError(`A ${status} order cannot be shipped.`, 'order_not_shippable');
}
