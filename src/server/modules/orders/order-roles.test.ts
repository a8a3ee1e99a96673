import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { orders } from '../../db/schema.ts';
import { insertPart } from './order-test-helpers.ts';

type Role = 'anonymous' | 'owner' | 'other customer' | 'admin';

/**
 * Every order endpoint against every kind of caller, in one table. Refusals must change nothing.
 * The owner's and admin's successful calls are tested in depth elsewhere; here only the status matters.
 */
describeEachDatabase('who may call each order endpoint', (ctx) => {
  it('answers each role as the design says, and refusals change nothing', async () => {
    const db = ctx().database.db;
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(db, { availableQuantity: 1000 });
    const callers: Record<Role, TestUser | null> = { anonymous: null, owner, 'other customer': other, admin };

    const place = async () => {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/myorder',
        headers: owner.headers,
        payload: { partId: part.id, quantity: 1 },
      });
      return res.json()._id as string;
    };
    const paidOrder = await place();
    await db
      .update(orders)
      .set({ paid: true, status: 'paid', transactionId: 'pi_role_test_000000' })
      .where(eq(orders.id, paidOrder));

    type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
    const endpoints: { name: string; call: (orderId: string) => Call; expect: Record<Role, number> }[] = [
      {
        name: 'POST /api/myorder',
        call: () => ({ method: 'POST', url: '/api/myorder', payload: { partId: part.id, quantity: 1 } }),
        expect: { anonymous: 401, owner: 201, 'other customer': 201, admin: 201 },
      },
      {
        name: "GET /api/myorder?email=<owner's>",
        call: () => ({ method: 'GET', url: `/api/myorder?email=${encodeURIComponent(owner.email)}` }),
        expect: { anonymous: 401, owner: 200, 'other customer': 403, admin: 200 },
      },
      {
        name: 'GET /api/myorder/:id',
        call: (id) => ({ method: 'GET', url: `/api/myorder/${id}` }),
        expect: { anonymous: 401, owner: 200, 'other customer': 404, admin: 200 },
      },
      {
        name: 'PATCH /api/myorder/:id (fake transaction id)',
        call: (id) => ({ method: 'PATCH', url: `/api/myorder/${id}`, payload: { transactionId: 'pi_fake_0000000' } }),
        expect: { anonymous: 401, owner: 422, 'other customer': 404, admin: 403 },
      },
      {
        name: 'POST /api/create-payment-intent',
        call: (id) => ({ method: 'POST', url: '/api/create-payment-intent', payload: { orderId: id } }),
        expect: { anonymous: 401, owner: 200, 'other customer': 404, admin: 403 },
      },
      {
        name: 'GET /api/allorder',
        call: () => ({ method: 'GET', url: '/api/allorder' }),
        expect: { anonymous: 401, owner: 403, 'other customer': 403, admin: 200 },
      },
      {
        name: 'PATCH /api/allorder/:id/ship (paid order)',
        call: () => ({ method: 'PATCH', url: `/api/allorder/${paidOrder}/ship` }),
        expect: { anonymous: 401, owner: 403, 'other customer': 403, admin: 200 },
      },
      {
        name: 'DELETE /api/myorder/:id',
        call: (id) => ({ method: 'DELETE', url: `/api/myorder/${id}` }),
        expect: { anonymous: 401, owner: 200, 'other customer': 404, admin: 200 },
      },
    ];

    const seen: string[] = [];
    for (const endpoint of endpoints) {
      for (const [role, user] of Object.entries(callers) as [Role, TestUser | null][]) {
        const orderId = await place();
        const call = endpoint.call(orderId);
        const before = await databaseChecksum(db);
        const res = await ctx().app.inject({ ...call, headers: user?.headers ?? {} });
        seen.push(`${endpoint.name} as ${role}: ${res.statusCode}`);
        if (res.statusCode >= 400) {
          expect(res.json().error.code, `${endpoint.name} as ${role}`).toEqual(expect.any(String));
          expect(await databaseChecksum(db), `${endpoint.name} as ${role} changed data`).toEqual(before);
        }
      }
    }
    const expected = endpoints.flatMap((e) =>
      (Object.keys(callers) as Role[]).map((role) => `${e.name} as ${role}: ${e.expect[role]}`),
    );
    expect(seen).toEqual(expected);
  });
});
