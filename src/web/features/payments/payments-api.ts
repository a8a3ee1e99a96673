import { queryOptions } from '@tanstack/react-query';
import {
  confirmPaymentResponseSchema,
  createPaymentIntentResponseSchema,
  paymentsConfigSchema,
  type TestGatewayConfirmBody,
  testGatewayConfirmResponseSchema,
} from '../../../shared/schemas/payments.ts';
import { api, apiOnce } from '../../lib/api-client.ts';

const paymentKeys = {
  config: ['payments', 'config'] as const,
  intent: (orderId: string) => ['payments', 'intent', orderId] as const,
  group: (orderIds: readonly string[]) => ['payments', 'intent-group', ...orderIds] as const,
};

export const paymentsConfigQueryOptions = queryOptions({
  queryKey: paymentKeys.config,
  queryFn: ({ signal }) => api('/payments/config', { schema: paymentsConfigSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The server computes the amount from the order; asking again returns the same intent. */
export function paymentIntentQueryOptions(orderId: string) {
  return queryOptions({
    queryKey: paymentKeys.intent(orderId),
    queryFn: ({ signal }) =>
      api('/create-payment-intent', {
        method: 'POST',
        body: { orderId },
        schema: createPaymentIntentResponseSchema,
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * One intent for several orders; the server computes the amount from them, and asking again for the same
 * orders returns the same intent.
 */
export function groupPaymentIntentQueryOptions(orderIds: readonly string[]) {
  const sorted = [...orderIds].sort();
  return queryOptions({
    queryKey: paymentKeys.group(sorted),
    // apiOnce: a retry after a lost answer carries the same Idempotency-Key (the group's key makes it the same
    // intent anyway; the header makes the retry a replay).
    queryFn: ({ signal }) =>
      apiOnce('/create-payment-intent', {
        method: 'POST',
        body: { orderIds: sorted },
        schema: createPaymentIntentResponseSchema,
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Every order of a payment marked paid once the provider confirms it; safe to retry (apiOnce). */
export function confirmPayment(transactionId: string) {
  return apiOnce('/payments/confirm', {
    method: 'POST',
    body: { transactionId },
    schema: confirmPaymentResponseSchema,
  });
}

export function confirmTestCard(body: TestGatewayConfirmBody) {
  return api('/payments/test-gateway/confirm', { method: 'POST', body, schema: testGatewayConfirmResponseSchema });
}
