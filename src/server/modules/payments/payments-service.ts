import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { centsToDollars } from '../../../shared/money.ts';
import { MAX_ORDER_TOTAL_CENTS } from '../../../shared/order-rules.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type {
  ConfirmPaymentResponse,
  CreatePaymentIntentBody,
  CreatePaymentIntentResponse,
  TestGatewayConfirmBody,
} from '../../../shared/schemas/payments.ts';
import type { Database, Transaction } from '../../db/client.ts';
import {
  AppError,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
} from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { OrderPaymentPort, PayableOrder } from '../orders/order-payment-port.ts';
import type { PaymentGuard } from '../orders/ports.ts';
import { chargeOutcome, checkCardDetails } from './card-rules.ts';
import type { PaymentProvider, VerifiedPayment } from './payment-provider.ts';
import type { IntentOrderLink, PaymentIntentRow, PaymentRepository } from './payment-repository.ts';
import { StripeProvider } from './stripe-provider.ts';
import { stripeStyleId } from './test-gateway-provider.ts';

/** A card problem, answered with 402 as Stripe answers card errors. */
class CardError extends AppError {
  constructor(code: string, message: string, details?: unknown[]) {
    super(402, code, message, details);
  }
}

const notYourOrder = () => new NotFoundError('This order does not exist.');

/** Stripe's refusal to confirm a cancelled PaymentIntent, in the test gateway's words. */
const cancelledIntent = () =>
  new ConflictError(
    'This payment was replaced by a newer one for the same orders. Reload the page to pay.',
    'payment_intent_unexpected_state',
  );

/** A payment the provider confirmed, and the orders it pays: what `finishConfirm` marks paid. */
export interface ConfirmedPayment {
  intentId: string;
  orderIds: string[];
}

/** The sorted order ids, hashed: one key per set of orders, whatever order they were named in. */
export function paymentGroupKey(orderIds: readonly string[]): string {
  return crypto
    .createHash('sha256')
    .update([...orderIds].sort().join(','))
    .digest('hex');
}

/**
 * Only unpaid orders that have somewhere to ship are paid for (nothing is paid that cannot be shipped).
 * A paid (or otherwise closed) order is 409; orders without an address are 422, named in the details.
 */
function assertPayable(orders: readonly PayableOrder[]): void {
  if (orders.some((order) => order.paid)) throw new ConflictError('This order is already paid.', 'already_paid');
  if (orders.some((order) => order.status !== 'unpaid')) {
    throw new ConflictError('This order can no longer be paid.', 'order_not_payable');
  }
  const unaddressed = orders.filter((order) => order.address.trim() === '');
  if (unaddressed.length > 0) {
    throw new BusinessRuleError(
      'address_required',
      'Add A Shipping Address Before Paying: Nothing Is Paid That Cannot Be Shipped.',
      unaddressed.map((order) => ({ orderId: order.id })),
    );
  }
}

/** A payment is asked about only once its confirmation has had this long to arrive by itself. */
const RECONCILE_GRACE_MS = 60_000;
/** Intents older than this are not asked about any more: their orders have long been expired or paid. */
const RECONCILE_LOOKBACK_MS = 7 * 86_400_000;
/** Intents asked about per run: the next run continues (the oldest asked come first). */
const RECONCILE_BATCH = 100;

/**
 * What the provider's word on a payment lacks for its orders to be paid: the one check of the buyer's confirmation
 * and of the reconciliation. The provider must know it under our id, for exactly the amount we asked (and that its
 * orders add up to), in dollars, and say it succeeded.
 */
function paymentProblem(
  intent: PaymentIntentRow,
  links: readonly IntentOrderLink[],
  payment: VerifiedPayment | undefined,
): 'not_found' | 'amount_mismatch' | 'not_succeeded' | undefined {
  if (!payment || payment.id !== intent.id) return 'not_found';
  const linkedCents = links.reduce((sum, link) => sum + link.amountCents, 0);
  if (
    payment.amountCents !== intent.amountCents ||
    linkedCents !== intent.amountCents ||
    payment.currency.toLowerCase() !== 'usd'
  ) {
    return 'amount_mismatch';
  }
  return payment.status === 'succeeded' ? undefined : 'not_succeeded';
}

/** Stripe PaymentIntent states in which money has moved or is moving. */
const PAYMENT_UNDER_WAY = new Set(['succeeded', 'processing', 'requires_capture']);

/**
 * Payments as a recipe: load the order, check who asks, talk to the provider OUTSIDE any transaction,
 * then change the order in one short transaction that is conditional on it still being unpaid. Orders are read and
 * marked paid only through the orders module's port; this module's own tables are the intents, attempts and
 * webhook events. It is also the orders module's PaymentGuard.
 */
export class PaymentsService implements PaymentGuard {
  readonly provider: PaymentProvider;
  readonly #db: Database;
  readonly #orders: OrderPaymentPort;
  readonly #payments: PaymentRepository;
  /** After a commit that marked orders paid: their receipt goes out now, not at the next mail poll (ADR 007). */
  readonly #kickMail: () => void;

  constructor(
    db: Database,
    provider: PaymentProvider,
    payments: PaymentRepository,
    orders: OrderPaymentPort,
    kickMail: () => void = () => {},
  ) {
    this.#db = db;
    this.provider = provider;
    this.#payments = payments;
    this.#orders = orders;
    this.#kickMail = kickMail;
  }

  /**
   * Before an unpaid order is deleted: does the provider hold a payment for it that went through or is on its way?
   * Our database only learns of a Stripe success on confirmation or webhook, so Stripe itself is asked (outside any
   * transaction). A success already recorded here is refused by the delete's own transaction.
   */
  async assertNoPaymentUnderway(orderId: string): Promise<void> {
    if (this.provider.name !== 'stripe') return;
    // Every intent that pays the order, alone or in a group.
    const underWay = () =>
      new ConflictError(
        'A card payment for this order has gone through or is being processed, so it cannot be deleted.',
        'payment_under_way',
      );
    for (const intent of await this.#payments.intentsForOrder(orderId, 'stripe')) {
      const payment = await this.provider.retrievePayment(intent.id);
      if (payment && PAYMENT_UNDER_WAY.has(payment.status)) throw underWay();
      // Cancel it at Stripe first, so no card can be confirmed for an order being cancelled (a
      // confirmation racing this finds the intent canceled, or this finds it too late and the order stays).
      if (payment && payment.status !== 'canceled') {
        if ((await this.provider.cancelPayment(intent.id)) === 'too_late') throw underWay();
        await this.#payments.setStatus(this.#db, intent.id, 'canceled');
      }
    }
  }

  async hasSucceededPayment(tx: Transaction, orderId: string): Promise<boolean> {
    return this.#payments.lockHasSucceeded(tx, orderId);
  }

  /** The buyer's own order; anyone else's is "not found", so order ids cannot be probed. */
  async #ownOrder(user: SessionUser, orderId: string): Promise<PayableOrder> {
    const order = await this.#orders.findForPayment(orderId);
    if (!order) throw notYourOrder();
    if (order.buyerId !== user.id) {
      if (user.isAdmin) throw new ForbiddenError('Only the buyer can pay for an order.');
      throw notYourOrder();
    }
    return order;
  }

  /**
   * `POST /api/create-payment-intent`: `{orderId}` (the spec's form) or `{orderIds}` (one payment for a
   * checkout's orders, or for all unpaid ones). A single id in `orderIds` is the one-order payment.
   */
  async createIntent(user: SessionUser, body: CreatePaymentIntentBody): Promise<CreatePaymentIntentResponse> {
    const ids = body.orderIds ? [...new Set(body.orderIds)] : [body.orderId ?? ''];
    if (ids.length > 1) return this.#createGroupIntent(user, ids);
    const order = await this.#ownOrder(user, ids[0] ?? '');
    assertPayable([order]);

    const existing = await this.#payments.findForOrder(order.id, this.provider.name);
    await this.#retireOtherIntents([order.id], existing?.id);
    if (existing) return this.#answer(existing);

    // The amount comes from the order alone (unit price copied at ordering x quantity), never from the client.
    const retired = await this.#payments.retiredCount({ orderId: order.id }, this.provider.name);
    const intent = await this.provider.createIntent({
      for: { orderId: order.id },
      amountCents: order.totalCents,
      currency: 'usd',
      idempotencyKey: `order-${order.id}-${order.totalCents}${retired > 0 ? `-${retired}` : ''}`,
      receiptEmail: order.email,
    });
    const stored = await this.#payments.insertOrGet(
      {
        id: intent.id,
        orderId: order.id,
        provider: this.provider.name,
        amountCents: order.totalCents,
        currency: 'usd',
        clientSecret: intent.clientSecret,
        status: intent.status,
      },
      [{ orderId: order.id, amountCents: order.totalCents }],
    );
    return this.#answer(stored);
  }

  /**
   * Before a payment is offered for these orders, every OTHER live intent that pays any of them is cancelled (at
   * Stripe first), so that no order can be paid by two payments: its own and a group's (Pay All Unpaid after a
   * checkout's payment was left half-way), or two overlapping groups. The payment page the customer opened last is
   * the one that can be paid; an older page's card step then fails as Stripe fails a cancelled PaymentIntent. One
   * that has gone through or is being processed refuses the new payment instead (409): the orders are paid or about
   * to be.
   */
  async #retireOtherIntents(orderIds: readonly string[], keep: string | undefined): Promise<void> {
    const underWay = () =>
      new ConflictError(
        'A card payment for this order has gone through or is being processed. Reload My Order to see it.',
        'payment_under_way',
      );
    const seen = new Set<string>(keep ? [keep] : []);
    for (const orderId of orderIds) {
      for (const intent of await this.#payments.intentsForOrder(orderId, this.provider.name)) {
        if (seen.has(intent.id) || intent.status === 'canceled') continue;
        seen.add(intent.id);
        if (intent.status === 'succeeded') throw underWay();
        if (this.provider.name === 'stripe') {
          const payment = await this.provider.retrievePayment(intent.id);
          if (payment && PAYMENT_UNDER_WAY.has(payment.status)) throw underWay();
          if (
            payment &&
            payment.status !== 'canceled' &&
            (await this.provider.cancelPayment(intent.id)) === 'too_late'
          ) {
            throw underWay();
          }
        }
        // Conditional: a test-card confirmation that won the intent's row meanwhile has succeeded it.
        if (!(await this.#payments.cancelUnlessSucceeded(intent.id))) {
          const now = await this.#payments.findById(intent.id, this.provider.name);
          if (now?.status === 'succeeded') throw underWay();
        }
      }
    }
  }

  #answer(intent: PaymentIntentRow): CreatePaymentIntentResponse {
    return {
      clientSecret: intent.clientSecret,
      provider: this.provider.name,
      publishableKey: this.provider.publishableKey,
      amount: centsToDollars(intent.amountCents),
      currency: 'usd',
    };
  }

  /**
   * One intent for several of the caller's orders (ADR 011). The amount is the sum of the orders' totals, computed
   * here; the sorted ids make the group's key, so asking again for the same orders returns the same intent.
   */
  async #createGroupIntent(user: SessionUser, orderIds: string[]): Promise<CreatePaymentIntentResponse> {
    const found = await this.#orders.findManyForPayment(orderIds);
    const byId = new Map(found.map((order) => [order.id, order]));
    const orders = orderIds.map((id) => {
      const order = byId.get(id);
      if (!order || (order.buyerId !== user.id && !user.isAdmin)) throw notYourOrder();
      if (order.buyerId !== user.id) throw new ForbiddenError('Only the buyer can pay for an order.');
      return order;
    });
    assertPayable(orders);
    const amountCents = orders.reduce((sum, order) => sum + order.totalCents, 0);
    if (amountCents > MAX_ORDER_TOTAL_CENTS) {
      throw new BusinessRuleError(
        'payment_too_large',
        `One payment can be at most $${centsToDollars(MAX_ORDER_TOTAL_CENTS).toLocaleString('en-US')}. Pay for fewer orders at once.`,
      );
    }
    const groupKey = paymentGroupKey(orderIds);
    const existing = await this.#payments.findForGroup(groupKey, this.provider.name);
    await this.#retireOtherIntents(orderIds, existing?.id);
    if (existing) return this.#answer(existing);

    const retired = await this.#payments.retiredCount({ groupKey }, this.provider.name);
    const intent = await this.provider.createIntent({
      for: { paymentGroup: groupKey },
      amountCents,
      currency: 'usd',
      idempotencyKey: `group-${groupKey}-${amountCents}${retired > 0 ? `-${retired}` : ''}`,
      receiptEmail: orders[0]?.email,
    });
    const stored = await this.#payments.insertOrGet(
      {
        id: intent.id,
        groupKey,
        provider: this.provider.name,
        amountCents,
        currency: 'usd',
        clientSecret: intent.clientSecret,
        status: intent.status,
      },
      orders.map((order) => ({ orderId: order.id, amountCents: order.totalCents })),
    );
    return this.#answer(stored);
  }

  /**
   * `POST /api/payments/confirm`, first half, OUTSIDE any transaction: the payment must be one of ours, for orders
   * of the caller, and the provider must say it succeeded for its whole amount. The second half (`finishConfirm`)
   * marks the orders paid; the route runs it under the request's Idempotency-Key.
   */
  async prepareConfirm(user: SessionUser, transactionId: string): Promise<ConfirmedPayment> {
    const notFound = () =>
      new BusinessRuleError('payment_not_found', 'No payment with this transaction id was made for your orders.');
    const intent = await this.#payments.findById(transactionId, this.provider.name);
    if (!intent) throw notFound();
    const links = await this.#payments.linkedOrders(intent.id);
    const orders = await this.#orders.findManyForPayment(links.map((link) => link.orderId));
    if (orders.length === 0 || orders.some((order) => order.buyerId !== user.id)) throw notFound();
    const payment = await this.provider.retrievePayment(transactionId);
    const problem = paymentProblem(intent, links, payment);
    if (problem === 'not_found') throw notFound();
    if (problem === 'amount_mismatch') {
      throw new BusinessRuleError('payment_amount_mismatch', 'The payment does not match the amount of these orders.');
    }
    if (problem === 'not_succeeded') {
      throw new BusinessRuleError('payment_not_succeeded', 'This payment has not succeeded.');
    }
    return { intentId: intent.id, orderIds: links.map((link) => link.orderId) };
  }

  /**
   * The periodic reconciliation: a charge can go through at the provider while its confirmation never reaches us
   * (the server died between the two, the buyer closed the tab, Stripe's webhook was lost). Every open intent of
   * the last week, a minute after its last change, is asked about at the provider (Stripe: the PaymentIntent; the
   * test gateway: its ledger); one that succeeded for its whole amount marks its orders paid through `finishConfirm`,
   * as the buyer's confirmation would (each order at most once, its row locked); one the provider cancelled is
   * cancelled here; any other is left open and asked again later, less and less often. Never inside a transaction.
   */
  async reconcilePending(now = new Date(), limit = RECONCILE_BATCH): Promise<{ paid: number; cancelled: number }> {
    const outcome = { paid: 0, cancelled: 0 };
    const due = await this.#payments.dueForReconciliation(this.provider.name, {
      now,
      graceMs: RECONCILE_GRACE_MS,
      lookbackMs: RECONCILE_LOOKBACK_MS,
      limit,
    });
    for (const intent of due) {
      const links = await this.#payments.linkedOrders(intent.id);
      const orders = await this.#orders.findManyForPayment(links.map((link) => link.orderId));
      // Nothing left to pay (paid, or cancelled): the provider is not asked.
      if (!orders.some((order) => order.status === 'unpaid')) {
        await this.#payments.recordChecked(intent.id, intent.status, now);
        continue;
      }
      const payment = await this.provider.retrievePayment(intent.id);
      if (paymentProblem(intent, links, payment) === undefined) {
        const { orders: after } = await this.finishConfirm({
          intentId: intent.id,
          orderIds: links.map((link) => link.orderId),
        });
        if (after.some((order) => order.paid)) outcome.paid += 1;
        continue;
      }
      if (payment?.status === 'canceled') outcome.cancelled += 1;
      // Its status as the provider has it (a cancel there is a cancel here), and the next question later.
      await this.#payments.recordChecked(intent.id, payment?.status ?? intent.status, now);
    }
    return outcome;
  }

  /** Second half: every order of the payment paid with its id, in one transaction (a savepoint under a key's). */
  async finishConfirm(
    confirmed: ConfirmedPayment,
    db: Database | Transaction = this.#db,
  ): Promise<ConfirmPaymentResponse> {
    const marked = await db.transaction(async (tx) => {
      const result = await this.#orders.markAllPaid(tx, confirmed.orderIds, confirmed.intentId);
      await this.#payments.setStatus(tx, confirmed.intentId, 'succeeded');
      return result;
    });
    if (marked.newlyPaid.length > 0) this.#kickMail();
    return { transactionId: confirmed.intentId, orders: marked.orders.map((order) => order.wire) };
  }

  /**
   * `PATCH /api/myorder/:id`: the client's transaction id is only a claim. The provider must say the payment
   * succeeded, for this order, for its whole amount, in dollars; then the order becomes paid, exactly once.
   */
  async confirmOrderPaid(user: SessionUser, orderId: string, transactionId: string): Promise<Order> {
    const order = await this.#ownOrder(user, orderId);
    if (order.paid) {
      if (order.transactionId === transactionId) return order.wire;
      throw new ConflictError('This order is already paid.', 'already_paid');
    }
    const payment = await this.provider.retrievePayment(transactionId);
    if (!payment || payment.orderId !== order.id) {
      throw new BusinessRuleError('payment_not_found', 'No payment with this transaction id was made for this order.');
    }
    if (payment.amountCents !== order.totalCents || payment.currency.toLowerCase() !== 'usd') {
      throw new BusinessRuleError('payment_amount_mismatch', 'The payment does not match the amount of this order.');
    }
    if (payment.status !== 'succeeded') {
      throw new BusinessRuleError('payment_not_succeeded', 'This payment has not succeeded.');
    }
    return this.#markPaid(order.id, payment.id);
  }

  async #markPaid(orderId: string, transactionId: string): Promise<Order> {
    const updated = await this.#db.transaction(async (tx) => {
      const order = await this.#orders.markPaid(tx, orderId, transactionId);
      if (order) await this.#payments.setStatus(tx, transactionId, 'succeeded');
      return order;
    });
    if (updated) {
      this.#kickMail();
      return updated.wire;
    }
    // Someone else (the webhook, a second tab) got there first: fine if it was this very payment.
    const current = await this.#orders.findForPayment(orderId);
    if (!current) throw notYourOrder();
    if (current.transactionId === transactionId) return current.wire;
    throw new ConflictError('This order is already paid.', 'already_paid');
  }

  /** The built-in gateway's card confirmation, as Stripe.js's confirmCardPayment does it against Stripe. */
  async confirmTestCard(user: SessionUser, body: TestGatewayConfirmBody) {
    const intent = await this.#payments.findByClientSecret(body.clientSecret, 'test');
    if (!intent) throw new InvalidError('No such payment intent: the client secret is not valid.');
    // Every order the intent pays (one, or a group's): all the caller's, and all still unpaid.
    const links = await this.#payments.linkedOrders(intent.id);
    const orders = await this.#orders.findManyForPayment(links.map((link) => link.orderId));
    if (orders.length === 0 || orders.some((order) => order.buyerId !== user.id))
      throw new InvalidError('No such payment intent: the client secret is not valid.');
    if (intent.status === 'succeeded' || orders.some((order) => order.status !== 'unpaid')) {
      throw new ConflictError('This payment has already succeeded.', 'payment_intent_unexpected_state');
    }
    if (intent.status === 'canceled') throw cancelledIntent();
    const check = checkCardDetails(body.card);
    if (!check.ok) throw new CardError(check.code, check.message);

    const result = chargeOutcome(body.card.number);
    const chargeId = stripeStyleId('ch');
    if (result.outcome === 'declined') {
      await this.#db.transaction(async (tx) => {
        await this.#payments.recordAttempt(tx, {
          id: chargeId,
          intentId: intent.id,
          outcome: 'declined',
          declineCode: result.declineCode,
          cardLast4: check.last4,
        });
        await this.#payments.setStatus(tx, intent.id, 'requires_payment_method');
      });
      throw new CardError(result.code, result.message, [{ declineCode: result.declineCode, chargeId }]);
    }
    const won = await this.#db.transaction(async (tx) => {
      // The orders' rows first, then the intent: the order in which cancelling and expiring take them, so a cancel
      // and this charge run one after the other and a cancelled order is never charged.
      const locked = await this.#orders.lockMany(
        tx,
        orders.map((order) => order.id),
      );
      if (locked.some((order) => order.status !== 'unpaid')) return 'not_payable' as const;
      // Another payment for one of these orders went through first (a group's and the order's own, confirmed
      // side by side): this one is refused, so nobody pays twice. (The intents are locked in id order.)
      for (const order of locked) {
        if (await this.#payments.lockHasSucceeded(tx, order.id)) return 'not_payable' as const;
      }
      const first = await this.#payments.succeedOnce(tx, intent.id);
      if (first) {
        await this.#payments.recordAttempt(tx, {
          id: chargeId,
          intentId: intent.id,
          outcome: 'succeeded',
          cardLast4: check.last4,
        });
      }
      return first;
    });
    if (won === 'not_payable') {
      throw new ConflictError(
        'This order is no longer waiting for payment (it was cancelled or paid).',
        'order_not_payable',
      );
    }
    if (!won) {
      const now = await this.#payments.findById(intent.id, 'test');
      if (now?.status === 'canceled') throw cancelledIntent();
      throw new ConflictError('This payment has already succeeded.', 'payment_intent_unexpected_state');
    }
    return { status: 'succeeded' as const, transactionId: intent.id, chargeId };
  }

  /**
   * Stripe's webhook, after its signature was verified on the raw body. The event id is claimed in the same
   * transaction that marks the order paid, so a repeated delivery finds it claimed and changes nothing.
   */
  async handleStripeEvent(event: Stripe.Event): Promise<{ received: true; handled: boolean }> {
    if (event.type !== 'payment_intent.succeeded') {
      return { received: true, handled: false };
    }
    const intent = event.data.object;
    // The orders it pays come from our link table (a group's, or one order's); the amount must be what we asked.
    const stored = await this.#payments.findById(intent.id, 'stripe');
    const links = stored ? await this.#payments.linkedOrders(stored.id) : [];
    const linkedCents = links.reduce((sum, link) => sum + link.amountCents, 0);
    const matches =
      stored !== undefined &&
      links.length > 0 &&
      intent.amount === stored.amountCents &&
      linkedCents === stored.amountCents &&
      intent.currency.toLowerCase() === 'usd';
    const handled = await this.#db.transaction(async (tx) => {
      const first = await this.#payments.claimWebhookEvent(tx, 'stripe', event.id);
      if (!first || !matches) return false;
      const marked = await this.#orders.markAllPaid(
        tx,
        links.map((link) => link.orderId),
        intent.id,
      );
      if (marked.newlyPaid.length > 0) await this.#payments.setStatus(tx, intent.id, 'succeeded');
      return marked.newlyPaid.length > 0;
    });
    if (handled) this.#kickMail();
    return { received: true, handled };
  }

  verifyStripeSignature(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!(this.provider instanceof StripeProvider)) throw new NotFoundError();
    if (!signature) throw new InvalidError('The Stripe-Signature header is missing.');
    try {
      return this.provider.client.webhooks.constructEvent(rawBody, signature, this.provider.webhookSecret);
    } catch {
      throw new InvalidError('The webhook signature is not valid.');
    }
  }
}
