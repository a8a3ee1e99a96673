import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { DeadlineExceededError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's deadline while it runs (request-deadline.ts); null when it has none. */
    deadline: RequestDeadline | null;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Fastify's own test for "this request has a body to parse". */
function hasBody(request: FastifyRequest): boolean {
  const { headers } = request.raw;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/**
 * One request's deadline: armed when it arrives, paused while its body is on its way (the client's time, bounded
 * by HTTP_REQUEST_TIMEOUT_MS) and armed afresh once the body is in, over as soon as an answer starts to leave.
 */
class RequestDeadline {
  readonly #ms: number;
  readonly #request: FastifyRequest;
  readonly #reply: FastifyReply;
  #timer: NodeJS.Timeout | undefined;
  /** An answer has started through the onSend hooks: a second one must never be sent. */
  answering = false;

  constructor(ms: number, request: FastifyRequest, reply: FastifyReply) {
    this.#ms = ms;
    this.#request = request;
    this.#reply = reply;
  }

  arm = (): void => {
    clearTimeout(this.#timer);
    if (this.answering) return;
    this.#timer = setTimeout(this.#expire, this.#ms);
  };

  disarm = (): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  };

  #expire = (): void => {
    this.#timer = undefined;
    const reply = this.#reply;
    if (this.answering || reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
    // The work goes on behind this answer; what it does or throws when it ends (Fastify's "reply was already
    // sent") would be a line per request through a whole outage: the deadline's answer is logged instead, once
    // per outage (errors.ts).
    reply.raw.once('finish', () => {
      reply.log = reply.log.child({}, { level: 'fatal' });
    });
    try {
      reply.send(new DeadlineExceededError());
    } catch (error) {
      // Only when Fastify is itself answering with an error at this moment: that answer goes out instead.
      this.#request.log.warn({ err: error }, 'request deadline: the request was being answered already');
    }
  };
}

/**
 * Every request has a deadline (REQUEST_DEADLINE_MS for reads, REQUEST_DEADLINE_WRITE_MS for the rest), after
 * which it is answered 503 with Retry-After whatever it waits on: a frozen database (whose own bounds are a
 * statement's 15 s + 1 s), a lock, a queue. Health answers within its own shorter bound. Registered early, so its
 * onSend hook (which ends the deadline once an answer starts) runs before any onSend hook that may hold an answer.
 */
export const requestDeadlinePlugin = fp(
  async (app: FastifyInstance, config: Pick<AppConfig, 'REQUEST_DEADLINE_MS' | 'REQUEST_DEADLINE_WRITE_MS'>) => {
    const readMs = config.REQUEST_DEADLINE_MS;
    const writeMs = config.REQUEST_DEADLINE_WRITE_MS;
    if (readMs === 0 && writeMs === 0) return;
    app.decorateRequest('deadline', null);
    // Callback style: an async hook costs a promise on every request.
    app.addHook('onRequest', (request, reply, done) => {
      const read = READS.has(request.method);
      const ms = read ? readMs : writeMs;
      if (ms > 0) {
        const deadline = new RequestDeadline(ms, request, reply);
        request.deadline = deadline;
        deadline.arm();
        // 'close' comes once per response, answered or abandoned by its client.
        reply.raw.once('close', deadline.disarm);
      }
      done();
    });
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const { deadline } = request;
      if (deadline && !READS.has(request.method) && hasBody(request)) {
        // Armed afresh once the body has arrived, whoever reads it (a parser, or a route that streams it).
        deadline.disarm();
        request.raw.once('end', deadline.arm);
      }
      done(null, payload);
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      const { deadline } = request;
      if (deadline) {
        deadline.answering = true;
        deadline.disarm();
      }
      done(null, payload);
    });
  },
  { name: 'request-deadline' },
);
