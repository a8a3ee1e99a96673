import type { APIRequestContext } from '@playwright/test';

/** Pays an order through the API as the page would: intent, test gateway, then the server-checked PATCH. */
export async function payViaApi(request: APIRequestContext, token: string, orderId: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const intent = await (await request.post('/api/create-payment-intent', { headers, data: { orderId } })).json();
  const confirmed = await request.post('/api/payments/test-gateway/confirm', {
    headers,
    data: {
      clientSecret: intent.clientSecret,
      card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: '123' },
    },
  });
  const { transactionId } = (await confirmed.json()) as { transactionId: string };
  const paid = await request.patch(`/api/myorder/${orderId}`, { headers, data: { transactionId } });
  if (!paid.ok()) throw new Error(`paying failed: ${paid.status()} ${await paid.text()}`);
  return transactionId;
}
