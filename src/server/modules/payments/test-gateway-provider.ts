import crypto from 'node:crypto';
import { ConflictError } from '../../errors.ts';
import type {
  CreateIntentInput,
  PaymentProvider,
  ProviderIntent,
  ProviderRefund,
  RefundInput,
  VerifiedPayment,
} from './payment-provider.ts';
import type { PaymentRepository } from './payment-repository.ts';

/** Stripe-style ids: a prefix and 24 random characters. */
export function stripeStyleId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24).padEnd(24, '0')}`;
}

/**
 * The built-in gateway: behaves like Stripe's test mode without leaving the machine. Its intents live in the
 * payment_intents table (the "gateway's ledger"); the card form confirms them through the payments routes.
 */
export class TestGatewayProvider implements PaymentProvider {
  readonly name = 'test' as const;
  readonly publishableKey = null;
  readonly #payments: PaymentRepository;

  constructor(payments: PaymentRepository) {
    this.#payments = payments;
  }

  async createIntent(_input: CreateIntentInput): Promise<ProviderIntent> {
    const id = stripeStyleId('pi');
    return {
      id,
      clientSecret: `${id}_secret_${crypto.randomBytes(18).toString('base64url')}`,
      status: 'requires_payment_method',
    };
  }

  async retrievePayment(id: string): Promise<VerifiedPayment | undefined> {
    const row = await this.#payments.findById(id, 'test');
    if (!row) return undefined;
    return {
      id: row.id,
      status: row.status,
      amountCents: row.amountCents,
      currency: row.currency,
      orderId: row.orderId,
      paymentGroup: row.groupKey,
    };
  }

  /**
   * Nothing to cancel at the gateway: its card confirmation locks the order's row and refuses a cancelled order, so
   * no card can be charged for it.
   */
  async cancelPayment(_id: string): Promise<'canceled' | 'too_late'> {
    return 'canceled';
  }

  /**
   * The gateway's refund: like Stripe's, only of a payment that succeeded. Never more than was paid: each order is
   * refunded at most once (the refunds table's one live refund per order) and a payment's orders add up to it.
   */
  async refund(input: RefundInput): Promise<ProviderRefund> {
    const row = await this.#payments.findById(input.paymentId, 'test');
    if (row?.status !== 'succeeded' || input.amountCents > row.amountCents) {
      throw new ConflictError(
        'The payment service refused the refund: this payment has not succeeded.',
        'refund_refused',
      );
    }
    return { id: stripeStyleId('re'), status: 'succeeded' };
  }
}
