import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { partSchema } from '../../../shared/schemas/parts.ts';
import { orders, parts } from '../../db/schema.ts';

const valid = {
  name: 'Sport Breake',
  desription: 'Floating brake disc',
  price: 260,
  availablequantity: 340,
  minimunorder: 2,
  img: '/images/parts/brake-disc.svg',
};

/** Every validation rule, each with one bad value (the rest of the body valid). */
const badBodies: [string, Record<string, unknown>][] = [
  ['a missing name', { ...valid, name: undefined }],
  ['an empty name', { ...valid, name: '' }],
  ['a blank name', { ...valid, name: '   ' }],
  ['a 21-character name', { ...valid, name: 'x'.repeat(21) }],
  ['a number as name', { ...valid, name: 42 }],
  ['a description over 1000 characters', { ...valid, desription: 'd'.repeat(1001) }],
  ['a number as description', { ...valid, desription: 5 }],
  ['a missing price', { ...valid, price: undefined }],
  ['a price as text', { ...valid, price: '260' }],
  ['a zero price', { ...valid, price: 0 }],
  ['a negative price', { ...valid, price: -5 }],
  ['a price with 3 decimals', { ...valid, price: 10.005 }],
  ['a price over a million', { ...valid, price: 1_000_000.01 }],
  ['a null price', { ...valid, price: null }],
  ['a missing available quantity', { ...valid, availablequantity: undefined }],
  ['a negative available quantity', { ...valid, availablequantity: -1 }],
  ['a fractional available quantity', { ...valid, availablequantity: 2.5 }],
  ['an available quantity as text', { ...valid, availablequantity: '10' }],
  ['a missing minimum order', { ...valid, minimunorder: undefined }],
  ['a zero minimum order', { ...valid, minimunorder: 0 }],
  ['a negative minimum order', { ...valid, minimunorder: -3 }],
  ['a fractional minimum order', { ...valid, minimunorder: 1.5 }],
  ['a minimum order as text', { ...valid, minimunorder: '100' }],
  ['a missing image', { ...valid, img: undefined }],
  ['a javascript: image', { ...valid, img: 'javascript:alert(1)' }],
  ['a data: image', { ...valid, img: 'data:image/svg+xml;base64,PHN2Zz4=' }],
  ['an ftp image', { ...valid, img: 'ftp://example.com/a.png' }],
  ['a relative path outside the shop images', { ...valid, img: '../secret.png' }],
  ['an image that is not a link', { ...valid, img: 'not a url' }],
  ['an image link over 2048 characters', { ...valid, img: `https://example.com/${'a'.repeat(2048)}.png` }],
  ['an unknown field', { ...valid, stock: 5 }],
  ['a client-chosen id', { ...valid, _id: '00000000-0000-4000-8000-000000000000' }],
  ['an array body', [valid] as unknown as Record<string, unknown>],
];

const patchBadBodies: [string, Record<string, unknown>][] = [
  ['an empty body', {}],
  ['an empty name', { name: '' }],
  ['a 21-character name', { name: 'x'.repeat(21) }],
  ['a price with 3 decimals', { price: 1.234 }],
  ['a negative price', { price: -1 }],
  ['a fractional quantity', { availablequantity: 0.5 }],
  ['a negative quantity', { availablequantity: -1 }],
  ['a zero minimum order', { minimunorder: 0 }],
  ['a javascript: image', { img: 'javascript:alert(1)' }],
  ['a long description', { desription: 'd'.repeat(1001) }],
  ['a null field', { desription: null }],
  ['an unknown field', { color: 'red' }],
  ['the email field (only set on adding)', { email: 'someone@else.com' }],
];

describeEachDatabase('catalogue writes', (ctx) => {
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    customer = await createUser(ctx());
  });

  async function addPart(body: Record<string, unknown> = valid) {
    const res = await ctx().app.inject({ method: 'POST', url: '/api/part', headers: admin.headers, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return partSchema.parse(res.json());
  }

  /** Runs a request and asserts it was refused with `status` and changed nothing in any table. */
  async function expectRefused(
    request: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: unknown },
    status: number,
  ) {
    const before = await databaseChecksum(ctx().database.db);
    const res = await ctx().app.inject(request as InjectOptions);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    return res.json() as { error: { code: string; message: string; details?: { path: string }[] } };
  }

  describe('POST /api/part', () => {
    it('adds a part as the admin, records the admin from the token and ignores the body email', async () => {
      const part = await addPart({ ...valid, email: 'someone-else@example.com' });
      expect(part).toMatchObject({ ...valid, email: admin.email });
      const [row] = await ctx().database.db.select().from(parts).where(eq(parts.id, part._id));
      expect(row).toMatchObject({ priceCents: 26000, createdByEmail: admin.email, description: 'Floating brake disc' });
      const read = await ctx().app.inject({ method: 'GET', url: `/api/part/${part._id}`, headers: admin.headers });
      // The one-part call also carries the part's fitment (ADR 010); a new part has none.
      expect(read.json()).toEqual({ ...part, fitment: [], photos: [] });
    });

    it('L2: never shows the adding admin’s email on public part records; only admins see who added a part', async () => {
      const part = await addPart(valid);
      for (const headers of [{}, customer.headers]) {
        const one = await ctx().app.inject({ method: 'GET', url: `/api/part/${part._id}`, headers });
        expect(one.json()).toEqual({ ...part, email: null, fitment: [], photos: [] });
        const list = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=100', headers });
        expect(list.body).not.toContain(admin.email);
        expect(list.json().find((p: { _id: string }) => p._id === part._id)).toEqual({ ...part, email: null });
      }
      const asAdmin = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=100', headers: admin.headers });
      expect(asAdmin.json().find((p: { _id: string }) => p._id === part._id).email).toBe(admin.email);
    });

    it('stores prices as exact cents at the boundary', async () => {
      for (const [price, cents] of [
        [0.01, 1],
        [19.99, 1999],
        [0.29, 29],
        [1.1, 110],
        [1_000_000, 100_000_000],
      ] as const) {
        const part = await addPart({ ...valid, price });
        expect(part.price).toBe(price);
        const [row] = await ctx().database.db.select().from(parts).where(eq(parts.id, part._id));
        expect(row?.priceCents).toBe(cents);
      }
    });

    it('accepts the edges: a 20-character name, stock 0, a 1000-character description, an https image', async () => {
      const part = await addPart({
        name: 'x'.repeat(20),
        desription: 'd'.repeat(1000),
        price: 1,
        availablequantity: 0,
        minimunorder: 1,
        img: 'https://cdn.example.com/p.png',
      });
      expect(part).toMatchObject({ availablequantity: 0, minimunorder: 1, img: 'https://cdn.example.com/p.png' });
      expect(part.name).toHaveLength(20);
    });

    it('defaults a missing description to empty and trims text', async () => {
      const { desription: _omitted, ...rest } = valid;
      const part = await addPart({ ...rest, name: '  Trimmed  ' });
      expect(part.desription).toBe('');
      expect(part.name).toBe('Trimmed');
    });

    it('stores script tags as inert text and returns them unchanged', async () => {
      const script = '<script>alert(1)</script>';
      const part = await addPart({ ...valid, name: '<b>x</b><img src=x>', desription: script });
      expect(part.name).toBe('<b>x</b><img src=x>');
      expect(part.desription).toBe(script);
      const read = await ctx().app.inject({ method: 'GET', url: `/api/part/${part._id}` });
      expect(read.headers['content-type']).toContain('application/json');
      expect(read.json().desription).toBe(script);
    });

    it('refuses anonymous callers with 401 and customers with 403, before reading the body', async () => {
      await expectRefused({ method: 'POST', url: '/api/part', payload: valid }, 401);
      await expectRefused({ method: 'POST', url: '/api/part', payload: { nonsense: true } }, 401);
      await expectRefused(
        { method: 'POST', url: '/api/part', headers: { authorization: 'Bearer not-a-real-token' }, payload: valid },
        401,
      );
      const forbidden = await expectRefused(
        { method: 'POST', url: '/api/part', headers: customer.headers, payload: valid },
        403,
      );
      expect(forbidden.error.code).toBe('forbidden');
      await expectRefused({ method: 'POST', url: '/api/part', headers: customer.headers, payload: { x: 1 } }, 403);
    });

    it.each(badBodies)('rejects %s with 400 and writes nothing', async (_label, body) => {
      const error = await expectRefused(
        { method: 'POST', url: '/api/part', headers: admin.headers, payload: body },
        400,
      );
      expect(error.error.code).toBe('invalid_data');
      expect(error.error.details?.length).toBeGreaterThan(0);
    });

    it('names the rule that failed in the message under the field', async () => {
      const error = await expectRefused(
        { method: 'POST', url: '/api/part', headers: admin.headers, payload: { ...valid, name: 'x'.repeat(21) } },
        400,
      );
      expect(error.error.details).toContainEqual({
        path: 'body.name',
        message: 'Product Name Must Be 20 Characters Or Fewer',
      });
      const price = await expectRefused(
        { method: 'POST', url: '/api/part', headers: admin.headers, payload: { ...valid, price: 1.005 } },
        400,
      );
      expect(price.error.message).toContain('Price Can Have At Most 2 Decimals');
    });

    it('rejects malformed JSON and a body too large with 4xx and writes nothing', async () => {
      await expectRefused(
        {
          method: 'POST',
          url: '/api/part',
          headers: { ...admin.headers, 'content-type': 'application/json' },
          payload: '{"name": ',
        },
        400,
      );
      await expectRefused(
        {
          method: 'POST',
          url: '/api/part',
          headers: admin.headers,
          payload: { ...valid, desription: 'x'.repeat(70_000) },
        },
        413,
      );
    });
  });

  it('keeps X-Total-Count exact right after adding and deleting', async () => {
    const totalNow = async () => {
      // limit=1 fills the page, so the total comes from the count, not from the page itself.
      const res = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=1' });
      return Number(res.headers['x-total-count']);
    };
    await addPart();
    const before = await totalNow();
    expect(before).toBeGreaterThanOrEqual(1);
    const part = await addPart();
    expect(await totalNow()).toBe(before + 1);
    await ctx().app.inject({ method: 'DELETE', url: `/api/part/${part._id}`, headers: admin.headers });
    expect(await totalNow()).toBe(before);
  });

  describe('PATCH /api/part/:id', () => {
    it('changes only the fields sent and keeps the others', async () => {
      const part = await addPart();
      const res = await ctx().app.inject({
        method: 'PATCH',
        url: `/api/part/${part._id}`,
        headers: admin.headers,
        payload: { price: 199.99 },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...part, price: 199.99, fitment: [], photos: [] });

      const second = await ctx().app.inject({
        method: 'PATCH',
        url: `/api/part/${part._id}`,
        headers: admin.headers,
        payload: {
          name: 'Sport Brake',
          desription: '',
          availablequantity: 0,
          minimunorder: 5,
          img: 'https://x.dev/a.png',
        },
      });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({
        ...part,
        fitment: [],
        photos: [],
        price: 199.99,
        name: 'Sport Brake',
        desription: '',
        availablequantity: 0,
        minimunorder: 5,
        img: 'https://x.dev/a.png',
      });
      const [row] = await ctx().database.db.select().from(parts).where(eq(parts.id, part._id));
      expect(row?.priceCents).toBe(19999);
      expect(row?.createdByEmail).toBe(admin.email);
      expect(row?.updatedAt.getTime()).toBeGreaterThanOrEqual(row?.createdAt.getTime() ?? 0);
    });

    it('refuses anonymous callers and customers, and writes nothing', async () => {
      const part = await addPart();
      await expectRefused({ method: 'PATCH', url: `/api/part/${part._id}`, payload: { price: 1 } }, 401);
      await expectRefused(
        { method: 'PATCH', url: `/api/part/${part._id}`, headers: customer.headers, payload: { price: 1 } },
        403,
      );
    });

    it.each(patchBadBodies)('rejects %s with 400 and writes nothing', async (_label, body) => {
      const part = await addPart();
      await expectRefused(
        { method: 'PATCH', url: `/api/part/${part._id}`, headers: admin.headers, payload: body },
        400,
      );
    });

    it('answers 404 for an unknown id and 400 invalid_data for a malformed one', async () => {
      await expectRefused(
        {
          method: 'PATCH',
          url: '/api/part/00000000-0000-4000-8000-000000000000',
          headers: admin.headers,
          payload: { price: 1 },
        },
        404,
      );
      const malformed = await expectRefused(
        { method: 'PATCH', url: '/api/part/not-a-uuid', headers: admin.headers, payload: { price: 1 } },
        400,
      );
      expect(malformed.error.code).toBe('invalid_data');
      expect(malformed.error.details?.[0]?.path).toBe('params.id');
    });
  });

  describe('DELETE /api/part/:id', () => {
    it('deletes a part: 204, then 404 on read', async () => {
      const part = await addPart();
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/part/${part._id}`, headers: admin.headers });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const read = await ctx().app.inject({ method: 'GET', url: `/api/part/${part._id}` });
      expect(read.statusCode).toBe(404);
      const again = await ctx().app.inject({ method: 'DELETE', url: `/api/part/${part._id}`, headers: admin.headers });
      expect(again.statusCode).toBe(404);
    });

    it('leaves existing orders with their copy of name and price', async () => {
      const part = await addPart({ ...valid, name: 'Ordered Part', price: 12.5 });
      const [order] = await ctx()
        .database.db.insert(orders)
        .values({
          partId: part._id,
          userId: customer.id,
          partName: 'Ordered Part',
          unitPriceCents: 1250,
          quantity: 3,
          totalCents: 3750,
          email: customer.email,
        })
        .returning();
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/part/${part._id}`, headers: admin.headers });
      expect(res.statusCode).toBe(204);
      const [kept] = await ctx()
        .database.db.select()
        .from(orders)
        .where(eq(orders.id, order?.id ?? ''));
      expect(kept).toMatchObject({ partId: null, partName: 'Ordered Part', unitPriceCents: 1250, totalCents: 3750 });
    });

    it('refuses anonymous callers and customers, and writes nothing', async () => {
      const part = await addPart();
      await expectRefused({ method: 'DELETE', url: `/api/part/${part._id}` }, 401);
      await expectRefused({ method: 'DELETE', url: `/api/part/${part._id}`, headers: customer.headers }, 403);
      const read = await ctx().app.inject({ method: 'GET', url: `/api/part/${part._id}` });
      expect(read.statusCode).toBe(200);
    });

    it('answers 404 for an unknown id and 400 invalid_data for a malformed one', async () => {
      await expectRefused(
        { method: 'DELETE', url: '/api/part/00000000-0000-4000-8000-000000000000', headers: admin.headers },
        404,
      );
      for (const id of ['not-a-uuid', "1'%20OR%20'1'%3D'1"]) {
        const malformed = await expectRefused(
          { method: 'DELETE', url: `/api/part/${id}`, headers: admin.headers },
          400,
        );
        expect(malformed.error.code).toBe('invalid_data');
      }
    });
  });
});
