import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { orders } from '../../db/schema.ts';
import { clientAddressKey } from './client-address.ts';
import { payOrder, placeOrder } from './fulfilment-test-helpers.ts';
import { insertPart, stockOf } from './order-test-helpers.ts';

/**
 * What unpaid orders may hold across accounts, with the production defaults (the test harness turns these caps off
 * for the other tests): an unverified account at most 2 PCS of a part, one client address at most half a part's
 * stock, and new accounts (no paid order yet) together at most half of it.
 */
const productionDefaults = {
  ORDER_UNVERIFIED_HOLD_LIMIT: '2',
  ORDER_ADDRESS_HOLD_LIMIT: '',
  ORDER_NEW_ACCOUNT_HOLD_PERCENT: '50',
};

const shipTo = { address: '7 Hold Street, Leeds', phone: '+44 113 000 0007' };

let addressCounter = 0;
/** A client address no other test uses (documentation range), so the per-address cap of one test stays its own. */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function order(ctx: TestContext, user: TestUser, partId: string, quantity: number, from: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: user.headers,
    remoteAddress: from,
    payload: { partId, quantity, ...shipTo },
  });
}

async function checkoutOf(ctx: TestContext, user: TestUser, partId: string, quantity: number, from: string) {
  const added = await ctx.app.inject({
    method: 'PUT',
    url: `/api/cart/items/${partId}`,
    headers: user.headers,
    payload: { quantity },
  });
  expect(added.statusCode, added.body).toBe(200);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/checkout',
    headers: user.headers,
    remoteAddress: from,
    payload: shipTo,
  });
}

/** A verified account that has paid for an order: no longer new. */
async function establishedUser(ctx: TestContext): Promise<TestUser> {
  const user = await createUser(ctx, { verified: true });
  const filler = await insertPart(ctx.database.db, { availableQuantity: 10 });
  const placed = await placeOrder(ctx, user, filler.id, 1);
  const paid = await payOrder(ctx, user, placed._id);
  expect(paid.statusCode, paid.body).toBe(200);
  return user;
}

async function unpaidHeld(ctx: TestContext, partId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<string>`coalesce(sum(${orders.quantity}), 0)` })
    .from(orders)
    .where(and(eq(orders.partId, partId), eq(orders.status, 'unpaid')));
  return Number(row?.n ?? 0);
}

describeEachDatabase(
  'unpaid holds across accounts',
  (ctx) => {
    it('an unverified account holds at most 2 PCS of a part and is told to verify its email; verified passes', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
      const from = freshAddress();
      const unverified = await createUser(ctx());

      const tooMany = await order(ctx(), unverified, part.id, 3, from);
      expect(tooMany.statusCode, tooMany.body).toBe(422);
      const refusal = tooMany.json().error;
      expect(refusal.code).toBe('verify_email_to_hold_more');
      expect(refusal.message).toMatch(/^Verify Your Email To Hold More Than 2 Unpaid PCS Of A Part/);
      expect(refusal.message).toContain('Send The Link Again');
      expect(refusal.details).toEqual([
        { path: 'body.quantity', unverifiedLimit: 2, held: 0, quantity: 3, verifyEmail: true },
      ]);
      expect(await stockOf(ctx().database.db, part.id)).toBe(100);

      expect((await order(ctx(), unverified, part.id, 2, from)).statusCode).toBe(201);
      const more = await order(ctx(), unverified, part.id, 1, from);
      expect(more.statusCode).toBe(422);
      expect(more.json().error.details[0]).toMatchObject({ held: 2, unverifiedLimit: 2 });

      // A part whose minimum order is above the limit: verify first (the limit is not raised to the minimum).
      const bulk = await insertPart(ctx().database.db, { availableQuantity: 100, minimumOrder: 5 });
      const bulkOrder = await order(ctx(), unverified, bulk.id, 5, from);
      expect(bulkOrder.statusCode).toBe(422);
      expect(bulkOrder.json().error.code).toBe('verify_email_to_hold_more');

      const verified = await createUser(ctx(), { verified: true });
      expect((await order(ctx(), verified, part.id, 3, freshAddress())).statusCode).toBe(201);
      expect((await order(ctx(), verified, bulk.id, 5, freshAddress())).statusCode).toBe(201);
      expect(await stockOf(ctx().database.db, part.id)).toBe(95);
    });

    it('orders from one address hold at most half a part across accounts; another address is unaffected', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
      const shared = freshAddress();
      const [first, second, third] = [
        await establishedUser(ctx()),
        await establishedUser(ctx()),
        await establishedUser(ctx()),
      ];
      if (!first || !second || !third) throw new Error('users not created');
      expect((await order(ctx(), first, part.id, 20, shared)).statusCode).toBe(201);
      expect((await order(ctx(), second, part.id, 20, shared)).statusCode).toBe(201);

      // 40 held from this address, 60 on the shelf: half of 100 is 50, so 10 more at most.
      const refused = await order(ctx(), third, part.id, 20, shared);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toMatchObject({
        code: 'address_hold_limit',
        message:
          'Orders From Your Network Already Hold 40 Unpaid PCS Of This Part: Pay For Them Or Order At Most 10 More',
        details: [{ path: 'body.quantity', addressHoldLimit: 50, addressHeld: 40, quantity: 20 }],
      });
      expect(await stockOf(ctx().database.db, part.id)).toBe(60);
      expect((await order(ctx(), third, part.id, 10, shared)).statusCode).toBe(201);
      const full = await order(ctx(), first, part.id, 1, shared);
      expect(full.json().error.message).toBe(
        'Orders From Your Network Already Hold 50 Unpaid PCS Of This Part, The Most One Network May Hold: Pay For Them First',
      );

      const elsewhere = await order(ctx(), third, part.id, 20, freshAddress());
      expect(elsewhere.statusCode, elsewhere.body).toBe(201);
      expect(await unpaidHeld(ctx(), part.id)).toBe(70);
    });

    it('keeps only a keyed hash of the address, and counts an IPv6 /64 as one address', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 10 });
      const user = await establishedUser(ctx());
      const placed = await order(ctx(), user, part.id, 3, '2001:db8:7:1::1');
      expect(placed.statusCode, placed.body).toBe(201);
      const [row] = await ctx()
        .database.db.select({ key: orders.placedFromKey })
        .from(orders)
        .where(eq(orders.id, placed.json()._id));
      expect(row?.key).toBe(clientAddressKey(ctx().config.SESSION_SECRET ?? '', '2001:db8:7:1::1'));
      expect(row?.key).not.toContain('2001');
      // Another address of the same /64 is the same holder: 3 held, at most 5 of 10 → 2 more.
      const neighbour = await establishedUser(ctx());
      const sameBlock = await order(ctx(), neighbour, part.id, 3, '2001:db8:7:1:ffff::9');
      expect(sameBlock.statusCode).toBe(422);
      expect(sameBlock.json().error.code).toBe('address_hold_limit');
      expect((await order(ctx(), neighbour, part.id, 3, '2001:db8:7:2::1')).statusCode).toBe(201);
    });

    it('new accounts together hold at most half a part; an account with a paid order is unaffected', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
      for (const quantity of [20, 20]) {
        const placed = await order(
          ctx(),
          await createUser(ctx(), { verified: true }),
          part.id,
          quantity,
          freshAddress(),
        );
        expect(placed.statusCode, placed.body).toBe(201);
      }
      // New accounts hold 40, 60 on the shelf: half of 100 is 50.
      const newcomer = await createUser(ctx(), { verified: true });
      const refused = await order(ctx(), newcomer, part.id, 20, freshAddress());
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toMatchObject({
        code: 'new_account_hold_limit',
        message: 'New Accounts Can Order At Most 10 More PCS Of This Part Right Now: Order Fewer, Or Try Again Later',
        details: [{ path: 'body.quantity', newAccountHoldLimit: 50, newAccountsHeld: 40, quantity: 20 }],
      });

      const regular = await establishedUser(ctx());
      expect((await order(ctx(), regular, part.id, 25, freshAddress())).statusCode).toBe(201);
      // What established accounts hold is not counted: 40 held by new accounts of 75 on hand (35 + 40) → 37.
      expect((await order(ctx(), newcomer, part.id, 3, freshAddress())).statusCode).toBe(422);
      expect(await stockOf(ctx().database.db, part.id)).toBe(35);
    });

    it('new accounts ordering at the same moment never hold more than the cap together', {
      timeout: 60_000,
    }, async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
      const buyers = await Promise.all(Array.from({ length: 16 }, () => createUser(ctx(), { verified: true })));
      const answers = await Promise.all(buyers.map((buyer) => order(ctx(), buyer, part.id, 10, freshAddress())));
      const codes = answers.map((answer) => (answer.statusCode === 201 ? 201 : answer.json().error?.code));
      expect(codes.filter((code) => code === 201)).toHaveLength(5);
      expect(codes.filter((code) => code !== 201).every((code) => code === 'new_account_hold_limit')).toBe(true);
      expect(await unpaidHeld(ctx(), part.id)).toBe(50);
      expect(await stockOf(ctx().database.db, part.id)).toBe(50);
    });

    it('cart checkout: the same caps, named per line, and nothing is placed', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
      const unverified = await createUser(ctx());
      const refused = await checkoutOf(ctx(), unverified, part.id, 3, freshAddress());
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error.code).toBe('checkout_refused');
      expect(refused.json().error.details).toEqual([
        expect.objectContaining({
          path: 'lines.0',
          partId: part.id,
          code: 'verify_email_to_hold_more',
          unverifiedLimit: 2,
          quantity: 3,
        }),
      ]);

      const shared = freshAddress();
      const first = await establishedUser(ctx());
      expect((await checkoutOf(ctx(), first, part.id, 45, shared)).statusCode).toBe(201);
      const second = await establishedUser(ctx());
      const overAddress = await checkoutOf(ctx(), second, part.id, 10, shared);
      expect(overAddress.statusCode).toBe(422);
      expect(overAddress.json().error.details[0]).toMatchObject({ code: 'address_hold_limit', addressHeld: 45 });

      // 55 on the shelf: new accounts may hold half of it; one holds 20, so 7 more at most.
      const newcomer = await createUser(ctx(), { verified: true });
      expect((await checkoutOf(ctx(), newcomer, part.id, 20, freshAddress())).statusCode).toBe(201);
      const overNew = await checkoutOf(ctx(), await createUser(ctx(), { verified: true }), part.id, 10, freshAddress());
      expect(overNew.statusCode).toBe(422);
      expect(overNew.json().error.details[0]).toMatchObject({ code: 'new_account_hold_limit', newAccountsHeld: 20 });
      expect(await stockOf(ctx().database.db, part.id)).toBe(35);
    });
  },
  productionDefaults,
);
