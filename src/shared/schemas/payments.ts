import { z } from 'zod';
import { paymentProviders } from '../enums.ts';
import { orderSchema } from './orders.ts';

/** The most orders one payment covers (a checkout's lines, or Pay All Unpaid). */
export const MAX_ORDERS_PER_PAYMENT = 50;

/**
 * `POST /api/create-payment-intent`. The spec sent `{orderId, price}`; `price` is accepted and ignored: the orders
 * set the amount. `{orderIds}` starts one payment for several orders (a checkout, Pay All Unpaid).
 */
export const createPaymentIntentBodySchema = z
  .strictObject({
    orderId: z.string().min(1).max(64).optional().describe('One order (the spec’s form)'),
    orderIds: z
      .array(z.string().min(1).max(64))
      .min(1, 'Choose At Least One Order')
      .max(MAX_ORDERS_PER_PAYMENT, `One Payment Covers At Most ${MAX_ORDERS_PER_PAYMENT} Orders`)
      .optional()
      .describe('Several orders paid at once'),
    price: z.unknown().optional().describe('Ignored: the amount is computed from the order'),
  })
  .refine((body) => (body.orderId === undefined) !== (body.orderIds === undefined), {
    message: 'Name One Order (orderId) Or Several (orderIds)',
  });
export type CreatePaymentIntentBody = z.infer<typeof createPaymentIntentBodySchema>;

/** `POST /api/payments/confirm`: the provider's payment id, checked with the provider before anything is paid. */
export const confirmPaymentBodySchema = z.strictObject({
  transactionId: z.string().trim().min(1, 'Transaction Id Is Required').max(255),
});

export const confirmPaymentResponseSchema = z.object({
  transactionId: z.string(),
  orders: z.array(orderSchema),
});
export type ConfirmPaymentResponse = z.infer<typeof confirmPaymentResponseSchema>;

export const createPaymentIntentResponseSchema = z.object({
  clientSecret: z.string(),
  provider: z.enum(paymentProviders),
  publishableKey: z.string().nullable(),
  amount: z.number().describe('Dollars the card will be charged'),
  currency: z.string(),
});
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

export const paymentsConfigSchema = z.object({
  provider: z.enum(paymentProviders),
  publishableKey: z.string().nullable(),
});

export const testGatewayConfirmBodySchema = z.strictObject({
  clientSecret: z.string().min(1).max(255),
  card: z.strictObject({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(8),
  }),
  billingDetails: z
    .strictObject({
      name: z.string().trim().max(200).optional(),
      email: z.string().trim().max(254).optional(),
    })
    .optional(),
});
export type TestGatewayConfirmBody = z.infer<typeof testGatewayConfirmBodySchema>;

export const testGatewayConfirmResponseSchema = z.object({
  status: z.literal('succeeded'),
  transactionId: z.string().describe('The payment intent id (pi_…), as Stripe reports it'),
  chargeId: z.string(),
});

/** Stripe's documented test cards, as the built-in test gateway answers them. */
export const testCards = [
  { number: '4242 4242 4242 4242', outcome: 'Succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'Declined: Your card was declined.' },
  { number: '4000 0000 0000 9995', outcome: 'Declined: Your card has insufficient funds.' },
] as const;

/** Splits "MM/YY" (or "MM / YYYY") into numbers; undefined when it is not a date. */
export function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  const rawYear = Number(match[2]);
  return { month, year: rawYear < 100 ? 2000 + rawYear : rawYear };
}
