import type { OrderStatus } from '../../../shared/enums.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Transaction } from '../../db/client.ts';
import {
  adminNewPaidOrderMail,
  enqueueMail,
  type MailOrder,
  type OrderLinks,
  paymentReceiptMail,
} from '../mail/ports.ts';
import { toMailOrder, toWireOrder } from './order-mapper.ts';
import type { OrderRepository, OrderRow } from './order-repository.ts';
import type { StockRelease } from './orders-service.ts';

/** What the payments module may know of an order. */
export interface PayableOrder {
  id: string;
  buyerId: string;
  email: string;
  totalCents: number;
  paid: boolean;
  status: OrderRow['status'];
  /** Where it ships: an order without an address is not paid for (nothing is paid that cannot ship). */
  address: string;
  transactionId: string | null;
  /** The order as the API answers it (the pay route returns it). */
  wire: Order;
  /** What the order mails (receipt, refund) say about it. */
  mail: MailOrder;
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
  /** Locks the order's row for the caller's transaction and answers it as it is now. */
  lock(tx: Transaction, orderId: string): Promise<PayableOrder | undefined>;
  /** Locks several orders' rows in id order (no deadlock between two overlapping sets); unknown ids left out. */
  lockMany(tx: Transaction, orderIds: readonly string[]): Promise<PayableOrder[]>;
  /** The orders one payment paid (one, or a group payment's several). */
  paidWith(transactionId: string): Promise<PayableOrder[]>;
  /**
   * Refunded, in the caller's transaction (the order's row locked first): from one of `from`, with the stock given
   * back when it had not shipped. Undefined when the order was in none of those states.
   */
  markRefunded(tx: Transaction, orderId: string, from: readonly OrderStatus[]): Promise<PayableOrder | undefined>;
  /** The card holder disputes the payment: the orders it paid are marked; answers those newly marked. */
  markDisputed(tx: Transaction, transactionId: string): Promise<PayableOrder[]>;
  /** Several orders at once (a group payment); unknown and malformed ids are left out. */
  findManyForPayment(orderIds: readonly string[]): Promise<PayableOrder[]>;
  /**
   * Marks every unpaid order of the set paid with the one transaction id, inside the caller's transaction, after
   * locking their rows in id order (two payments over overlapping sets cannot deadlock). Answers every order of the
   * set as it now is, and which of them this call paid.
   */
  markAllPaid(tx: Transaction, orderIds: readonly string[], transactionId: string): Promise<MarkedPaid>;
}

export interface MarkedPaid {
  orders: PayableOrder[];
  /** The ids this call moved from unpaid to paid (the others were paid, or cancelled, before). */
  newlyPaid: string[];
}

function toPayable(row: OrderRow): PayableOrder {
  return {
    id: row.id,
    buyerId: row.userId,
    email: row.email,
    totalCents: row.totalCents,
    paid: row.paid,
    status: row.status,
    address: row.address,
    transactionId: row.transactionId,
    wire: toWireOrder(row),
    mail: toMailOrder(row),
  };
}

/** Who hears of a paid order besides its buyer: ORDER_NOTIFY_EMAIL, or else every admin. */
export interface PaidOrderNotice {
  links: OrderLinks;
  notifyEmail: string | undefined;
  adminEmails(db: Transaction): Promise<string[]>;
}

export class OrderPayments implements OrderPaymentPort {
  readonly #orders: OrderRepository;
  readonly #stock: StockRelease;
  readonly #notice: PaidOrderNotice;
  constructor(orders: OrderRepository, stock: StockRelease, notice: PaidOrderNotice) {
    this.#orders = orders;
    this.#stock = stock;
    this.#notice = notice;
  }

  /**
   * One receipt per payment (a group payment's lists every order it paid) and one 'new paid order' notice, in the
   * transaction that marked them paid. Rendered here, inside it, because only here is it known which orders this
   * payment moved; the rows locked are these orders' own (React Email is loaded by then: the order-placed mail,
   * rendered before its transaction, loaded it). The payments service kicks delivery once the transaction commits.
   */
  async #mailPaid(tx: Transaction, paid: readonly PayableOrder[], transactionId: string): Promise<void> {
    const [first] = paid;
    if (!first) return;
    const mailOrders = paid.map((order) => order.mail);
    const receipt = await paymentReceiptMail(
      { transactionId, orders: mailOrders, buyerName: first.mail.buyerName },
      this.#notice.links,
    );
    await enqueueMail(tx, { kind: 'payment-receipt', to: first.email, ...receipt });
    const recipients = this.#notice.notifyEmail ? [this.#notice.notifyEmail] : await this.#notice.adminEmails(tx);
    if (recipients.length === 0) return;
    const notice = await adminNewPaidOrderMail({ transactionId, orders: mailOrders }, this.#notice.links);
    for (const to of recipients) await enqueueMail(tx, { kind: 'admin-new-paid-order', to, ...notice });
  }

  async findForPayment(orderId: string): Promise<PayableOrder | undefined> {
    const row = isUuid(orderId) ? await this.#orders.findById(orderId) : undefined;
    return row && toPayable(row);
  }

  async markPaid(tx: Transaction, orderId: string, transactionId: string): Promise<PayableOrder | undefined> {
    const { newlyPaid, orders } = await this.markAllPaid(tx, [orderId], transactionId);
    return newlyPaid.length > 0 ? orders[0] : undefined;
  }

  async findManyForPayment(orderIds: readonly string[]): Promise<PayableOrder[]> {
    const ids = orderIds.filter(isUuid);
    return (await this.#orders.findManyByIds(ids)).map(toPayable);
  }

  /**
   * THE one function that marks a set of orders paid (the confirm routes and Stripe's webhook all end here), in the
   * caller's transaction with the rows locked. Anything that must happen when orders become paid (their receipt
   * mail, through the outbox) belongs here, in this transaction.
   */
  async markAllPaid(tx: Transaction, orderIds: readonly string[], transactionId: string): Promise<MarkedPaid> {
    const locked = await this.#orders.lockMany(tx, [...new Set(orderIds.filter(isUuid))]);
    const orders: PayableOrder[] = [];
    const newlyPaid: string[] = [];
    for (const row of locked) {
      const paid = row.status === 'unpaid' ? await this.#orders.markPaid(tx, row.id, transactionId) : undefined;
      if (paid) newlyPaid.push(paid.id);
      orders.push(toPayable(paid ?? row));
    }
    await this.#mailPaid(
      tx,
      orders.filter((order) => newlyPaid.includes(order.id)),
      transactionId,
    );
    return { orders, newlyPaid };
  }

  async lock(tx: Transaction, orderId: string): Promise<PayableOrder | undefined> {
    const row = isUuid(orderId) ? await this.#orders.lock(tx, orderId) : undefined;
    return row && toPayable(row);
  }

  async lockMany(tx: Transaction, orderIds: readonly string[]): Promise<PayableOrder[]> {
    return (await this.#orders.lockMany(tx, [...new Set(orderIds.filter(isUuid))])).map(toPayable);
  }

  async paidWith(transactionId: string): Promise<PayableOrder[]> {
    return (await this.#orders.listByTransaction(transactionId)).map(toPayable);
  }

  async markRefunded(
    tx: Transaction,
    orderId: string,
    from: readonly OrderStatus[],
  ): Promise<PayableOrder | undefined> {
    const row = await this.#orders.markRefunded(tx, orderId, from);
    // Units that never left the shop go back on sale; shipped ones are with the customer.
    if (row?.partId && row.shippedAt === null) await this.#stock.release(tx, row.partId, row.quantity);
    return row && toPayable(row);
  }

  async markDisputed(tx: Transaction, transactionId: string): Promise<PayableOrder[]> {
    return (await this.#orders.markDisputed(tx, transactionId)).map(toPayable);
  }
}
