import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { createUser, describeEachDatabase } from '../../../test/support/test-app.ts';
import { PasswordHasher } from '../modules/accounts/password-hasher.ts';
import { insertPart } from '../modules/orders/order-test-helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy most of the time for `ms`, yielding now and then (overload, not one long pause). */
async function overload(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const busyUntil = Date.now() + 400;
    while (Date.now() < busyUntil) {
      // spin
    }
    await sleep(1);
  }
}

/**
 * A catalogue read no earlier request has kept (a new price floor each time), so it asks the database. A read the
 * cache has kept is answered after the load-shedding hooks, like any other (catalog-read-cache.ts): it is shed too.
 */
let reads = 0;
const databaseRead = () => `/api/part?minPrice=${++reads}`;

describeEachDatabase(
  'load shedding',
  (ctx) => {
    it('answers 503 with Retry-After (after a short pause) beyond MAX_CONCURRENT_REQUESTS, and never sheds health', async () => {
      const { app, database } = ctx();
      const kept = '/api/part?limit=2';
      expect((await app.inject({ url: kept })).statusCode).toBe(200);
      // Every read of the catalogue waits while this transaction holds its lock (PGlite: any query waits).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const locking = database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table parts in access exclusive mode`);
        await held;
      });
      await sleep(50);
      const waiting = [app.inject({ url: databaseRead() }), app.inject({ url: databaseRead() })];
      await sleep(50);
      const shed = await app.inject({ url: databaseRead() });
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('2');
      expect(shed.json().error.code).toBe('service_unavailable');
      // A kept answer counts against the same limit: it is refused the same way.
      const keptShed = await app.inject({ url: kept });
      expect(keptShed.statusCode).toBe(503);
      expect(keptShed.headers['retry-after']).toBe('2');
      const live = await app.inject({ url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      release();
      await locking;
      expect((await Promise.all(waiting)).map((res) => res.statusCode)).toEqual([200, 200]);
      expect((await app.inject({ url: databaseRead() })).statusCode).toBe(200);
      expect((await app.inject({ url: kept })).statusCode).toBe(200);
    });

    it('sheds while the event loop stays overloaded, serves again once it is not, and health answers throughout', async () => {
      const { app } = ctx();
      expect((await app.inject({ url: '/api/part?limit=3' })).statusCode).toBe(200);
      await overload(3500);
      const during = await app.inject({ url: databaseRead() });
      const health = await app.inject({ url: '/api/health/live' });
      // A kept answer goes the same way as any other request: refused while overloaded.
      const kept = await app.inject({ url: '/api/part?limit=3' });
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe('2');
      expect(health.statusCode).toBe(200);
      expect(kept.statusCode).toBe(503);
      expect(kept.headers['retry-after']).toBe('2');
      await sleep(2500);
      expect((await app.inject({ url: databaseRead() })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/part?limit=3' })).statusCode).toBe(200);
    });
  },
  { MAX_CONCURRENT_REQUESTS: '2', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '50' },
);

describeEachDatabase(
  'adaptive load shedding',
  (ctx) => {
    it('learns from slow answers to admit fewer at once, and answers the rest 503 after a short pause', async () => {
      const { app, database } = ctx();
      const slowBurst = async (count: number) => {
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const locking = database.db.transaction(async (tx) => {
          await tx.execute(sql`lock table parts in access exclusive mode`);
          await held;
        });
        await sleep(50);
        const answers = Array.from({ length: count }, () => app.inject({ url: databaseRead() }));
        await sleep(400);
        release();
        await locking;
        return (await Promise.all(answers)).map((res) => res.statusCode);
      };
      // All admitted while nothing is known (the limit starts at 16), but every answer comes late…
      expect(await slowBurst(12)).toEqual(Array(12).fill(200));
      // …so the next burst is admitted only in part, and the rest are told at once to come back.
      const second = await slowBurst(12);
      expect(second.filter((status) => status === 503).length).toBeGreaterThan(0);
      expect(second.filter((status) => status === 200).length).toBeGreaterThanOrEqual(4);
      // Health is never part of it.
      expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    });
  },
  { LOAD_SHED_MAX_WAIT_MS: '200' },
);

describeEachDatabase(
  'load shedding by class of route',
  (ctx) => {
    it('sheds no order or catalogue read while a burst of slow sign-ups is in progress', async () => {
      const { app, database } = ctx();
      const part = await insertPart(database.db, { availableQuantity: 10_000 });
      // Fewer clients than any class's floor: only another class's slow answers could shed them.
      const clients = await Promise.all(Array.from({ length: 6 }, () => createUser(ctx())));
      // A hasher as busy as scrypt under load: one hash at a time, 150 ms each, so the sign-ups wait their turn
      // and their answers come later and later.
      const realHash = PasswordHasher.prototype.hash;
      let turn: Promise<unknown> = Promise.resolve();
      const slow = vi.spyOn(PasswordHasher.prototype, 'hash').mockImplementation(function (
        this: PasswordHasher,
        password: string,
      ) {
        turn = turn.then(() => sleep(150));
        return turn.then(() => realHash.call(this, password));
      });
      try {
        const run = Date.now().toString(36);
        const signUps = Array.from({ length: 30 }, (_, i) =>
          app.inject({
            method: 'POST',
            url: '/api/signup',
            payload: {
              name: `Burst ${i}`,
              email: `burst.${run}.${i}@example.com`,
              password: `Gearbox-Harbor-${i}-Lantern`,
            },
          }),
        );
        await sleep(100);
        // 60 orders and catalogue reads from six clients, each asking again as soon as it is answered.
        const cheap = await Promise.all(
          clients.map(async (client) => {
            const statuses: number[] = [];
            for (let i = 0; i < 5; i++) {
              const order = await app.inject({
                method: 'POST',
                url: '/api/myorder',
                headers: client.headers,
                payload: { partId: part.id, quantity: 1, address: '12 Chain St', phone: '+1 555 0100' },
              });
              statuses.push(order.statusCode);
              statuses.push((await app.inject({ url: databaseRead() })).statusCode);
            }
            return statuses;
          }),
        );
        const signUpStatuses = (await Promise.all(signUps)).map((res) => res.statusCode);
        expect(cheap.flat().filter((status) => status === 503)).toEqual([]);
        expect(cheap.flat()).toHaveLength(60);
        expect(new Set(cheap.flat())).toEqual(new Set([200, 201]));
        // The sign-ups themselves: served or shed, never worse.
        expect(signUpStatuses.filter((status) => status !== 202 && status !== 503)).toEqual([]);
        expect(signUpStatuses.filter((status) => status === 202).length).toBeGreaterThanOrEqual(8);
      } finally {
        slow.mockRestore();
      }
    }, 60_000);
  },
  { LOAD_SHED_MAX_WAIT_MS: '200' },
);
