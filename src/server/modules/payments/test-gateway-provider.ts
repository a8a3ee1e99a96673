import crypto from 'node:crypto';
import type { CreateIntentInput, PaymentProvider, ProviderIntent, VerifiedPayment } from './payment-provider.ts';
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
}
