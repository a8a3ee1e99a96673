import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase } from '../../../../test/support/test-app.ts';
import { orderDetailSchema, orderSchema } from '../../../shared/schemas/orders.ts';
import { paymentIntents } from '../../db/schema.ts';
import { agePlacedOrder, outboxMails, payOrder, placeOrder } from './fulfilment-test-helpers.ts';
import { insertPart, orderRow, stockOf } from './order-test-helpers.ts';

describeEachDatabase('order detail, shipping and delivery', (ctx) => {
  it('shows the order page to its buyer and admins only (anyone else 404), with everything the order knows', async () => {
    const ann = await createUser(ctx(), { displayName: 'Ann Rider' });
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { name: 'Chain Kit', priceCents: 4250, availableQuantity: 40 });
    const order = await placeOrder(ctx(), ann, part.id, 3);
    const url = `/api/orders/${order._id}/detail`;

    expect((await ctx().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'GET', url, headers: bob.headers })).statusCode).toBe(404);
    const malformed = await ctx().app.inject({ method: 'GET', url: '/api/orders/nope/detail', headers: ann.headers });
    expect(malformed.statusCode).toBe(400);

    for (const viewer of [ann, admin]) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: viewer.headers });
      expect(res.statusCode).toBe(200);
      const detail = orderDetailSchema.parse(res.json());
      expect(detail).toMatchObject({
        _id: order._id,
        status: 'unpaid',
        address: '7 Piston Row, Leeds',
        phone: '+44 113 000 0000',
        total: 127.5,
        items: [{ partId: part.id, name: 'Chain Kit', unitPrice: 42.5, quantity: 3, lineTotal: 127.5 }],
        paidAt: null,
        transactionId: null,
        carrier: null,
        trackingNumber: null,
      });
      expect(detail.timeline.map((step) => step.event)).toEqual(['placed']);
    }

    expect((await payOrder(ctx(), ann, order._id)).statusCode).toBe(200);
    const paid = orderDetailSchema.parse((await ctx().app.inject({ method: 'GET', url, headers: ann.headers })).json());
    expect(paid.transactionId).toMatch(/^pi_/);
    expect(paid.paidAt).not.toBeNull();
    expect(paid.timeline.map((step) => step.event)).toEqual(['placed', 'paid']);
  });

  it('ships a paid order with carrier and tracking number, mails the buyer, then marks it delivered', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { availableQuantity: 40 });
    const order = await placeOrder(ctx(), ann, part.id, 2);
    const ship = (payload?: object, headers = admin.headers) =>
      ctx().app.inject({
        method: 'PATCH',
        url: `/api/allorder/${order._id}/ship`,
        headers,
        ...(payload ? { payload } : {}),
      });
    const deliver = (headers = admin.headers) =>
      ctx().app.inject({ method: 'PATCH', url: `/api/allorder/${order._id}/deliver`, headers });

    // Unpaid: neither ships nor is delivered.
    expect((await ship({ carrier: 'UPS', trackingNumber: '1Z999' })).statusCode).toBe(409);
    expect((await deliver()).json().error.code).toBe('order_not_shipped');
    expect((await payOrder(ctx(), ann, order._id)).statusCode).toBe(200);

    // Bad input changes nothing.
    const before = await databaseChecksum(ctx().database.db);
    for (const bad of [
      { carrier: '', trackingNumber: '1Z' },
      { carrier: 'UPS', trackingNumber: '<script>' },
      { carrier: 'UPS' },
    ]) {
      expect((await ship(bad)).statusCode).toBe(400);
    }
    expect((await ship({ carrier: 'UPS', trackingNumber: '1Z999AA10123456784' }, ann.headers)).statusCode).toBe(403);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);

    const shipped = await ship({ carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(shipped.statusCode).toBe(200);
    expect(orderSchema.parse(shipped.json())).toMatchObject({
      status: 'shipped',
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
    });
    // The buyer sees the tracking number in My Order, and gets it by mail.
    const mine = await ctx().app.inject({ method: 'GET', url: '/api/myorder', headers: ann.headers });
    expect(mine.json().find((o: { _id: string }) => o._id === order._id)).toMatchObject({
      trackingNumber: '1Z999AA10123456784',
      carrier: 'UPS',
    });
    const [shippedMail, ...moreShipped] = await outboxMails(ctx(), ann.email, 'order-shipped');
    expect(moreShipped).toHaveLength(0);
    expect(shippedMail?.text).toContain('1Z999AA10123456784');
    expect(shippedMail?.text).toContain('UPS');
    // Shipping again is a no-op (no second mail); the spec's bodiless call still works on another order.
    expect((await ship({ carrier: 'DHL', trackingNumber: 'X1' })).json().carrier).toBe('UPS');
    expect(await outboxMails(ctx(), ann.email, 'order-shipped')).toHaveLength(1);

    expect((await deliver(ann.headers)).statusCode).toBe(403);
    const delivered = await deliver();
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().status).toBe('delivered');
    expect((await deliver()).statusCode).toBe(200);
    expect(await outboxMails(ctx(), ann.email, 'order-delivered')).toHaveLength(1);
    const detail = orderDetailSchema.parse(
      (await ctx().app.inject({ method: 'GET', url: `/api/orders/${order._id}/detail`, headers: ann.headers })).json(),
    );
    expect(detail.timeline.map((step) => step.event)).toEqual(['placed', 'paid', 'shipped', 'delivered']);
    // A delivered order is still paid: its Delete stays refused.
    const del = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(del.statusCode).toBe(409);

    const other = await placeOrder(ctx(), ann, part.id, 1);
    expect((await payOrder(ctx(), ann, other._id)).statusCode).toBe(200);
    const bodiless = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/allorder/${other._id}/ship`,
      headers: admin.headers,
    });
    expect(bodiless.statusCode).toBe(200);
    expect(bodiless.json()).toMatchObject({ status: 'shipped', carrier: null, trackingNumber: null });
  });

  it('mails the buyer what to pay (a link to pay) once the order is unpaid after the delay, and a receipt when it is paid', async () => {
    const ann = await createUser(ctx(), { displayName: 'Ann Mail' });
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { name: 'Brake Lever', priceCents: 1999, availableQuantity: 40 });
    const order = await placeOrder(ctx(), ann, part.id, 2);
    // Nothing at placing, nor before PAYMENT_REMINDER_DELAY_SECONDS; then one mail, and only one.
    const reminders = ctx().app.services.paymentReminders;
    expect(await outboxMails(ctx(), ann.email, 'order-placed')).toHaveLength(0);
    await reminders.remindDue();
    expect(await outboxMails(ctx(), ann.email, 'order-placed')).toHaveLength(0);
    const later = new Date(Date.now() + (ctx().config.PAYMENT_REMINDER_DELAY_SECONDS + 60) * 1000);
    await reminders.remindDue(later);
    await reminders.remindDue(later);
    expect(await outboxMails(ctx(), ann.email, 'order-placed')).toHaveLength(1);
    const [placed] = await outboxMails(ctx(), ann.email, 'order-placed');
    expect(placed?.subject).toContain('$39.98');
    expect(placed?.text).toContain(`/dashboard/payment/${order._id}`);
    expect(placed?.text).toContain('Brake Lever');
    // Enqueued as its document: the delivery job renders the HTML (the placing spends no time in React).
    expect(placed?.html).toBeNull();
    expect(placed?.document).toMatchObject({ heading: 'Thank you for your order' });

    expect((await payOrder(ctx(), ann, order._id)).statusCode).toBe(200);
    const receipts = await outboxMails(ctx(), ann.email, 'payment-receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('$39.98');
    const notices = await outboxMails(ctx(), admin.email, 'admin-new-paid-order');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('7 Piston Row, Leeds');
    // Confirming the same payment again sends nothing more.
    const row = await orderRow(ctx().database.db, order._id);
    await ctx().app.inject({
      method: 'PATCH',
      url: `/api/myorder/${order._id}`,
      headers: ann.headers,
      payload: { transactionId: row?.transactionId },
    });
    expect(await outboxMails(ctx(), ann.email, 'payment-receipt')).toHaveLength(1);
  });

  it('mails one please-pay mail per checkout left unpaid, listing every order with one link to pay for all', async () => {
    const ann = await createUser(ctx(), { displayName: 'Ann Cart' });
    const pads = await insertPart(ctx().database.db, { name: 'Brake Pads', priceCents: 1500, availableQuantity: 40 });
    const disc = await insertPart(ctx().database.db, { name: 'Brake Disc', priceCents: 6000, availableQuantity: 40 });
    for (const [partId, quantity] of [
      [pads.id, 2],
      [disc.id, 1],
    ] as const) {
      const res = await ctx().app.inject({
        method: 'PUT',
        url: `/api/cart/items/${partId}`,
        headers: ann.headers,
        payload: { quantity },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const checkout = await ctx().app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: ann.headers,
      payload: { address: '3 Cart Road', phone: '+1 555 0123' },
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    const ids = checkout.json().orders.map((o: { _id: string }) => o._id);
    const later = new Date(Date.now() + (ctx().config.PAYMENT_REMINDER_DELAY_SECONDS + 60) * 1000);
    await ctx().app.services.paymentReminders.remindDue(later);
    const mails = await outboxMails(ctx(), ann.email, 'order-placed');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain('$90.00');
    expect(mails[0]?.text).toContain('Brake Pads');
    expect(mails[0]?.text).toContain('Brake Disc');
    expect(mails[0]?.text).toContain(`/dashboard/pay?orders=${encodeURIComponent(ids.join(','))}`);
  });

  it('filters, searches and pages Manage Orders; cancelled orders only when asked for', async () => {
    const admin = await createUser(ctx(), { admin: true });
    const zed = await createUser(ctx(), { displayName: 'Zed Quarterman' });
    const tag = Math.random().toString(36).slice(2, 8);
    const part = await insertPart(ctx().database.db, { name: `Quokka Grip ${tag}`, availableQuantity: 100 });
    const a = await placeOrder(ctx(), zed, part.id, 1);
    const b = await placeOrder(ctx(), zed, part.id, 1);
    const c = await placeOrder(ctx(), zed, part.id, 1);
    expect((await payOrder(ctx(), zed, a._id)).statusCode).toBe(200);
    await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${c._id}`, headers: zed.headers });
    const list = async (query: string) => {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/allorder?${query}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return { ids: res.json().map((o: { _id: string }) => o._id), total: Number(res.headers['x-total-count']) };
    };
    expect((await list(`q=quokka%20grip%20${tag}`)).ids).toEqual([b._id, a._id]);
    expect((await list(`q=${encodeURIComponent(zed.email.toUpperCase())}`)).ids).toEqual([b._id, a._id]);
    expect((await list('q=Quarterman&status=paid')).ids).toEqual([a._id]);
    expect((await list('q=Quarterman&status=cancelled')).ids).toEqual([c._id]);
    expect(await list('q=Quarterman&limit=1&offset=1')).toEqual({ ids: [a._id], total: 2 });
    // Wildcards typed in the box are searched for, not expanded.
    expect((await list('q=%25')).ids).toEqual([]);
    const bad = await ctx().app.inject({ method: 'GET', url: '/api/allorder?status=lost', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
  });
});

describeEachDatabase('cancelling and expiring unpaid orders', (ctx) => {
  it('Delete cancels: the row and its payment records stay, the stock returns, the buyer is mailed', async () => {
    const ann = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 30 });
    const order = await placeOrder(ctx(), ann, part.id, 6);
    const intent = await ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: ann.headers,
      payload: { orderId: order._id },
    });
    expect(intent.statusCode).toBe(200);
    const del = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(del.json()).toEqual({ deletedCount: 1 });
    expect(await stockOf(ctx().database.db, part.id)).toBe(30);
    expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ status: 'cancelled', paid: false });
    const kept = await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.orderId, order._id));
    expect(kept).toHaveLength(1);
    expect(await outboxMails(ctx(), ann.email, 'order-cancelled')).toHaveLength(1);
    // A cancelled order cannot be paid any more.
    const pay = await payOrder(ctx(), ann, order._id);
    expect(pay.statusCode).toBeGreaterThanOrEqual(400);
    expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ status: 'cancelled', paid: false });
    expect(await stockOf(ctx().database.db, part.id)).toBe(30);
    const detail = await ctx().app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}/detail`,
      headers: ann.headers,
    });
    expect(detail.json()).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
  });

  it('the expiry job cancels unpaid orders older than ORDER_HOLD_HOURS, releases their stock and mails the buyer', async () => {
    const ann = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 50 });
    const old = await placeOrder(ctx(), ann, part.id, 5);
    const recent = await placeOrder(ctx(), ann, part.id, 4);
    const paidOld = await placeOrder(ctx(), ann, part.id, 3);
    expect((await payOrder(ctx(), ann, paidOld._id)).statusCode).toBe(200);
    await agePlacedOrder(ctx(), old._id, 49);
    await agePlacedOrder(ctx(), paidOld._id, 49);
    await agePlacedOrder(ctx(), recent._id, 47);
    expect(await stockOf(ctx().database.db, part.id)).toBe(38);

    await ctx().app.services.jobs.runScheduled('order-expiry');
    expect(await orderRow(ctx().database.db, old._id)).toMatchObject({ status: 'cancelled', cancelReason: 'expired' });
    expect(await orderRow(ctx().database.db, recent._id)).toMatchObject({ status: 'unpaid' });
    expect(await orderRow(ctx().database.db, paidOld._id)).toMatchObject({ status: 'paid' });
    expect(await stockOf(ctx().database.db, part.id)).toBe(43);
    const [mail] = await outboxMails(ctx(), ann.email, 'order-expired');
    expect(mail?.text).toContain('48 hours');

    // A second run finds nothing more to do; an hour later the other one expires too.
    await ctx().app.services.jobs.runScheduled('order-expiry');
    expect(await stockOf(ctx().database.db, part.id)).toBe(43);
    expect(await ctx().app.services.orders.expireOverdue(new Date(Date.now() + 2 * 3_600_000))).toBe(1);
    expect(await orderRow(ctx().database.db, recent._id)).toMatchObject({ status: 'cancelled' });
    expect(await stockOf(ctx().database.db, part.id)).toBe(47);
    expect(await outboxMails(ctx(), ann.email, 'order-expired')).toHaveLength(2);
  });
});

describeEachDatabase('the per-customer hold limit (default: half the stock)', (ctx) => {
  it('lets a customer hold at most half of a part unpaid, counting what they hold, never below the minimum', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 10, minimumOrder: 1 });
    const post = (user: typeof ann, quantity: number) =>
      ctx().app.inject({
        method: 'POST',
        url: '/api/myorder',
        headers: user.headers,
        payload: { partId: part.id, quantity, address: '1 A St' },
      });
    const tooMany = await post(ann, 6);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().error).toMatchObject({ code: 'hold_limit', details: [{ holdLimit: 5, held: 0 }] });
    expect((await post(ann, 3)).statusCode).toBe(201);
    const more = await post(ann, 3);
    expect(more.json().error).toMatchObject({ code: 'hold_limit', details: [{ holdLimit: 5, held: 3 }] });
    expect(more.json().error.message).toContain('Order At Most 2 More');
    expect((await post(ann, 2)).statusCode).toBe(201);
    // Another customer has their own limit (half of the 5 left).
    expect((await post(bob, 3)).statusCode).toBe(422);
    expect((await post(bob, 2)).statusCode).toBe(201);
    expect(await stockOf(ctx().database.db, part.id)).toBe(3);

    // The minimum order is always allowed, even above half the stock.
    const big = await insertPart(ctx().database.db, { availableQuantity: 12, minimumOrder: 8 });
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: ann.headers,
      payload: { partId: big.id, quantity: 8 },
    });
    expect(res.statusCode).toBe(201);
  });

  it('holds under concurrency: 20 simultaneous orders of one customer for one part place exactly half the stock', async () => {
    const ann = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 20, minimumOrder: 1 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx().app.inject({
          method: 'POST',
          url: '/api/myorder',
          headers: ann.headers,
          payload: { partId: part.id, quantity: 1 },
        }),
      ),
    );
    const codes = results.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(10);
    expect(codes.filter((code) => code === 422)).toHaveLength(10);
    expect(await stockOf(ctx().database.db, part.id)).toBe(10);
  });
});

describeEachDatabase(
  'a fixed hold limit (ORDER_HOLD_LIMIT=4)',
  (ctx) => {
    it('caps unpaid PCS per part at the configured number, and paying frees the hold', async () => {
      const ann = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { availableQuantity: 100, minimumOrder: 1 });
      const first = await placeOrder(ctx(), ann, part.id, 4);
      const refused = await ctx().app.inject({
        method: 'POST',
        url: '/api/myorder',
        headers: ann.headers,
        payload: { partId: part.id, quantity: 1 },
      });
      expect(refused.json().error).toMatchObject({ code: 'hold_limit', details: [{ holdLimit: 4, held: 4 }] });
      expect((await payOrder(ctx(), ann, first._id)).statusCode).toBe(200);
      expect((await placeOrder(ctx(), ann, part.id, 4)).quantity).toBe(4);
    });
  },
  { ORDER_HOLD_LIMIT: '4' },
);

describeEachDatabase(
  "the 'new paid order' mail to a configured address (ORDER_NOTIFY_EMAIL)",
  (ctx) => {
    it('goes to ORDER_NOTIFY_EMAIL only, not to every admin', async () => {
      const admin = await createUser(ctx(), { admin: true });
      const ann = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { availableQuantity: 10 });
      const order = await placeOrder(ctx(), ann, part.id, 1);
      expect((await payOrder(ctx(), ann, order._id)).statusCode).toBe(200);
      expect(await outboxMails(ctx(), 'orders@redline.test', 'admin-new-paid-order')).toHaveLength(1);
      expect(await outboxMails(ctx(), admin.email, 'admin-new-paid-order')).toHaveLength(0);
    });
  },
  { ORDER_NOTIFY_EMAIL: 'orders@redline.test' },
);
