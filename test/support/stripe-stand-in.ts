import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small local stand-in for the part of Stripe's HTTP API the shop uses, speaking Stripe's real wire format:
 * form-encoded requests (`metadata[orderId]=…`), bearer secret keys, `Idempotency-Key`, JSON objects and
 * Stripe's error envelope. The official SDK is pointed at it through its host/port/protocol options.
 */

export interface StandInPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
  receipt_email: string | null;
  automatic_payment_methods: { enabled: boolean; allow_redirects?: string } | null;
}

/** A refund as Stripe's Refunds API answers it. */
export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  requests: RecordedRequest[];
  intents: Map<string, StandInPaymentIntent>;
  /** Refunds made through `POST /v1/refunds`, by id. */
  refunds: Map<string, StandInRefund>;
  /** What a customer finishing the card form at Stripe does. */
  succeed(id: string): StandInPaymentIntent;
  /** An intent made outside the shop (e.g. for a different amount), for tamper tests. */
  createIntent(input: { amount: number; currency?: string; metadata?: Record<string, string> }): StandInPaymentIntent;
  close(): Promise<void>;
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
}

/** A webhook event as Stripe sends it: the envelope (API version, creation time, …) around the event's object. */
export function stripeEvent(type: string, object: object, id = randomId('evt')) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

function stripeError(res: http.ServerResponse, status: number, error: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req') });
  res.end(JSON.stringify({ error }));
}

/** Stripe's 404 for a PaymentIntent it does not know, naming the parameter that named it. */
function noSuchIntent(res: http.ServerResponse, id: string, param: string): void {
  stripeError(res, 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such payment_intent: '${id}'`,
  });
}

/** `metadata[orderId]=x&automatic_payment_methods[enabled]=true` → nested objects, as Stripe reads them. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter(Boolean);
    let target = out;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        target[part] = value;
        return;
      }
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    });
  }
  return out;
}

export async function startStripeStandIn(secretKey = 'sk_test_standin_0123456789'): Promise<StripeStandIn> {
  const intents = new Map<string, StandInPaymentIntent>();
  const refunds = new Map<string, StandInRefund>();
  const idempotent = new Map<string, string>();
  const requests: RecordedRequest[] = [];

  const create = (input: { amount: number; currency?: string; metadata?: Record<string, string> }, extra = {}) => {
    const id = randomId('pi');
    const intent: StandInPaymentIntent = {
      id,
      object: 'payment_intent',
      amount: input.amount,
      amount_received: 0,
      currency: input.currency ?? 'usd',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
      metadata: input.metadata ?? {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      receipt_email: null,
      automatic_payment_methods: null,
      ...extra,
    };
    intents.set(id, intent);
    return intent;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const flat = Object.fromEntries(new URLSearchParams(body));
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, form: flat });

      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        stripeError(res, 401, {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided.',
        });
        return;
      }
      const send = (status: number, object: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req') });
        res.end(JSON.stringify(object));
      };

      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string') {
          const earlier = idempotent.get(key);
          if (earlier) {
            send(200, intents.get(earlier));
            return;
          }
        }
        const form = parseStripeForm(body);
        const amount = Number(form.amount);
        if (!Number.isInteger(amount) || amount < 50) {
          stripeError(res, 400, {
            type: 'invalid_request_error',
            code: 'amount_too_small',
            param: 'amount',
            message: 'Amount must be at least $0.50 usd',
          });
          return;
        }
        const apm = form.automatic_payment_methods as { enabled?: string; allow_redirects?: string } | undefined;
        const intent = create(
          {
            amount,
            currency: String(form.currency ?? 'usd'),
            metadata: (form.metadata as Record<string, string> | undefined) ?? {},
          },
          {
            receipt_email: typeof form.receipt_email === 'string' ? form.receipt_email : null,
            automatic_payment_methods: apm
              ? {
                  enabled: apm.enabled === 'true',
                  ...(apm.allow_redirects ? { allow_redirects: apm.allow_redirects } : {}),
                }
              : null,
          },
        );
        if (typeof key === 'string') idempotent.set(key, intent.id);
        send(200, intent);
        return;
      }

      // The Refunds API: only a succeeded payment, never more than what is left of it; Idempotency-Key honoured.
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = req.headers['idempotency-key'];
        const earlier = typeof key === 'string' ? idempotent.get(`refund:${key}`) : undefined;
        if (earlier) {
          send(200, refunds.get(earlier));
          return;
        }
        const form = parseStripeForm(body);
        const intent = intents.get(String(form.payment_intent ?? ''));
        if (!intent) {
          noSuchIntent(res, String(form.payment_intent ?? ''), 'payment_intent');
          return;
        }
        const refunded = [...refunds.values()]
          .filter((refund) => refund.payment_intent === intent.id)
          .reduce((sum, refund) => sum + refund.amount, 0);
        const amount = form.amount === undefined ? intent.amount_received - refunded : Number(form.amount);
        if (intent.status !== 'succeeded') {
          stripeError(res, 400, {
            type: 'invalid_request_error',
            code: 'charge_not_refundable',
            message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          });
          return;
        }
        if (!Number.isInteger(amount) || amount <= 0 || refunded + amount > intent.amount_received) {
          stripeError(res, 400, {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            param: 'amount',
            message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount_received - refunded) / 100).toFixed(2)})`,
          });
          return;
        }
        const refund: StandInRefund = {
          id: randomId('re'),
          object: 'refund',
          amount,
          currency: intent.currency,
          payment_intent: intent.id,
          charge: `ch_${intent.id.slice(3)}`,
          status: 'succeeded',
          metadata: (form.metadata as Record<string, string> | undefined) ?? {},
          created: Math.floor(Date.now() / 1000),
        };
        refunds.set(refund.id, refund);
        if (typeof key === 'string') idempotent.set(`refund:${key}`, refund.id);
        send(200, refund);
        return;
      }

      // Cancelling an intent: refused once it succeeded, is processing or was canceled already.
      const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
      if (req.method === 'POST' && cancel?.[1]) {
        const intent = intents.get(decodeURIComponent(cancel[1]));
        if (!intent) {
          noSuchIntent(res, decodeURIComponent(cancel[1]), 'intent');
          return;
        }
        if (['succeeded', 'processing', 'canceled'].includes(intent.status)) {
          stripeError(res, 400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          });
          return;
        }
        intent.status = 'canceled';
        send(200, intent);
        return;
      }

      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match?.[1]) {
        const intent = intents.get(decodeURIComponent(match[1]));
        if (!intent) {
          noSuchIntent(res, decodeURIComponent(match[1]), 'intent');
          return;
        }
        send(200, intent);
        return;
      }
      stripeError(res, 404, {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    intents,
    refunds,
    succeed(id) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`stand-in has no intent ${id}`);
      // As at Stripe: a canceled PaymentIntent cannot be confirmed any more.
      if (intent.status === 'canceled') throw new Error(`payment_intent_unexpected_state: ${id} is canceled`);
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      return intent;
    },
    createIntent: (input) => create(input),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
