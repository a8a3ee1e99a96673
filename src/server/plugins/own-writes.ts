import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write's answer leaves only once `caughtUp` resolves, i.e. once this instance has heard the write's own catalogue
 * notifications (ADRs 016, 026), so the writer's next read on this instance is fresh. Reads and refused writes
 * (changed nothing) do not wait.
 */
export function answerWritesWhenHeard(app: FastifyInstance, caughtUp: () => Promise<void>): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (SAFE_METHODS.has(request.method) || reply.statusCode >= 400) return done(null, payload);
    caughtUp().then(() => done(null, payload), done);
  });
}
