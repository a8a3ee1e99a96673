import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../test/support/test-app.ts';
import { signupRequests, users } from '../../db/schema.ts';
import { HASHES_AT_ONCE, hashPassword, type ScryptParams } from './password-hasher.ts';

/** Slow enough that a request is answered well before these are through, a quarter of production's work. */
const OCCUPYING_COST: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

/**
 * Takes every hashing thread with a costly hash and puts `waiting` more in the queue behind them. Resolves
 * `done` when all of them are through.
 */
function occupyHasher(waiting: number): { done: Promise<void>; finished: () => boolean } {
  let over = false;
  const hashes = Array.from({ length: HASHES_AT_ONCE + waiting }, (_, i) =>
    hashPassword(`occupying the hasher ${i}`, OCCUPYING_COST),
  );
  const done = Promise.all(hashes).then(() => {
    over = true;
  });
  return { done, finished: () => over };
}

describeEachDatabase(
  'the password hash queue',
  (ctx) => {
    it('answers 503 with Retry-After at once when the queue is full, writes nothing, and serves again after', async () => {
      const { app, database } = ctx();
      const email = `queue.full.${Date.now().toString(36)}@example.com`;
      const signUp = { name: 'Queue Full', email, password: 'Gearbox-Harbor-Lantern-7' };
      // The password rules load their dictionaries on first use: not part of what is timed here.
      const weak = await app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { ...signUp, password: 'password' },
      });
      expect(weak.statusCode).toBe(400);
      const busy = occupyHasher(2 * HASHES_AT_ONCE);

      const refused = await app.inject({ method: 'POST', url: '/api/signup', payload: signUp });
      // Answered while the hashes ahead were still running: it did not wait for a thread.
      expect(busy.finished()).toBe(false);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json()).toEqual({
        error: {
          code: 'service_unavailable',
          message: 'The shop is very busy checking passwords right now. Please try again in a few seconds.',
        },
      });
      expect(await database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
      expect(await database.db.select().from(signupRequests).where(eq(signupRequests.email, email))).toEqual([]);
      // A sign-in (its hash to compare against, even for an unknown email) is refused the same way.
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: `nobody.${email}`, password: 'whatever-it-is-1' },
      });
      expect(signIn.statusCode).toBe(503);
      expect(signIn.headers['retry-after']).toBe('2');

      await busy.done;
      // The refused sign-in's dummy hash was not kept as a failure: a sign-in is answered as usual now.
      const unknown = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: `nobody.${email}`, password: 'whatever-it-is-1' },
      });
      expect(unknown.statusCode).toBe(401);
      const served = await app.inject({ method: 'POST', url: '/api/signup', payload: signUp });
      expect(served.statusCode).toBe(202);
      // The sign-up waits for its mailed link: no account yet, one waiting sign-up.
      expect(await database.db.select().from(signupRequests).where(eq(signupRequests.email, email))).toHaveLength(1);
    }, 60_000);
  },
  { PASSWORD_HASH_QUEUE_MAX: '1' },
);
