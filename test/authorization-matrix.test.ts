import Stripe from 'stripe';
import { beforeAll, expect, it } from 'vitest';
import {
  CALLER_NAMES,
  type CallerName,
  Fixtures,
  injectOptions,
  openapiOperations,
  requestBuilders,
} from './support/request-builders.ts';
import { stripeStandInForFile } from './support/stripe-stand-in-suite.ts';
import { databaseChecksum } from './support/table-checksum.ts';
import { createUser, describeEachDatabase } from './support/test-app.ts';

type Expected = Record<CallerName, number>;
const all = (status: number): Expected => ({
  anonymous: status,
  customer: status,
  'other customer': status,
  admin: status,
});
const signedIn = (status: number): Expected => ({ ...all(status), anonymous: 401 });
const adminOnly = (status: number): Expected => ({
  anonymous: 401,
  customer: 403,
  'other customer': 403,
  admin: status,
});

/**
 * Who may call what: one row per route of the OpenAPI document, each called with its VALID request (see
 * request-builders.ts) by four callers. "customer" owns the records the request names; "other customer" is another
 * signed-in customer. A route without a row, or a row without a route, fails: nothing ships unchecked.
 *
 * An order (or payment intent) of "customer" answers "other customer" 404, never 403, so order ids cannot be probed.
 * An admin may see and delete any order but never pay for someone else's (403: the admin knows the order exists).
 */
const matrix: Record<string, Expected> = {
  // Public by design.
  'GET /api/health': all(200),
  'GET /api/health/live': all(200),
  'POST /api/signup': all(202),
  'POST /api/login': all(200),
  // Sign-out never fails: it revokes the token it is given, if any (here a second session of the caller).
  'POST /api/logout': all(204),
  'GET /api/auth/providers': all(200),
  // Google is not configured in tests: the browser is sent to /auth/callback#error=… (never a 5xx, never a token).
  'GET /api/auth/google': all(302),
  'GET /api/auth/google/callback': all(302),
  'GET /api/part': all(200),
  'GET /api/part/{id}': all(200),
  // Issue 13: the filters' counts, categories, brands and the vehicle selector.
  'GET /api/part/facets': all(200),
  // Issue 13: the parts page's one call, page 1 with the filters' counts.
  'GET /api/part/page': all(200),
  // Issue 14: search suggestions, public like the list.
  'GET /api/part/suggest': all(200),
  'GET /api/category': all(200),
  'GET /api/brand': all(200),
  'GET /api/vehicle/types': all(200),
  'GET /api/vehicle/years': all(200),
  'GET /api/vehicle/makes': all(200),
  'GET /api/vehicle/models': all(200),
  'GET /api/vehicle': all(200),
  'GET /api/vehicle/{id}': all(200),
  'GET /api/review': all(200),
  'GET /api/payments/config': all(200),
  // Issue 10: the mailed links work without a sign-in (another browser may open them); forgot-password answers
  // everyone the same; a Google code needs the browser that started the sign-in (none here).
  'POST /api/email/verify': all(200),
  'POST /api/password/forgot': all(202),
  'POST /api/password/reset': all(200),
  'POST /api/auth/google/redeem': all(400),
  // With the built-in test gateway there is no Stripe webhook (404); the signed variant is checked below.
  'POST /api/payments/webhook': all(404),

  // Any signed-in caller, about themselves.
  'GET /api/me': signedIn(200),
  'GET /api/profile': signedIn(200),
  'POST /api/profile': signedIn(200),
  // A review needs a verified email (the matrix's callers have not verified theirs; reviews.test.ts posts as one).
  'POST /api/review': { ...signedIn(403), anonymous: 401 },
  'POST /api/myorder': signedIn(201),
  // My Garage: each caller's own.
  'GET /api/garage': signedIn(200),
  'POST /api/garage': signedIn(201),
  'POST /api/garage/merge': signedIn(200),
  // Issue 10, each for the caller's own account (a stand-in of the caller for the two that end every session).
  'POST /api/email/verify/resend': signedIn(202),
  'POST /api/password/change': signedIn(200),
  'POST /api/logout/everywhere': signedIn(204),

  // Issue 12: each caller's own cart, checkout and address book.
  'GET /api/cart': signedIn(200),
  'PUT /api/cart/items/{partId}': signedIn(200),
  'DELETE /api/cart/items/{partId}': signedIn(200),
  'POST /api/cart/merge': signedIn(200),
  'POST /api/checkout': signedIn(201),
  'GET /api/addresses': signedIn(200),
  'POST /api/addresses': signedIn(201),

  // Only about "customer": their own email, or an admin.
  'PUT /api/user/{email}': { anonymous: 401, customer: 200, 'other customer': 403, admin: 403 },
  'GET /api/admin/{email}': { anonymous: 401, customer: 200, 'other customer': 403, admin: 200 },
  'GET /api/myorder': { anonymous: 401, customer: 200, 'other customer': 403, admin: 200 },
  'GET /api/myorder/{id}': { anonymous: 401, customer: 200, 'other customer': 404, admin: 200 },
  'GET /api/orders/{id}/detail': { anonymous: 401, customer: 200, 'other customer': 404, admin: 200 },
  'DELETE /api/myorder/{id}': { anonymous: 401, customer: 200, 'other customer': 404, admin: 200 },
  'PATCH /api/myorder/{id}': { anonymous: 401, customer: 200, 'other customer': 404, admin: 403 },
  'POST /api/create-payment-intent': { anonymous: 401, customer: 200, 'other customer': 404, admin: 403 },
  // Issue 12: only the buyer sets an order's address (an admin knows the order exists: 403).
  'PATCH /api/myorder/{id}/address': { anonymous: 401, customer: 200, 'other customer': 404, admin: 403 },
  // A payment of "customer": anyone else is told no such payment was made for their orders (422).
  'POST /api/payments/confirm': { anonymous: 401, customer: 200, 'other customer': 422, admin: 422 },
  // A saved address of "customer": no one else's, admins included.
  'DELETE /api/addresses/{id}': { anonymous: 401, customer: 204, 'other customer': 404, admin: 404 },
  // A garage entry of "customer": no one else's, admins included (404, as if it did not exist).
  'PUT /api/garage/current': { anonymous: 401, customer: 200, 'other customer': 404, admin: 404 },
  'PATCH /api/garage/{id}': { anonymous: 401, customer: 200, 'other customer': 404, admin: 404 },
  'DELETE /api/garage/{id}': { anonymous: 401, customer: 200, 'other customer': 404, admin: 404 },
  // Stripe's answer to a client secret that is not yours: "No such payment intent" (400).
  'POST /api/payments/test-gateway/confirm': { anonymous: 401, customer: 200, 'other customer': 400, admin: 400 },

  // Administrators only.
  'GET /api/user': adminOnly(200),
  'PUT /api/user/admin/{email}': adminOnly(200),
  'DELETE /api/user/admin/{email}': adminOnly(200),
  'GET /api/admin/jobs': adminOnly(200),
  'POST /api/part': adminOnly(201),
  'PATCH /api/part/{id}': adminOnly(200),
  'DELETE /api/part/{id}': adminOnly(204),
  'POST /api/vehicle/make': adminOnly(201),
  'PATCH /api/vehicle/make/{id}': adminOnly(200),
  'DELETE /api/vehicle/make/{id}': adminOnly(204),
  'POST /api/vehicle/model': adminOnly(201),
  'PATCH /api/vehicle/model/{id}': adminOnly(200),
  'DELETE /api/vehicle/model/{id}': adminOnly(204),
  'POST /api/vehicle': adminOnly(201),
  'DELETE /api/vehicle/{id}': adminOnly(204),
  'POST /api/admin/vehicles/import': adminOnly(200),
  'GET /api/allorder': adminOnly(200),
  'PATCH /api/allorder/{id}/ship': adminOnly(200),
  // Issue 12: Mark Delivered and refunds are the shop's; the order page is its buyer's and the admins'.
  'PATCH /api/allorder/{id}/deliver': adminOnly(200),
  'POST /api/allorder/{id}/refund': adminOnly(200),
  // Issue 14: a part's photos are the shop's to upload and arrange; everyone sees them in GET /api/part/{id}.
  'POST /api/part/{id}/photos': adminOnly(201),
  'PUT /api/part/{id}/photos': adminOnly(200),
  'PUT /api/part/{id}/photos/{photoId}/main': adminOnly(200),
  'DELETE /api/part/{id}/photos/{photoId}': adminOnly(200),
  // Issue 14: CSV import of products and export of products and orders are the shop's.
  'POST /api/admin/catalog/import': adminOnly(202),
  'GET /api/admin/catalog/import': adminOnly(200),
  'GET /api/admin/catalog/imports': adminOnly(200),
  'GET /api/admin/catalog/import/{id}': adminOnly(200),
  'POST /api/admin/catalog/import/{id}/cancel': adminOnly(200),
  'GET /api/admin/export/products.csv': adminOnly(200),
  'GET /api/admin/export/orders.csv': adminOnly(200),
  // Issue 15: crawlers' files are public.
  'GET /robots.txt': all(200),
  'GET /sitemap.xml': all(200),
  'GET /sitemaps/{file}': all(200),
};

describeEachDatabase('authorization matrix over every route of the OpenAPI document', (ctx) => {
  let fx: Fixtures;
  let operations: string[];
  beforeAll(async () => {
    fx = await Fixtures.create(ctx);
    operations = (await openapiOperations(ctx())).map((o) => o.key);
  });

  it('has one row, and one request builder, per route of the OpenAPI document, and no row for a route that is gone', () => {
    expect(operations.length).toBeGreaterThan(25);
    expect(
      operations.filter((key) => !(key in matrix)),
      'routes without a row in the matrix',
    ).toEqual([]);
    expect(
      Object.keys(matrix).filter((key) => !operations.includes(key)),
      'rows for routes that do not exist',
    ).toEqual([]);
    const withoutBuilder = operations.filter((key) => !(key in requestBuilders) && key !== 'GET /api/health');
    expect(withoutBuilder, 'routes without a request builder').toEqual([]);
  });

  it('answers every caller of every route as the matrix says', async () => {
    const got: Record<string, Expected> = {};
    for (const key of operations) {
      const build = requestBuilders[key] ?? (async () => ({ method: 'GET' as const, url: '/api/health' }));
      const row = {} as Expected;
      for (const caller of CALLER_NAMES) {
        const request = await build(fx, caller);
        const before = await databaseChecksum(ctx().database.db);
        const res = await ctx().app.inject(injectOptions(request, fx.headersOf(caller)));
        row[caller] = res.statusCode;
        if (res.statusCode >= 400) {
          expect(res.json(), `${key} as ${caller}: the one error shape`).toMatchObject({
            error: { code: expect.any(String), message: expect.any(String) },
          });
          expect(await databaseChecksum(ctx().database.db), `${key} as ${caller}: a refusal changes nothing`).toEqual(
            before,
          );
        }
        if (res.statusCode === 302) {
          // A redirect never hands a token to a caller who did not sign in with Google.
          expect(res.headers.location, `${key} as ${caller}`).not.toMatch(/token=/);
        }
      }
      got[key] = row;
    }
    // One comparison of the whole table, so a failure shows every wrong cell at once.
    expect(got).toEqual(Object.fromEntries(operations.map((key) => [key, matrix[key]])));
    // Four callers of some seventy routes, each with two whole-database checksums: more than the default 20 s on a
    // busy two-core machine.
  }, 120_000);

  it('answers another customer about an order exactly as about an order that does not exist (ids cannot be probed)', async () => {
    const orderId = await fx.order();
    const unknown = crypto.randomUUID();
    const calls = (id: string) => [
      { method: 'GET' as const, url: `/api/myorder/${id}` },
      { method: 'DELETE' as const, url: `/api/myorder/${id}` },
      { method: 'PATCH' as const, url: `/api/myorder/${id}`, payload: { transactionId: 'pi_probe_000000' } },
      { method: 'POST' as const, url: '/api/create-payment-intent', payload: { orderId: id } },
    ];
    const answers = async (id: string) => {
      const result: { status: number; body: unknown }[] = [];
      for (const call of calls(id)) {
        const res = await ctx().app.inject({ ...call, headers: fx.callers.other.headers });
        result.push({ status: res.statusCode, body: res.json() });
      }
      return result;
    };
    const before = await databaseChecksum(ctx().database.db);
    expect(await answers(orderId)).toEqual(await answers(unknown));
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('answers a payment the provider never made: 422 to the buyer, and as for any request to everyone else', async () => {
    const got = {} as Expected;
    for (const caller of CALLER_NAMES) {
      const request = {
        method: 'PATCH' as const,
        url: `/api/myorder/${await fx.order()}`,
        payload: { transactionId: 'pi_never_made_000000' },
      };
      const before = await databaseChecksum(ctx().database.db);
      const res = await ctx().app.inject(injectOptions(request, fx.headersOf(caller)));
      got[caller] = res.statusCode;
      expect(res.json(), caller).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      expect(await databaseChecksum(ctx().database.db), `${caller}: a refusal changes nothing`).toEqual(before);
    }
    expect(got).toEqual({ anonymous: 401, customer: 422, 'other customer': 404, admin: 403 });
  });

  it('answers a signed-out token exactly as it answers an anonymous caller (401 where sign-in is needed)', async () => {
    const gone = await createUser(ctx());
    await ctx().app.inject({ method: 'POST', url: '/api/logout', headers: gone.headers });
    const got: Record<string, number> = {};
    for (const key of operations) {
      const build = requestBuilders[key] ?? (async () => ({ method: 'GET' as const, url: '/api/health' }));
      const request = await build(fx, 'anonymous');
      const res = await ctx().app.inject(injectOptions(request, gone.headers));
      got[key] = res.statusCode;
      if (res.statusCode === 401) expect(res.json().error.code, key).toBe('invalid_token');
    }
    expect(got).toEqual(Object.fromEntries(operations.map((key) => [key, matrix[key]?.anonymous])));
  });

  it('still knows every caller afterwards (no row signed a caller out or changed a role)', async () => {
    for (const caller of ['customer', 'other customer', 'admin'] as const) {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/me', headers: fx.headersOf(caller) });
      expect(res.statusCode).toBe(200);
      expect(res.json().isAdmin).toBe(caller === 'admin');
    }
  });
});

const WEBHOOK_SECRET = 'whsec_matrix_secret_0123456789';
const stripe = stripeStandInForFile({ webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_matrix_0123456789' });

/**
 * The webhook carries no bearer token: Stripe's signature is its authorization. Whoever calls, a correctly signed
 * event is accepted and an unsigned or wrongly signed one is refused, and a refusal changes nothing.
 */
describeEachDatabase(
  'authorization of the Stripe webhook (its signature, not a token)',
  (ctx) => {
    it('accepts a signed event from any caller and refuses a missing or wrong signature', async () => {
      const fx = await Fixtures.create(ctx);
      const signer = new Stripe('sk_test_unused');
      const got: Record<string, number[]> = {};
      for (const caller of CALLER_NAMES) {
        const payload = JSON.stringify({
          id: `evt_matrix_${caller.replace(' ', '_')}`,
          object: 'event',
          type: 'payment_intent.created',
          data: { object: { id: 'pi_matrix', object: 'payment_intent' } },
        });
        const send = (signature?: string) =>
          ctx().app.inject({
            method: 'POST',
            url: '/api/payments/webhook',
            headers: {
              ...fx.headersOf(caller),
              'content-type': 'application/json; charset=utf-8',
              ...(signature ? { 'stripe-signature': signature } : {}),
            },
            payload,
          });
        const before = await databaseChecksum(ctx().database.db);
        const unsigned = await send();
        const forged = await send(signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }));
        expect(await databaseChecksum(ctx().database.db)).toEqual(before);
        const signed = await send(signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
        got[caller] = [signed.statusCode, unsigned.statusCode, forged.statusCode];
      }
      expect(got).toEqual({
        anonymous: [200, 400, 400],
        customer: [200, 400, 400],
        'other customer': [200, 400, 400],
        admin: [200, 400, 400],
      });
    });
  },
  stripe.overrides,
);
