import type Stripe from 'stripe';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { AppError, ConflictError, NotFoundError } from '../../errors.ts';
import { enqueueMail, type MailContent, type OrderLinks, orderRefundedMail } from '../mail/ports.ts';
import type { OrderPaymentPort, PayableOrder } from '../orders/order-payment-port.ts';
import type { MailKick, RefundGuard } from '../orders/ports.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PaymentRepository } from './payment-repository.ts';
import type { RefundRepository, RefundRow } from './refund-repository.ts';

const orderNotFound = () => new NotFoundError('This order does not exist.');
const notRefundable = () =>
  new ConflictError('Only a paid order that has not shipped can be refunded.', 'order_not_refundable');

/** Stripe's refund states in which the money is not coming back. */
const REFUND_FAILED = new Set(['failed', 'canceled']);

/**
 * Refunds (ADR 002 amended): an admin refunds a paid order that has not shipped, through the provider that
 * took the payment (Stripe's Refunds API, or the test gateway); the units go back into stock. For an order paid as
 * part of a group payment, only that order's amount is refunded. As a recipe:
 *   1. one short transaction locks the order's row, checks it is paid and not shipped, and records a `pending`
 *      refund (from then on shipping it is refused, and a retry reuses this row and its idempotency key);
 *   2. the provider is asked, outside any transaction;
 *   3. one short transaction locks the order's row again, marks the refund succeeded and the order refunded,
 *      restocks, and enqueues the buyer's mail.
 * A refusal marks the refund failed (the row stays) and the order stays paid. Stripe's `charge.refunded` (a refund
 * made in Stripe's dashboard) and `charge.dispute.created` webhooks update the orders a payment paid.
 */
export class RefundsService implements RefundGuard {
  readonly #db: Database;
  readonly #provider: PaymentProvider;
  readonly #refunds: RefundRepository;
  readonly #payments: PaymentRepository;
  readonly #orders: OrderPaymentPort;
  readonly #mail: MailKick;
  readonly #links: OrderLinks;

  constructor(deps: {
    db: Database;
    provider: PaymentProvider;
    refunds: RefundRepository;
    payments: PaymentRepository;
    orders: OrderPaymentPort;
    mail: MailKick;
    links: OrderLinks;
  }) {
    this.#db = deps.db;
    this.#provider = deps.provider;
    this.#refunds = deps.refunds;
    this.#payments = deps.payments;
    this.#orders = deps.orders;
    this.#mail = deps.mail;
    this.#links = deps.links;
  }

  /** The orders module asks before shipping, with the order's row locked: a refund is asked or done. */
  async hasLiveRefund(tx: Transaction, orderId: string): Promise<boolean> {
    return Boolean(await this.#refunds.findLive(orderId, tx));
  }

  /** `POST /api/allorder/:id/refund`. Refunding a refunded order again answers it unchanged (idempotent). */
  async refund(orderId: string): Promise<Order> {
    const order = await this.#orders.findForPayment(orderId);
    if (!order) throw orderNotFound();
    if (order.status === 'refunded') return order.wire;
    if (order.status !== 'paid' || !order.transactionId) throw notRefundable();

    const pending = await this.#db.transaction(async (tx) => {
      const locked = await this.#orders.lock(tx, orderId);
      if (locked?.status !== 'paid' || !locked.transactionId) return undefined;
      return this.#refunds.insertPending(tx, {
        orderId,
        paymentId: locked.transactionId,
        provider: this.#provider.name,
        // A group payment's order is refunded its own total, never the whole payment.
        amountCents: locked.totalCents,
        source: 'admin',
      });
    });
    if (!pending) return this.#settled(orderId);
    if (pending.provider !== this.#provider.name) {
      throw new ConflictError(
        `This order was paid through ${pending.provider}, which this server does not use now.`,
        'refund_provider_mismatch',
      );
    }

    let providerRefundId = pending.providerRefundId;
    if (pending.status !== 'succeeded' || !providerRefundId) {
      try {
        const answer = await this.#provider.refund({
          paymentId: pending.paymentId,
          amountCents: pending.amountCents,
          idempotencyKey: `refund-${pending.id}`,
          orderId,
        });
        if (REFUND_FAILED.has(answer.status)) {
          await this.#refunds.markFailed(pending.id);
          throw new ConflictError('The payment service could not refund this payment.', 'refund_failed');
        }
        providerRefundId = answer.id;
      } catch (error) {
        // A refusal (4xx) ends this refund; an unreachable provider (5xx) leaves it pending for a retry, which
        // reuses the same idempotency key and so cannot refund twice.
        if (error instanceof AppError && error.statusCode < 500) await this.#refunds.markFailed(pending.id);
        throw error;
      }
    }
    return this.#complete(order, pending, providerRefundId);
  }

  async #complete(order: PayableOrder, pending: RefundRow, providerRefundId: string): Promise<Order> {
    const mail = await orderRefundedMail(order.mail, pending.amountCents, this.#links);
    const refunded = await this.#db.transaction(async (tx) => {
      const locked = await this.#orders.lock(tx, order.id);
      if (!locked) return undefined;
      await this.#refunds.markSucceeded(tx, pending.id, providerRefundId);
      const changed = await this.#orders.markRefunded(tx, order.id, ['paid']);
      if (changed) await enqueueMail(tx, { kind: 'order-refunded', to: changed.email, ...mail });
      return changed;
    });
    if (refunded) {
      this.#mail.kick();
      return refunded.wire;
    }
    return this.#settled(order.id);
  }

  /** The order changed under us (refunded by a concurrent call, or shipped first): answer what it is now. */
  async #settled(orderId: string): Promise<Order> {
    const now = await this.#orders.findForPayment(orderId);
    if (!now) throw orderNotFound();
    if (now.status === 'refunded') return now.wire;
    throw notRefundable();
  }

  /** Whether this module answers a Stripe event (the payments service answers the others). */
  handles(event: Stripe.Event): boolean {
    return event.type === 'charge.refunded' || event.type === 'charge.dispute.created';
  }

  /**
   * Stripe's `charge.refunded` and `charge.dispute.created`, after the signature was checked. The event id is
   * claimed in the transaction that changes the orders, so a repeated delivery changes nothing.
   */
  async handleStripeEvent(event: Stripe.Event): Promise<{ received: true; handled: boolean }> {
    if (event.type === 'charge.dispute.created') {
      const dispute = event.data.object;
      const intentId = idOf(dispute.payment_intent);
      const handled = await this.#db.transaction(async (tx) => {
        if (!(await this.#payments.claimWebhookEvent(tx, 'stripe', event.id)) || !intentId) return false;
        return (await this.#orders.markDisputed(tx, intentId)).length > 0;
      });
      return { received: true, handled };
    }
    if (event.type !== 'charge.refunded') return { received: true, handled: false };
    const charge = event.data.object;
    const intentId = idOf(charge.payment_intent);
    const paid = intentId ? await this.#orders.paidWith(intentId) : [];
    // Refunds this shop asked for are recorded already (by the admin's refund); what Stripe reports beyond them
    // was made in its dashboard: the orders it covers, in order, are refunded here.
    const known = new Set<string>();
    for (const refund of charge.refunds?.data ?? []) {
      if (await this.#refunds.findByProviderId(refund.id)) known.add(refund.id);
    }
    const ours = (charge.refunds?.data ?? []).filter((refund) => known.has(refund.id));
    let unexplained = charge.amount_refunded - ours.reduce((sum, refund) => sum + refund.amount, 0);
    const covered: PayableOrder[] = [];
    for (const order of paid) {
      if (order.status === 'refunded' || order.status === 'unpaid' || order.status === 'cancelled') continue;
      if (order.totalCents > unexplained) continue;
      covered.push(order);
      unexplained -= order.totalCents;
    }
    const mails = new Map<string, MailContent>();
    for (const order of covered)
      mails.set(order.id, await orderRefundedMail(order.mail, order.totalCents, this.#links));
    const handled = await this.#db.transaction(async (tx) => {
      if (!(await this.#payments.claimWebhookEvent(tx, 'stripe', event.id)) || !intentId) return false;
      let changed = false;
      for (const order of covered) {
        const locked = await this.#orders.lock(tx, order.id);
        if (!locked || (await this.#refunds.findLive(order.id, tx))) continue;
        const refunded = await this.#orders.markRefunded(tx, order.id, ['paid', 'shipped', 'delivered']);
        if (!refunded) continue;
        const row = await this.#refunds.insertPending(tx, {
          orderId: order.id,
          paymentId: intentId,
          provider: 'stripe',
          amountCents: order.totalCents,
          source: 'stripe',
        });
        await this.#refunds.markSucceeded(tx, row.id, `${charge.id}:${order.id}`);
        const mail = mails.get(order.id);
        if (mail) await enqueueMail(tx, { kind: 'order-refunded', to: refunded.email, ...mail });
        changed = true;
      }
      return changed;
    });
    if (handled) this.#mail.kick();
    return { received: true, handled };
  }
}

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? value : value.id;
}
