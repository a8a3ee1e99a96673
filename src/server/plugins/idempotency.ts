import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Transaction } from '../db/client.ts';
import { ConflictError } from '../errors.ts';
import { claimKey, recordAnswer, requestHash } from '../modules/idempotency/idempotency-keys.ts';

/** The header a client sends to make a write safe to retry (the IETF draft's name, as Stripe uses it). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Runs a write once per Idempotency-Key: `reply.idempotent(201, (tx) => service.write(…, tx))` is the
 * one line a money-moving route needs. Without the header the work runs as before, on the database. With it, the
 * work runs inside a transaction that also claims the key and records the answer:
 * - the same key, same caller, same request again → the first answer replayed (`Idempotent-Replayed: true`),
 *   nothing written;
 * - the same key with another request → 409 `idempotency_key_reused`, nothing written;
 * - two at once → one does the work, the other waits for it and replays its answer;
 * - a refusal (4xx) or failure rolls back with the work, so the key stays free for a corrected retry.
 * Keys are kept IDEMPOTENCY_KEY_TTL_HOURS (at least 24) in the database, so every instance sees them.
 */
declare module 'fastify' {
  interface FastifyReply {
    idempotent<T>(statusCode: number, work: (db: Database | Transaction) => Promise<T>): Promise<FastifyReply>;
  }
}

function scopeOf(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `address:${request.ip}`;
}

export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateReply('idempotent', async function idempotent<
      T,
    >(this: FastifyReply, statusCode: number, work: (db: Database | Transaction) => Promise<T>): Promise<FastifyReply> {
      const { request } = this;
      const header = request.headers[IDEMPOTENCY_HEADER];
      const key = typeof header === 'string' ? header : undefined;
      if (!key) return this.status(statusCode).send(await work(app.db));

      const scope = scopeOf(request);
      const hash = requestHash({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        params: request.params,
        body: request.body,
      });
      const outcome = await app.db.transaction(async (tx) => {
        const claim = await claimKey(tx, scope, key, hash);
        if (claim.state !== 'new') return claim;
        const body = await work(tx);
        await recordAnswer(tx, scope, key, statusCode, body);
        return { state: 'done' as const, body };
      });
      if (outcome.state === 'reused') {
        throw new ConflictError(
          'This Idempotency-Key was already used for a different request. Send a new key for a new request.',
          'idempotency_key_reused',
        );
      }
      if (outcome.state === 'replay') {
        return this.status(outcome.statusCode).header('idempotent-replayed', 'true').send(outcome.body);
      }
      return this.status(statusCode).send(outcome.body);
    });
    // Expired keys are purged by the hourly housekeeping job (src/server/services.ts), on one instance at a time.
  },
  { name: 'idempotency', dependencies: ['db'] },
);
