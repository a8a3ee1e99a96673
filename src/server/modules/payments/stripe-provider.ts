import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { AppError } from '../../errors.ts';
import type {
  CreateIntentInput,
  PaymentProvider,
  ProviderIntent,
  ProviderRefund,
  RefundInput,
  VerifiedPayment,
} from './payment-provider.ts';

interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Tests point the SDK at a local stand-in of Stripe's API. */
  apiBase?: string | undefined;
}

class PaymentProviderUnavailableError extends AppError {
  constructor() {
    super(503, 'payment_provider_unavailable', 'The payment service cannot be reached right now. Please try again.');
  }
}

/**
 * The SDK is loaded when a StripeProvider is built, not when this file is imported: a shop on the test gateway never
 * needs it, and it would add to the heap at rest (memory at rest has a budget: docs/performance.md).
 */
function stripeSdk(): typeof Stripe {
  stripeModule ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return stripeModule;
}
let stripeModule: typeof Stripe | undefined;

function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  const StripeSdk = stripeSdk();
  return new StripeSdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe through its official SDK. Never called inside a database transaction. */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  readonly client: Stripe;

  constructor(settings: StripeSettings) {
    this.publishableKey = settings.publishableKey;
    this.webhookSecret = settings.webhookSecret;
    this.client = createStripeClient(settings);
  }

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: input.for,
          ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error('Stripe returned a payment intent without a client secret');
      return { id: intent.id, clientSecret: intent.client_secret, status: intent.status };
    } catch (error) {
      throw toAppError(error);
    }
  }

  async retrievePayment(id: string): Promise<VerifiedPayment | undefined> {
    // Only payment intent ids are looked up: anything else is not a payment this shop made.
    if (!/^pi_[A-Za-z0-9]{6,}$/.test(id)) return undefined;
    try {
      const intent = await this.client.paymentIntents.retrieve(id);
      return {
        id: intent.id,
        status: intent.status,
        amountCents: intent.amount,
        currency: intent.currency,
        orderId: intent.metadata?.orderId ?? null,
        paymentGroup: intent.metadata?.paymentGroup ?? null,
      };
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return undefined;
      throw toAppError(error);
    }
  }

  /** `POST /v1/payment_intents/:id/cancel`; Stripe refuses once the intent succeeded or is processing. */
  async cancelPayment(id: string): Promise<'canceled' | 'too_late'> {
    try {
      await this.client.paymentIntents.cancel(id);
      return 'canceled';
    } catch (error) {
      if (
        error instanceof stripeSdk().errors.StripeInvalidRequestError &&
        error.code === 'payment_intent_unexpected_state'
      ) {
        // Already canceled is fine; succeeded or processing means money is moving.
        const payment = await this.retrievePayment(id);
        return payment?.status === 'canceled' ? 'canceled' : 'too_late';
      }
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.code === 'resource_missing') {
        return 'canceled';
      }
      throw toAppError(error);
    }
  }

  /** The Refunds API: `POST /v1/refunds` with the payment intent, the amount and our order id. */
  async refund(input: RefundInput): Promise<ProviderRefund> {
    try {
      const refund = await this.client.refunds.create(
        { payment_intent: input.paymentId, amount: input.amountCents, metadata: { orderId: input.orderId } },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id, status: refund.status ?? 'pending' };
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) throw new RefundRefusedError(error.message);
      throw toAppError(error);
    }
  }
}

/** Stripe refused to refund (e.g. already refunded in its dashboard, or the charge is disputed): 409 with its words. */
class RefundRefusedError extends AppError {
  constructor(message: string) {
    super(409, 'refund_refused', `The payment service refused the refund: ${message}`);
  }
}

function toAppError(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (error instanceof stripeSdk().errors.StripeConnectionError || error instanceof stripeSdk().errors.StripeAPIError) {
    return new PaymentProviderUnavailableError();
  }
  return error instanceof Error ? error : new Error(String(error));
}
