import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * For a graceful stop that reached its time cap: answers every request still waiting (503, `Retry-After`,
     * `Connection: close`) and says how many. Their outcome is unknown to the client, which may retry: the writes
     * that matter take an Idempotency-Key, so a retry cannot do them twice.
     */
    answerUnfinished(): number;
  }
}

/** Keeps the requests in progress, so a stop that cannot wait for them any longer can still answer them. */
export const gracefulStopPlugin = fp(
  async (app: FastifyInstance) => {
    const inProgress = new Set<FastifyReply>();
    // Callback style: an async hook costs a promise on every request, cached catalogue reads included.
    app.addHook('onRequest', (_request, reply, done) => {
      inProgress.add(reply);
      reply.raw.once('close', () => inProgress.delete(reply));
      done();
    });
    app.decorate('answerUnfinished', () => {
      let answered = 0;
      for (const reply of inProgress) {
        if (reply.sent || reply.raw.headersSent) continue;
        reply
          .code(503)
          .header('retry-after', '5')
          .header('connection', 'close')
          .send(errorBody('service_unavailable', 'The shop is restarting. Please try again in a few seconds.'));
        answered += 1;
      }
      return answered;
    });
  },
  { name: 'graceful-stop' },
);
