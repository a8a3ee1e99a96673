import { and, desc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { mailOutbox, orders } from '../../src/server/db/schema.ts';
import { insertPart } from '../../src/server/modules/orders/order-test-helpers.ts';
import { signUpAndVerify } from './sign-up.ts';
import { createUser, type TestContext, type TestUser } from './test-app.ts';

export type CallerName = 'anonymous' | 'customer' | 'other customer' | 'admin';
export const CALLER_NAMES: readonly CallerName[] = ['anonymous', 'customer', 'other customer', 'admin'];

export interface Callers {
  customer: TestUser;
  other: TestUser;
  admin: TestUser;
}

export interface RouteRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  /** Replaces the caller's headers (e.g. a second session of the same user for sign-out). */
  headers?: Record<string, string>;
  /** A body that is not JSON (a photo's bytes), sent as it is with its content type. */
  raw?: { contentType: string; data: Buffer };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON body, always sent as application/json (Fastify's inject would send a string as text/plain). */
export function injectOptions(request: RouteRequest, callerHeaders: Record<string, string>): InjectOptions {
  const headers: Record<string, string> = { ...callerHeaders, ...request.headers };
  if (request.raw) {
    const { contentType, data } = request.raw;
    return {
      method: request.method,
      url: request.url,
      headers: { 'content-type': contentType, ...headers },
      payload: data,
    };
  }
  if (request.payload === undefined) return { method: request.method, url: request.url, headers };
  return {
    method: request.method,
    url: request.url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(request.payload),
  };
}

export const PASSWORD = 'ride-safe-123';
let counter = 0;
const unique = () => {
  counter += 1;
  return `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
};

/** Real records built through the real app (or straight in the database where the API has no way). */
export class Fixtures {
  readonly ctx: () => TestContext;
  readonly callers: Callers;

  constructor(ctx: () => TestContext, callers: Callers) {
    this.ctx = ctx;
    this.callers = callers;
  }

  static async create(ctx: () => TestContext): Promise<Fixtures> {
    return new Fixtures(ctx, {
      customer: await createUser(ctx()),
      other: await createUser(ctx()),
      admin: await createUser(ctx(), { admin: true }),
    });
  }

  /** The headers a caller sends; anonymous sends none. */
  headersOf(caller: CallerName): Record<string, string> {
    if (caller === 'anonymous') return {};
    return this.userOf(caller).headers;
  }

  userOf(caller: Exclude<CallerName, 'anonymous'>): TestUser {
    if (caller === 'customer') return this.callers.customer;
    if (caller === 'other customer') return this.callers.other;
    return this.callers.admin;
  }

  async part(values: { availableQuantity?: number; minimumOrder?: number } = {}) {
    return insertPart(this.ctx().database.db, { availableQuantity: 1000, minimumOrder: 1, ...values });
  }

  /** An unpaid order placed by "customer" through POST /api/myorder. */
  async order(): Promise<string> {
    const part = await this.part();
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: this.callers.customer.headers,
      payload: { partId: part.id, quantity: 2, address: '1 Main St', phone: '+1 555 0100' },
    });
    if (res.statusCode !== 201) throw new Error(`order not placed: ${res.statusCode} ${res.body}`);
    return res.json()._id as string;
  }

  /** A paid order of "customer" (paid straight in the database, as a confirmed payment leaves it). */
  async paidOrder(): Promise<string> {
    const id = await this.order();
    await this.ctx()
      .database.db.update(orders)
      .set({ paid: true, status: 'paid', transactionId: `pi_fixture_${unique()}` })
      .where(eq(orders.id, id));
    return id;
  }

  /** A paid order of "customer" paid through the test gateway, so its provider can refund it. */
  async refundableOrder(): Promise<string> {
    const { orderId, transactionId } = await this.succeededPayment();
    const res = await this.ctx().app.inject({
      method: 'PATCH',
      url: `/api/myorder/${orderId}`,
      headers: this.callers.customer.headers,
      payload: { transactionId },
    });
    if (res.statusCode !== 200) throw new Error(`order not paid: ${res.statusCode} ${res.body}`);
    return orderId;
  }

  /** A shipped order of "customer" (what Mark Delivered moves on). */
  async shippedOrder(): Promise<string> {
    const id = await this.paidOrder();
    await this.ctx()
      .database.db.update(orders)
      .set({ status: 'shipped', shippedAt: new Date(), carrier: 'UPS', trackingNumber: `1Z${unique()}` })
      .where(eq(orders.id, id));
    return id;
  }

  /** A payment intent of the built-in test gateway for a fresh order of "customer". */
  async intent(): Promise<{ orderId: string; clientSecret: string }> {
    const orderId = await this.order();
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: this.callers.customer.headers,
      payload: { orderId },
    });
    if (res.statusCode !== 200) throw new Error(`intent not created: ${res.statusCode} ${res.body}`);
    return { orderId, clientSecret: res.json().clientSecret as string };
  }

  /** A succeeded card payment for a fresh, still unpaid order of "customer": what PATCH /api/myorder/:id confirms. */
  async succeededPayment(): Promise<{ orderId: string; transactionId: string }> {
    const { orderId, clientSecret } = await this.intent();
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/payments/test-gateway/confirm',
      headers: this.callers.customer.headers,
      payload: { clientSecret, card: validCard },
    });
    if (res.statusCode !== 200) throw new Error(`payment not confirmed: ${res.statusCode} ${res.body}`);
    return { orderId, transactionId: res.json().transactionId as string };
  }

  /** A user with a password (signed up through the API, its mailed link opened), for POST /api/login. */
  async passwordUser(): Promise<{ email: string; password: string }> {
    const email = `login-${unique()}@example.com`;
    await signUpAndVerify(this.ctx().app, this.ctx().database.db, { name: 'Login Rider', email, password: PASSWORD });
    return { email, password: PASSWORD };
  }

  /**
   * A new user standing in for a caller, with a password and a session of their own: for the calls that end every
   * session of their caller (Sign Out Everywhere, Change Password), so the matrix's callers stay signed in.
   */
  async standIn(caller: CallerName): Promise<{ headers?: Record<string, string>; email: string }> {
    const email = `stand-in-${unique()}@example.com`;
    const auth = await signUpAndVerify(this.ctx().app, this.ctx().database.db, {
      name: 'Stand In',
      email,
      password: PASSWORD,
    });
    if (caller === 'anonymous') return { email };
    return { email, headers: { authorization: `Bearer ${auth.token}` } };
  }

  /** A sign-up waiting for its link: the email it was made with (its link is in the outbox). */
  async waitingSignUp(): Promise<string> {
    const email = `waiting-${unique()}@example.com`;
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: 'Waiting Rider', email, password: PASSWORD },
    });
    if (res.statusCode !== 202) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    return email;
  }

  /** The token of the newest mailed link of `kind` to `email` (delivery is off in tests: read from the outbox). */
  async mailedToken(kind: 'verify-email' | 'reset-password', email: string): Promise<string> {
    await this.ctx().app.services.accounts.settled();
    const [mail] = await this.ctx()
      .database.db.select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.recipient, email)))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const token = /#token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no ${kind} mail to ${email}`);
    return token;
  }

  /** Through the admin API, as an admin would: a make, a model, a vehicle, each fresh. */
  async #admin(method: 'POST', url: string, payload: unknown): Promise<{ id: string }> {
    const res = await this.ctx().app.inject({
      method,
      url,
      headers: this.callers.admin.headers,
      payload: payload as Record<string, unknown>,
    });
    if (res.statusCode !== 201) throw new Error(`${url} failed: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return Array.isArray(body) ? body[0] : body;
  }

  #shared: Promise<{ makeId: string; modelId: string; vehicleId: string }> | undefined;

  /**
   * One make, model and 2019 vehicle for the requests that only read or refer to them (made once: building a
   * vehicle takes three admin calls, and the matrix asks for one per caller and route).
   */
  async sharedVehicle(): Promise<{ makeId: string; modelId: string; vehicleId: string }> {
    this.#shared ??= (async () => {
      const modelId = await this.vehicleModel();
      const vehicleId = (await this.#admin('POST', '/api/vehicle', { modelId, yearFrom: 2019, yearTo: 2019 })).id;
      const res = await this.ctx().app.inject({ method: 'GET', url: `/api/vehicle/${vehicleId}` });
      return { makeId: res.json().makeId as string, modelId, vehicleId };
    })();
    return this.#shared;
  }

  async vehicleMake(): Promise<string> {
    return (await this.#admin('POST', '/api/vehicle/make', { name: `Make ${unique()}` })).id;
  }

  async vehicleModel(): Promise<string> {
    const makeId = await this.vehicleMake();
    return (await this.#admin('POST', '/api/vehicle/model', { makeId, name: `Model ${unique()}`, type: 'motorcycle' }))
      .id;
  }

  /** A fresh vehicle: a new variant of the shared model's 2019 (one admin call). */
  async vehicle(): Promise<string> {
    const { modelId } = await this.sharedVehicle();
    const body = { modelId, yearFrom: 2019, yearTo: 2019, variant: `V ${unique()}` };
    return (await this.#admin('POST', '/api/vehicle', body)).id;
  }

  /** A fresh vehicle in "customer"'s garage: the garage entry's id. */
  async garageEntry(): Promise<string> {
    const vehicleId = await this.vehicle();
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/garage',
      headers: this.callers.customer.headers,
      payload: { vehicleId, current: false },
    });
    if (res.statusCode !== 201) throw new Error(`garage entry not added: ${res.statusCode} ${res.body}`);
    const entry = res.json().vehicles.find((e: { vehicle: { id: string } }) => e.vehicle.id === vehicleId);
    return entry.id as string;
  }

  /** A fresh part in the caller's cart (so the caller's checkout has something to place); its id. */
  async fillCart(caller: CallerName): Promise<string> {
    const part = await this.part();
    if (caller === 'anonymous') return part.id;
    const res = await this.ctx().app.inject({
      method: 'PUT',
      url: `/api/cart/items/${part.id}`,
      headers: this.userOf(caller).headers,
      payload: { quantity: 2 },
    });
    if (res.statusCode !== 200) throw new Error(`cart not filled: ${res.statusCode} ${res.body}`);
    return part.id;
  }

  /** A saved address of "customer". */
  async savedAddress(): Promise<string> {
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/addresses',
      headers: this.callers.customer.headers,
      payload: { address: `${unique()} Address Book Row`, phone: '+1 555 0110' },
    });
    if (res.statusCode !== 201) throw new Error(`address not saved: ${res.statusCode} ${res.body}`);
    return res.json()._id as string;
  }

  /** A succeeded test-gateway payment of two fresh orders of "customer", not yet confirmed. */
  async succeededGroupPayment(): Promise<string> {
    const orderIds = [await this.order(), await this.order()];
    const headers = this.callers.customer.headers;
    const created = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers,
      payload: { orderIds },
    });
    if (created.statusCode !== 200) throw new Error(`group intent not created: ${created.statusCode} ${created.body}`);
    const res = await this.ctx().app.inject({
      method: 'POST',
      url: '/api/payments/test-gateway/confirm',
      headers,
      payload: { clientSecret: created.json().clientSecret, card: validCard },
    });
    if (res.statusCode !== 200) throw new Error(`group payment not made: ${res.statusCode} ${res.body}`);
    return res.json().transactionId as string;
  }

  /** A fresh part with two uploaded photos (through the admin API); their ids, the main one first. */
  async partWithPhotos(): Promise<{ partId: string; photoIds: string[] }> {
    const partId = (await this.part()).id;
    let photoIds: string[] = [];
    for (const colour of ['#a33', '#3a3']) {
      const res = await this.ctx().app.inject({
        method: 'POST',
        url: `/api/part/${partId}/photos`,
        headers: { ...this.callers.admin.headers, 'content-type': 'image/jpeg' },
        payload: await testPhoto(colour),
      });
      if (res.statusCode !== 201) throw new Error(`photo not uploaded: ${res.statusCode} ${res.body}`);
      photoIds = res.json().map((photo: { id: string }) => photo.id);
    }
    return { partId, photoIds };
  }

  /** A second session of the caller, so signing it out leaves the caller's own token working. */
  async secondSession(caller: CallerName): Promise<Record<string, string> | undefined> {
    if (caller === 'anonymous') return undefined;
    const { token } = await this.ctx().app.sessions.create(this.userOf(caller).id);
    return { authorization: `Bearer ${token}` };
  }
}

export const validCard = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: '123',
};

export const validPart = () => ({
  name: `Part ${unique().slice(-8)}`,
  desription: 'A sturdy part',
  price: 25.5,
  availablequantity: 40,
  minimunorder: 2,
  img: '/images/parts/brake-disc.svg',
});

/** A small JPEG made with sharp (no binary fixtures), one per colour. */
const photos = new Map<string, Promise<Buffer>>();
export function testPhoto(colour = '#c33'): Promise<Buffer> {
  let photo = photos.get(colour);
  if (!photo) {
    photo = sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();
    photos.set(colour, photo);
  }
  return photo;
}

export const validReview = () => ({
  name: 'Riley',
  number: 5,
  img: '/images/avatars/avatar-3.svg',
  review: 'Fast delivery, fits well.',
});

/**
 * For every route of the OpenAPI document, how to build its VALID request for a caller: params point at real
 * records, bodies pass validation. Keys are `METHOD /openapi/{path}`.
 */
export const requestBuilders: Record<string, (fx: Fixtures, caller: CallerName) => Promise<RouteRequest>> = {
  'GET /api/health/live': async () => ({ method: 'GET', url: '/api/health/live' }),
  'POST /api/signup': async () => ({
    method: 'POST',
    url: '/api/signup',
    payload: { name: 'New Rider', email: `signup-${unique()}@example.com`, password: PASSWORD },
  }),
  'POST /api/login': async (fx) => ({ method: 'POST', url: '/api/login', payload: await fx.passwordUser() }),
  'POST /api/logout': async (fx, caller) => ({
    method: 'POST',
    url: '/api/logout',
    headers: await fx.secondSession(caller),
  }),
  'POST /api/logout/everywhere': async (fx, caller) => ({
    method: 'POST',
    url: '/api/logout/everywhere',
    headers: (await fx.standIn(caller)).headers,
  }),
  'GET /api/me': async () => ({ method: 'GET', url: '/api/me' }),
  'POST /api/email/verify': async (fx) => {
    const email = await fx.waitingSignUp();
    return {
      method: 'POST',
      url: '/api/email/verify',
      payload: { token: await fx.mailedToken('verify-email', email) },
    };
  },
  'POST /api/email/verify/resend': async () => ({ method: 'POST', url: '/api/email/verify/resend' }),
  // An email with no account: the answer is the same, and nothing is written (before/after checksums stay equal).
  'POST /api/password/forgot': async () => ({
    method: 'POST',
    url: '/api/password/forgot',
    payload: { email: `nobody-${unique()}@example.com` },
  }),
  'POST /api/password/reset': async (fx) => {
    const { email } = await fx.standIn('anonymous');
    const res = await fx.ctx().app.inject({
      method: 'POST',
      url: '/api/password/forgot',
      payload: { email },
      // Each from an address of its own: the per-address forgot-password limit is not what the matrix tests.
      remoteAddress: `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });
    if (res.statusCode !== 202) throw new Error(`forgot failed: ${res.statusCode}`);
    const token = await fx.mailedToken('reset-password', email);
    return { method: 'POST', url: '/api/password/reset', payload: { token, password: 'brand-new-secret-9' } };
  },
  'POST /api/password/change': async (fx, caller) => ({
    method: 'POST',
    url: '/api/password/change',
    headers: (await fx.standIn(caller)).headers,
    payload: { currentPassword: PASSWORD, newPassword: 'brand-new-secret-9' },
  }),
  'PUT /api/user/{email}': async (fx) => ({
    method: 'PUT',
    url: `/api/user/${encodeURIComponent(fx.callers.customer.email)}`,
    payload: { email: fx.callers.customer.email },
  }),
  'GET /api/admin/{email}': async (fx) => ({
    method: 'GET',
    url: `/api/admin/${encodeURIComponent(fx.callers.customer.email)}`,
  }),
  'GET /api/user': async () => ({ method: 'GET', url: '/api/user' }),
  'PUT /api/user/admin/{email}': async (fx) => {
    // A fresh target each time: making "customer" an admin would change every later answer.
    const target = await createUser(fx.ctx());
    return { method: 'PUT', url: `/api/user/admin/${encodeURIComponent(target.email)}` };
  },
  'DELETE /api/user/admin/{email}': async (fx) => {
    // A fresh admin each time, so there is always another admin left and the callers keep their roles.
    const target = await createUser(fx.ctx(), { admin: true });
    return { method: 'DELETE', url: `/api/user/admin/${encodeURIComponent(target.email)}` };
  },
  'GET /api/admin/jobs': async () => ({ method: 'GET', url: '/api/admin/jobs' }),
  'GET /api/profile': async () => ({ method: 'GET', url: '/api/profile' }),
  'POST /api/profile': async () => ({
    method: 'POST',
    url: '/api/profile',
    payload: {
      education: 'Mechanics',
      phonenumber: '+1 555 0100',
      img: 'https://example.com/me.png',
      link: 'https://example.com',
    },
  }),
  'GET /api/auth/providers': async () => ({ method: 'GET', url: '/api/auth/providers' }),
  'GET /api/auth/google': async () => ({ method: 'GET', url: '/api/auth/google?returnTo=%2Fdashboard' }),
  'GET /api/auth/google/callback': async () => ({
    method: 'GET',
    url: '/api/auth/google/callback?code=abc&state=xyz',
  }),
  // Google is not configured in tests, and no browser started a sign-in: every code is refused (400).
  'POST /api/auth/google/redeem': async () => ({
    method: 'POST',
    url: '/api/auth/google/redeem',
    payload: { code: 'Z'.repeat(43) },
  }),
  'GET /api/part': async () => ({ method: 'GET', url: '/api/part?q=part&sort=name&limit=10&offset=0' }),
  'POST /api/part': async (fx) => ({
    method: 'POST',
    url: '/api/part',
    payload: {
      ...validPart(),
      brand: 'Brembo',
      mpn: 'BR-07.BB.15',
      oemNumbers: ['5XC-W0045-00'],
      category: 'brake-pads',
      universal: false,
      fitment: [{ modelId: (await fx.sharedVehicle()).modelId, yearFrom: 2018, yearTo: 2021, variant: null }],
    },
  }),
  // Filters, facets, categories, brands, the vehicle selector, the admin's vehicles, My Garage.
  'GET /api/part/facets': async (fx) => ({
    method: 'GET',
    url: `/api/part/facets?vehicle=${(await fx.sharedVehicle()).vehicleId}&fits=true&category=brakes&brand=ebc&minPrice=1&maxPrice=500&inStock=true&q=pad`,
  }),
  'GET /api/part/page': async (fx) => ({
    method: 'GET',
    url: `/api/part/page?vehicle=${(await fx.sharedVehicle()).vehicleId}&fits=true&brand=ebc&inStock=true&sort=price_asc&limit=24&offset=0`,
  }),
  // Search-as-you-type.
  'GET /api/part/suggest': async () => ({ method: 'GET', url: '/api/part/suggest?q=brak%20pa' }),
  'GET /api/category': async () => ({ method: 'GET', url: '/api/category' }),
  'GET /api/brand': async () => ({ method: 'GET', url: '/api/brand' }),
  'GET /api/vehicle/types': async () => ({ method: 'GET', url: '/api/vehicle/types' }),
  'GET /api/vehicle/years': async () => ({ method: 'GET', url: '/api/vehicle/years?type=motorcycle' }),
  'GET /api/vehicle/makes': async () => ({ method: 'GET', url: '/api/vehicle/makes?type=motorcycle&year=2019' }),
  'GET /api/vehicle/models': async (fx) => ({
    method: 'GET',
    url: `/api/vehicle/models?makeId=${(await fx.sharedVehicle()).makeId}&type=motorcycle&year=2019`,
  }),
  'GET /api/vehicle': async (fx) => ({
    method: 'GET',
    url: `/api/vehicle?modelId=${(await fx.sharedVehicle()).modelId}&year=2019&limit=10&offset=0`,
  }),
  'GET /api/vehicle/{id}': async (fx) => ({
    method: 'GET',
    url: `/api/vehicle/${(await fx.sharedVehicle()).vehicleId}`,
  }),
  'POST /api/vehicle/make': async () => ({
    method: 'POST',
    url: '/api/vehicle/make',
    payload: { name: `Make ${unique()}` },
  }),
  'PATCH /api/vehicle/make/{id}': async (fx) => ({
    method: 'PATCH',
    url: `/api/vehicle/make/${await fx.vehicleMake()}`,
    payload: { name: `Renamed ${unique()}` },
  }),
  'DELETE /api/vehicle/make/{id}': async (fx) => ({
    method: 'DELETE',
    url: `/api/vehicle/make/${await fx.vehicleMake()}`,
  }),
  'POST /api/vehicle/model': async (fx) => ({
    method: 'POST',
    url: '/api/vehicle/model',
    payload: { makeId: (await fx.sharedVehicle()).makeId, name: `Model ${unique()}`, type: 'atv' },
  }),
  'PATCH /api/vehicle/model/{id}': async (fx) => ({
    method: 'PATCH',
    url: `/api/vehicle/model/${await fx.vehicleModel()}`,
    payload: { name: `Renamed ${unique()}`, type: 'scooter' },
  }),
  'DELETE /api/vehicle/model/{id}': async (fx) => ({
    method: 'DELETE',
    url: `/api/vehicle/model/${await fx.vehicleModel()}`,
  }),
  'POST /api/vehicle': async (fx) => ({
    method: 'POST',
    url: '/api/vehicle',
    payload: { modelId: (await fx.sharedVehicle()).modelId, yearFrom: 2018, yearTo: 2020, variant: `ABS ${unique()}` },
  }),
  'DELETE /api/vehicle/{id}': async (fx) => ({ method: 'DELETE', url: `/api/vehicle/${await fx.vehicle()}` }),
  'GET /api/garage': async () => ({ method: 'GET', url: '/api/garage' }),
  'POST /api/garage': async (fx) => ({
    method: 'POST',
    url: '/api/garage',
    payload: { vehicleId: await fx.vehicle(), name: 'Race bike', current: true },
  }),
  'POST /api/garage/merge': async (fx) => ({
    method: 'POST',
    url: '/api/garage/merge',
    payload: { vehicles: [{ vehicleId: await fx.vehicle(), name: 'From the browser' }], currentVehicleId: null },
  }),
  'PUT /api/garage/current': async (fx) => ({
    method: 'PUT',
    url: '/api/garage/current',
    payload: { id: await fx.garageEntry() },
  }),
  'PATCH /api/garage/{id}': async (fx) => ({
    method: 'PATCH',
    url: `/api/garage/${await fx.garageEntry()}`,
    payload: { name: 'Commuter' },
  }),
  'DELETE /api/garage/{id}': async (fx) => ({ method: 'DELETE', url: `/api/garage/${await fx.garageEntry()}` }),
  'GET /api/part/{id}': async (fx) => ({
    method: 'GET',
    url: `/api/part/${(await fx.part()).id}?vehicle=${(await fx.sharedVehicle()).vehicleId}`,
  }),
  'PATCH /api/part/{id}': async (fx) => ({
    method: 'PATCH',
    url: `/api/part/${(await fx.part()).id}`,
    payload: { price: 30, availablequantity: 50 },
  }),
  'DELETE /api/part/{id}': async (fx) => ({ method: 'DELETE', url: `/api/part/${(await fx.part()).id}` }),
  'GET /api/review': async () => ({ method: 'GET', url: '/api/review?limit=10' }),
  'POST /api/review': async () => ({ method: 'POST', url: '/api/review', payload: validReview() }),
  'POST /api/myorder': async (fx) => ({
    method: 'POST',
    url: '/api/myorder',
    payload: { partId: (await fx.part()).id, quantity: 3, address: '2 High St', phone: '555-0101' },
  }),
  'GET /api/myorder': async (fx) => ({
    method: 'GET',
    url: `/api/myorder?email=${encodeURIComponent(fx.callers.customer.email)}`,
  }),
  'GET /api/myorder/{id}': async (fx) => ({ method: 'GET', url: `/api/myorder/${await fx.order()}` }),
  'DELETE /api/myorder/{id}': async (fx) => ({ method: 'DELETE', url: `/api/myorder/${await fx.order()}` }),
  'PATCH /api/myorder/{id}': async (fx) => {
    const { orderId, transactionId } = await fx.succeededPayment();
    return { method: 'PATCH', url: `/api/myorder/${orderId}`, payload: { transactionId } };
  },
  'GET /api/allorder': async () => ({ method: 'GET', url: '/api/allorder?limit=10&offset=0' }),
  'PATCH /api/allorder/{id}/ship': async (fx) => ({
    method: 'PATCH',
    url: `/api/allorder/${await fx.paidOrder()}/ship`,
    payload: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' },
  }),
  // The order page, Mark Delivered and refunds.
  'GET /api/orders/{id}/detail': async (fx) => ({ method: 'GET', url: `/api/orders/${await fx.order()}/detail` }),
  'PATCH /api/allorder/{id}/deliver': async (fx) => ({
    method: 'PATCH',
    url: `/api/allorder/${await fx.shippedOrder()}/deliver`,
  }),
  'POST /api/allorder/{id}/refund': async (fx) => ({
    method: 'POST',
    url: `/api/allorder/${await fx.refundableOrder()}/refund`,
  }),
  'GET /api/payments/config': async () => ({ method: 'GET', url: '/api/payments/config' }),
  'POST /api/create-payment-intent': async (fx) => ({
    method: 'POST',
    url: '/api/create-payment-intent',
    payload: { orderId: await fx.order() },
  }),
  'POST /api/payments/test-gateway/confirm': async (fx) => ({
    method: 'POST',
    url: '/api/payments/test-gateway/confirm',
    payload: {
      clientSecret: (await fx.intent()).clientSecret,
      card: validCard,
      billingDetails: { name: 'Riley', email: 'riley@example.com' },
    },
  }),
  // Cart, checkout, the address book and one payment for several orders.
  'GET /api/cart': async () => ({ method: 'GET', url: '/api/cart' }),
  'PUT /api/cart/items/{partId}': async (fx) => ({
    method: 'PUT',
    url: `/api/cart/items/${(await fx.part()).id}`,
    payload: { quantity: 3 },
  }),
  'DELETE /api/cart/items/{partId}': async (fx, caller) => ({
    method: 'DELETE',
    url: `/api/cart/items/${await fx.fillCart(caller)}`,
  }),
  'POST /api/cart/merge': async (fx) => ({
    method: 'POST',
    url: '/api/cart/merge',
    payload: { lines: [{ partId: (await fx.part()).id, quantity: 2 }] },
  }),
  'POST /api/checkout': async (fx, caller) => {
    await fx.fillCart(caller);
    return { method: 'POST', url: '/api/checkout', payload: { address: '3 Checkout Way', phone: '555-0103' } };
  },
  'PATCH /api/myorder/{id}/address': async (fx) => ({
    method: 'PATCH',
    url: `/api/myorder/${await fx.order()}/address`,
    payload: { address: '4 Moved Street', phone: '555-0104' },
  }),
  'GET /api/addresses': async () => ({ method: 'GET', url: '/api/addresses' }),
  'POST /api/addresses': async () => ({
    method: 'POST',
    url: '/api/addresses',
    payload: { address: '5 Saved Street', phone: '555-0105' },
  }),
  'DELETE /api/addresses/{id}': async (fx) => ({ method: 'DELETE', url: `/api/addresses/${await fx.savedAddress()}` }),
  'POST /api/payments/confirm': async (fx) => ({
    method: 'POST',
    url: '/api/payments/confirm',
    payload: { transactionId: await fx.succeededGroupPayment() },
  }),
  // A part's photos.
  'POST /api/part/{id}/photos': async (fx) => ({
    method: 'POST',
    url: `/api/part/${(await fx.part()).id}/photos`,
    raw: { contentType: 'image/jpeg', data: await testPhoto() },
  }),
  'PUT /api/part/{id}/photos': async (fx) => {
    const { partId, photoIds } = await fx.partWithPhotos();
    return { method: 'PUT', url: `/api/part/${partId}/photos`, payload: { order: [...photoIds].reverse() } };
  },
  'PUT /api/part/{id}/photos/{photoId}/main': async (fx) => {
    const { partId, photoIds } = await fx.partWithPhotos();
    return { method: 'PUT', url: `/api/part/${partId}/photos/${photoIds[1]}/main` };
  },
  'DELETE /api/part/{id}/photos/{photoId}': async (fx) => {
    const { partId, photoIds } = await fx.partWithPhotos();
    return { method: 'DELETE', url: `/api/part/${partId}/photos/${photoIds[0]}` };
  },
  // CSV import (a dry run of one row, so no part changes) and export, admins only.
  'POST /api/admin/catalog/import': async () => ({
    method: 'POST',
    url: '/api/admin/catalog/import?dryRun=true&fileName=matrix.csv',
    raw: {
      contentType: 'text/csv',
      data: Buffer.from(`${IMPORT_HEADER}\nMATRIX-1,Matrix Part,9.50,3,/images/parts/oil-filter.svg\n`),
    },
  }),
  'GET /api/admin/catalog/import': async (fx) => {
    await fx.ctx().app.services.catalogImports.settled();
    return { method: 'GET', url: '/api/admin/catalog/import' };
  },
  'GET /api/admin/catalog/imports': async (fx) => {
    await finishedImport(fx);
    return { method: 'GET', url: '/api/admin/catalog/imports?limit=5&offset=0' };
  },
  'GET /api/admin/catalog/import/{id}': async (fx) => ({
    method: 'GET',
    url: `/api/admin/catalog/import/${await finishedImport(fx)}`,
  }),
  'POST /api/admin/catalog/import/{id}/cancel': async (fx) => ({
    method: 'POST',
    url: `/api/admin/catalog/import/${await finishedImport(fx)}/cancel`,
  }),
  // A dry run: checked and counted, nothing written.
  'POST /api/admin/vehicles/import': async () => ({
    method: 'POST',
    url: '/api/admin/vehicles/import?dryRun=true',
    raw: { contentType: 'text/csv', data: Buffer.from('type,make,model,years\nmotorcycle,Matrixa,MX1,2020-2021\n') },
  }),
  'GET /api/admin/export/products.csv': async () => ({ method: 'GET', url: '/api/admin/export/products.csv' }),
  'GET /api/admin/export/orders.csv': async () => ({
    method: 'GET',
    url: '/api/admin/export/orders.csv?status=unpaid&from=2020-01-01&to=2030-12-31',
  }),
  'POST /api/payments/webhook': async () => ({
    method: 'POST',
    url: '/api/payments/webhook',
    payload: { id: 'evt_test', type: 'payment_intent.created', data: { object: {} } },
    headers: { 'stripe-signature': 't=1,v1=00' },
  }),
  'GET /robots.txt': async () => ({ method: 'GET', url: '/robots.txt' }),
  'GET /sitemap.xml': async () => ({ method: 'GET', url: '/sitemap.xml' }),
  'GET /sitemaps/{file}': async () => ({ method: 'GET', url: '/sitemaps/parts-1.xml' }),
};

const IMPORT_HEADER = 'mpn,name,price,stock,image_url';

/** A dry-run import by the admin, finished (its background run awaited, so it writes nothing later). */
async function finishedImport(fx: Fixtures): Promise<string> {
  const app = fx.ctx().app;
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/catalog/import?dryRun=true',
    headers: { ...fx.callers.admin.headers, 'content-type': 'text/csv' },
    payload: `${IMPORT_HEADER}\nMATRIX-2,Matrix Part,9.50,3,/images/parts/oil-filter.svg\n`,
  });
  if (res.statusCode !== 202) throw new Error(`import not started: ${res.statusCode} ${res.body}`);
  await app.services.catalogImports.settled();
  return res.json().id as string;
}

/** Every `METHOD /path` of the OpenAPI document the app serves. */
export async function openapiOperations(ctx: TestContext): Promise<{ key: string; operation: OpenApiOperation }[]> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`no OpenAPI document: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const result: { key: string; operation: OpenApiOperation }[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
        result.push({ key: `${method.toUpperCase()} ${path}`, operation });
      }
    }
  }
  return result;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

export interface OpenApiOperation {
  parameters?: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  security?: unknown[];
}
