import { expect, it } from 'vitest';
import { Fixtures, validCard } from '../../../../test/support/request-builders.ts';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { describeEachDatabase } from '../../../../test/support/test-app.ts';
import { stockOf } from './order-test-helpers.ts';

describeEachDatabase('deleting an order whose card payment already went through', (ctx) => {
  it('is refused (409) and keeps the order, its stock and the record of the payment', async () => {
    const fx = await Fixtures.create(ctx);
    const { orderId, clientSecret } = await fx.intent();
    const confirm = await ctx().app.inject({
      method: 'POST',
      url: '/api/payments/test-gateway/confirm',
      headers: fx.callers.customer.headers,
      payload: { clientSecret, card: validCard },
    });
    expect(confirm.statusCode).toBe(200);
    const order = await ctx().app.inject({
      method: 'GET',
      url: `/api/myorder/${orderId}`,
      headers: fx.callers.customer.headers,
    });
    const partId = order.json().partId as string;
    const stock = await stockOf(ctx().database.db, partId);

    const before = await databaseChecksum(ctx().database.db);
    for (const who of [fx.callers.customer, fx.callers.admin]) {
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${orderId}`, headers: who.headers });
      expect(res.statusCode, res.body).toBe(409);
    }
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    expect(await stockOf(ctx().database.db, partId)).toBe(stock);
  });
});
