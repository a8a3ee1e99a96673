import type { AppConfig } from '../../config.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PaymentRepository } from './payment-repository.ts';
import { StripeProvider } from './stripe-provider.ts';
import { TestGatewayProvider } from './test-gateway-provider.ts';

/** The configured provider; the test gateway keeps its ledger in the payments module's own intents table. */
export function createPaymentProvider(config: AppConfig, payments: PaymentRepository): PaymentProvider {
  if (config.paymentProvider === 'stripe') {
    const { STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET } = config;
    if (!STRIPE_SECRET_KEY || !STRIPE_PUBLISHABLE_KEY || !STRIPE_WEBHOOK_SECRET) {
      throw new Error('Stripe is the payment provider but its keys are missing');
    }
    return new StripeProvider({
      secretKey: STRIPE_SECRET_KEY,
      publishableKey: STRIPE_PUBLISHABLE_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return new TestGatewayProvider(payments);
}
