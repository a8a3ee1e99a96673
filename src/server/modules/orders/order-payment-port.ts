import { isUuid } from '../../../shared/schemas/common.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Transaction } from '../../db/client.ts';
import { toWireOrder } from './order-mapper.ts';
import type { OrderRepository, OrderRow } from './order-repository.ts';

/** What the payments module may know of an order. */
export interface PayableOrder {
  id: string;
  buyerId: string;
  email: string;
  totalCents: number;
  paid: boolean;
  transactionId: string | null;
  /** The order as the API answers it (the pay route returns it). */
  wire: Order;
}

/**
 * The orders module's narrow port for payments: read an order to pay for it, and mark it paid. Payments never
 * reaches the orders table any other way.
 */
export interface OrderPaymentPort {
  /** Undefined for an id that names no order, malformed ones included (they come from bodies and from Stripe). */
  findForPayment(orderId: string): Promise<PayableOrder | undefined>;
  /**
   * Marks the order paid only while it is still unpaid (so two confirmations cannot both win), inside the caller's
   * transaction so that the payment's own records change with it. Undefined when it was paid already.
   */
  markPaid(tx: Transaction, orderId: string, transactionId: string): Promise<PayableOrder | undefined>;
}

function toPayable(row: OrderRow): PayableOrder {
  return {
    id: row.id,
    buyerId: row.userId,
    email: row.email,
    totalCents: row.totalCents,
    paid: row.paid,
    transactionId: row.transactionId,
    wire: toWireOrder(row),
  };
}

export class OrderPayments implements OrderPaymentPort {
  readonly #orders: OrderRepository;
  constructor(orders: OrderRepository) {
    this.#orders = orders;
  }

  async findForPayment(orderId: string): Promise<PayableOrder | undefined> {
    const row = isUuid(orderId) ? await this.#orders.findById(orderId) : undefined;
    return row && toPayable(row);
  }

  async markPaid(tx: Transaction, orderId: string, transactionId: string): Promise<PayableOrder | undefined> {
    const row = await this.#orders.markPaid(tx, orderId, transactionId);
    return row && toPayable(row);
  }
}
