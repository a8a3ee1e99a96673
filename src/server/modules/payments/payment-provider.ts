import type { PaymentProviderName } from '../../../shared/enums.ts';

export interface CreateIntentInput {
  /** What the payment is for: one order (Stripe metadata `orderId`, as before) or a group's key (`paymentGroup`). */
  for: { orderId: string } | { paymentGroup: string };
  amountCents: number;
  currency: 'usd';
  /** One per order and amount, so a retried or concurrent request cannot create a second charge. */
  idempotencyKey: string;
  receiptEmail?: string;
}

export interface ProviderIntent {
  id: string;
  clientSecret: string;
  status: string;
}

/** What the provider itself says about a payment: the only thing trusted before an order is marked paid. */
export interface VerifiedPayment {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  /** The order the payment was created for (Stripe: metadata.orderId), or null when it was not made by us. */
  orderId: string | null;
  /** The group of orders it was created for (Stripe: metadata.paymentGroup), or null. */
  paymentGroup: string | null;
}

/** Give back part or all of a payment that succeeded. */
export interface RefundInput {
  /** The payment (intent) id the order was paid with. */
  paymentId: string;
  amountCents: number;
  /** One per refund row, so a retry after a crash or timeout cannot refund twice. */
  idempotencyKey: string;
  /** Our order, kept with the refund at the provider (Stripe metadata `orderId`). */
  orderId: string;
}

export interface ProviderRefund {
  id: string;
  /** Stripe's refund states: succeeded, pending (card networks still working on it), failed, canceled. */
  status: string;
}

/**
 * The one seam between the shop and a card processor. Two implementations: Stripe (the official SDK) and the
 * built-in test gateway that behaves like Stripe's test mode, so the shop works offline.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The key the browser needs (Stripe's publishable key); null for the test gateway. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** The payment as the provider knows it; undefined when the provider has no such payment. */
  retrievePayment(id: string): Promise<VerifiedPayment | undefined>;
  /** Refunds (part of) a succeeded payment. Never called inside a database transaction. */
  refund(input: RefundInput): Promise<ProviderRefund>;
  /**
   * Before an unpaid order is cancelled, its payment is cancelled at the provider, so no card can be
   * confirmed for it afterwards. `too_late` when the payment has gone through or is being processed.
   */
  cancelPayment(id: string): Promise<'canceled' | 'too_late'>;
}
