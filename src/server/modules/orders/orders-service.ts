import { belowMinimumMessage, toastMessages } from '../../../shared/messages.ts';
import { centsToDollars, formatUsd } from '../../../shared/money.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import type { AllOrdersQuery, Order, PlaceOrderBody } from '../../../shared/schemas/orders.ts';
import type { Database } from '../../db/client.ts';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import { sameEmail } from '../../plugins/auth.ts';
import type { SessionUser } from '../accounts/session-repository.ts';
import { toWireOrder } from './order-mapper.ts';
import { MAX_ORDER_TOTAL_CENTS, OrderRepository, type OrderRow } from './order-repository.ts';

const orderNotFound = () => new NotFoundError('This order does not exist.');

/**
 * Order rules. Who may touch an order: its buyer, or an admin. Anybody else is told the order does not exist
 * (404, never 403), so order ids cannot be probed.
 */
/** Asked before an order is deleted; the payments module answers whether money is already on its way. */
export interface PaymentGuard {
  assertNoPaymentUnderway(orderId: string): Promise<void>;
}

export class OrdersService {
  readonly #orders: OrderRepository;
  readonly #paymentGuard: PaymentGuard | undefined;
  constructor(db: Database, paymentGuard?: PaymentGuard) {
    this.#orders = new OrderRepository(db);
    this.#paymentGuard = paymentGuard;
  }

  async place(user: SessionUser, body: PlaceOrderBody): Promise<Order> {
    if (!isUuid(body.partId)) throw new NotFoundError('This part does not exist.');
    const result = await this.#orders.place({
      partId: body.partId,
      userId: user.id,
      quantity: body.quantity,
      email: user.email,
      userName: user.displayName,
      address: body.address ?? '',
      phone: body.phone ?? '',
    });
    if (result.ok) return toWireOrder(result.order);
    switch (result.reason) {
      case 'part_not_found':
        throw new NotFoundError('This part does not exist.');
      case 'below_minimum':
        throw new BusinessRuleError('below_minimum_order', belowMinimumMessage(result.minimumOrder), [
          { path: 'body.quantity', minimumOrder: result.minimumOrder },
        ]);
      case 'too_large':
        throw new BusinessRuleError(
          'order_too_large',
          `One order can be at most ${formatUsd(centsToDollars(MAX_ORDER_TOTAL_CENTS))}. Please order fewer PCS.`,
          [{ path: 'body.quantity', maximumTotal: centsToDollars(MAX_ORDER_TOTAL_CENTS) }],
        );
      case 'stock_out':
        throw new BusinessRuleError('stock_out', toastMessages.stockOut, [
          { path: 'body.quantity', availableQuantity: result.availableQuantity },
        ]);
    }
  }

  async listMine(user: SessionUser, email: string | undefined): Promise<Order[]> {
    if (email && !sameEmail(email, user.email)) {
      if (!user.isAdmin) throw new ForbiddenError('You can only see your own orders.');
      return (await this.#orders.listByEmail(email)).map(toWireOrder);
    }
    return (await this.#orders.listByUser(user.id)).map(toWireOrder);
  }

  async #visibleOrder(user: SessionUser, id: string): Promise<OrderRow> {
    const order = isUuid(id) ? await this.#orders.findById(id) : undefined;
    if (!order || (order.userId !== user.id && !user.isAdmin)) throw orderNotFound();
    return order;
  }

  async get(user: SessionUser, id: string): Promise<Order> {
    return toWireOrder(await this.#visibleOrder(user, id));
  }

  async delete(user: SessionUser, id: string): Promise<void> {
    const order = await this.#visibleOrder(user, id);
    if (order.paid) throw new ConflictError('A paid order cannot be deleted.', 'order_paid');
    await this.#paymentGuard?.assertNoPaymentUnderway(id);
    const result = await this.#orders.deleteUnpaid(id);
    if (result.ok) return;
    if (result.reason === 'paid') throw new ConflictError('A paid order cannot be deleted.', 'order_paid');
    throw orderNotFound();
  }

  async listAll(query: AllOrdersQuery): Promise<{ items: Order[]; total: number }> {
    const { rows, total } = await this.#orders.listAll(query);
    return { items: rows.map(toWireOrder), total };
  }

  /** Admin: paid → shipped. Shipping a shipped order again is a no-op; an unpaid one cannot be shipped. */
  async ship(id: string): Promise<Order> {
    const updated = isUuid(id) ? await this.#orders.markShipped(id) : undefined;
    if (updated) return toWireOrder(updated);
    const current = isUuid(id) ? await this.#orders.findById(id) : undefined;
    if (!current) throw orderNotFound();
    if (current.status === 'shipped') return toWireOrder(current);
    throw new ConflictError('Only a paid order can be shipped.', 'order_not_paid');
  }
}
