import { checkOrderQuantity, stockOutRefusal } from '../../../shared/order-rules.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import {
  type AllOrdersQuery,
  MY_ORDERS_DEFAULT_LIMIT,
  type MyOrdersQuery,
  type Order,
  type PlaceOrderBody,
} from '../../../shared/schemas/orders.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { sameEmail } from '../accounts/emails.ts';
import { toWireOrder } from './order-mapper.ts';
import { refusalError } from './order-refusals.ts';
import type { OrderRepository, OrderRow } from './order-repository.ts';

/**
 * Asked before an unpaid order is deleted; the payments module answers (orders never reads its tables).
 * Required: without it a charged order could be deleted and its stock released.
 */
export interface PaymentGuard {
  /** Outside any transaction: refuses (409) when the provider holds a payment for the order that is under way. */
  assertNoPaymentUnderway(orderId: string): Promise<void>;
  /**
   * Inside the deleting transaction, after the order's row is locked: holds the order's payment records until the
   * transaction ends and says whether one of them has succeeded (a charge recorded here keeps its order).
   */
  hasSucceededPayment(tx: Transaction, orderId: string): Promise<boolean>;
}

/** The catalogue's side of deleting an order: the catalog module gives the stock back, in the caller's transaction. */
export interface StockRelease {
  release(tx: Transaction, partId: string, quantity: number): Promise<void>;
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

  constructor(db: Database, orders: OrderRepository, stock: StockRelease, paymentGuard: PaymentGuard) {
    this.#db = db;
    this.#orders = orders;
    this.#stock = stock;
    this.#paymentGuard = paymentGuard;
  }

  /**
   * The statement that reserves stock is the guard; a refusal is explained by the shared order rule against the part
   * as that statement found it. When the rule would have allowed the order, another buyer changed the part in the
   * meantime: one more attempt sees it as it is now.
   */
  async place(user: SessionUser, body: PlaceOrderBody, db: Database | Transaction = this.#db): Promise<Order> {
    // A body id that names nothing, malformed or unknown, is "not found" (path ids are checked by their schema).
    if (!isUuid(body.partId)) throw partNotFound();
    const order = {
      partId: body.partId,
      userId: user.id,
      quantity: body.quantity,
      email: user.email,
      userName: user.displayName,
      address: body.address ?? '',
      phone: body.phone ?? '',
    };
    for (let attempt = 1; ; attempt++) {
      const result = await this.#orders.place(order, db);
      if (result.ok) return toWireOrder(result.order);
      if (!result.part) throw partNotFound();
      const check = checkOrderQuantity(result.part, body.quantity);
      if (!check.ok) throw refusalError(check);
      // Still racing after a second look: what other buyers took is what is missing.
      if (attempt === 2) throw refusalError(stockOutRefusal(result.part.availableQuantity));
    }
  }

  /** The caller's orders (an admin may name another buyer's email), one page at a time, with the total. */
  async listMine(user: SessionUser, query: MyOrdersQuery): Promise<{ items: Order[]; total: number }> {
    const { email, ...page } = query;
    const paged = { limit: page.limit ?? MY_ORDERS_DEFAULT_LIMIT, offset: page.offset };
    if (email && !sameEmail(email, user.email)) {
      if (!user.isAdmin) throw new ForbiddenError('You can only see your own orders.');
      const { rows, total } = await this.#orders.listByEmail(email, paged);
      return { items: rows.map(toWireOrder), total };
    }
    const { rows, total } = await this.#orders.listByUser(user.id, paged);
    return { items: rows.map(toWireOrder), total };
  }

  async #visibleOrder(user: SessionUser, id: string): Promise<OrderRow> {
    const order = await this.#orders.findById(id);
    if (!order || (order.userId !== user.id && !user.isAdmin)) throw orderNotFound();
    return order;
  }

  async get(user: SessionUser, id: string): Promise<Order> {
    return toWireOrder(await this.#visibleOrder(user, id));
  }

  /** Deletes an unpaid order and gives its stock back, in one transaction, unless money for it has moved. */
  async delete(user: SessionUser, id: string): Promise<void> {
    const order = await this.#visibleOrder(user, id);
    if (order.paid) throw orderPaid();
    await this.#paymentGuard.assertNoPaymentUnderway(id);
    const outcome = await this.#db.transaction(async (tx) => {
      // The order's row first, then its payment records: the order in which confirming a payment takes them.
      const unpaid = await this.#orders.lockUnpaid(tx, id);
      if (!unpaid) return (await this.#orders.findById(id, tx)) ? 'paid' : 'gone';
      // A card payment that went through (order not yet marked paid) keeps its order: deleting it would release
      // the stock and, by cascade, erase the only record of the charge.
      if (await this.#paymentGuard.hasSucceededPayment(tx, id)) return 'paid';
      await this.#orders.delete(tx, id);
      if (unpaid.partId) await this.#stock.release(tx, unpaid.partId, unpaid.quantity);
      return 'deleted';
    });
    if (outcome === 'paid') throw orderPaid();
    if (outcome === 'gone') throw orderNotFound();
  }

  async listAll(query: AllOrdersQuery): Promise<{ items: Order[]; total: number }> {
    const { rows, total } = await this.#orders.listAll(query);
    return { items: rows.map(toWireOrder), total };
  }

  /** Admin: paid → shipped. Shipping a shipped order again is a no-op; an unpaid one cannot be shipped. */
  async ship(id: string): Promise<Order> {
    const updated = await this.#orders.markShipped(id);
    if (updated) return toWireOrder(updated);
    const current = await this.#orders.findById(id);
    if (!current) throw orderNotFound();
    if (current.status === 'shipped') return toWireOrder(current);
    throw new ConflictError('Only a paid order can be shipped.', 'order_not_paid');
  }
}
