import { queryOptions } from '@tanstack/react-query';
import {
  createPaymentIntentResponseSchema,
  paymentsConfigSchema,
  type TestGatewayConfirmBody,
  testGatewayConfirmResponseSchema,
} from '../../../shared/schemas/payments.ts';
import { api } from '../../lib/api-client.ts';

const paymentKeys = {
  config: ['payments', 'config'] as const,
  intent: (orderId: string) => ['payments', 'intent', orderId] as const,
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

export function confirmTestCard(body: TestGatewayConfirmBody) {
  return api('/payments/test-gateway/confirm', { method: 'POST', body, schema: testGatewayConfirmResponseSchema });
}
