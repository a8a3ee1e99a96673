import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { reviewSchema } from '../../../shared/schemas/reviews.ts';
import { reviews } from '../../db/schema.ts';

const valid = {
  name: 'Maya Okafor',
  number: 4,
  img: 'https://example.com/maya.png',
  review: 'Fast delivery and the pads fit perfectly.',
};

const badBodies: [string, unknown][] = [
  ['a missing name', { ...valid, name: undefined }],
  ['an empty name', { ...valid, name: '' }],
  ['a blank name', { ...valid, name: '  ' }],
  ['a name over 60 characters', { ...valid, name: 'n'.repeat(61) }],
  ['a missing rating', { ...valid, number: undefined }],
  ['a rating of 0', { ...valid, number: 0 }],
  ['a rating of 6', { ...valid, number: 6 }],
  ['a negative rating', { ...valid, number: -1 }],
  ['a fractional rating', { ...valid, number: 4.5 }],
  ['a rating as text', { ...valid, number: '5' }],
  ['a missing image', { ...valid, img: undefined }],
  ['a javascript: image', { ...valid, img: 'javascript:alert(1)' }],
  ['an image that is not a link', { ...valid, img: 'photo' }],
  ['a data: image', { ...valid, img: 'data:image/png;base64,AAAA' }],
  ['a missing review', { ...valid, review: undefined }],
  ['an empty review', { ...valid, review: '' }],
  ['a review over 500 characters', { ...valid, review: 'r'.repeat(501) }],
  ['a review as a number', { ...valid, review: 5 }],
  ['an unknown field', { ...valid, userId: '00000000-0000-4000-8000-000000000000' }],
  ['a body that is not an object', [valid]],
];

describeEachDatabase('reviews API', (ctx) => {
  let customer: TestUser;

  beforeAll(async () => {
    customer = await createUser(ctx());
  });

  async function expectRefused(payload: unknown, headers: Record<string, string> | undefined, status: number) {
    const before = await databaseChecksum(ctx().database.db);
    const res = await ctx().app.inject({ method: 'POST', url: '/api/review', headers, payload: payload as object });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  }

  it('starts empty', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/review' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('adds a review as a signed-in user, stored with its author', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/review',
      headers: customer.headers,
      payload: valid,
    });
    expect(res.statusCode, res.body).toBe(201);
    const review = reviewSchema.parse(res.json());
    expect(review).toMatchObject(valid);
    const [row] = await ctx().database.db.select().from(reviews).where(eq(reviews.id, review._id));
    expect(row).toMatchObject({ userId: customer.id, rating: 4, name: valid.name });
  });

  it('accepts an image the shop serves itself and stores script tags as text', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/review',
      headers: customer.headers,
      payload: { ...valid, img: '/images/avatars/avatar-2.svg', review: '<script>alert(1)</script>', number: 5 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ img: '/images/avatars/avatar-2.svg', review: '<script>alert(1)</script>' });
  });

  it('lists reviews newest first, with an optional limit', async () => {
    const now = Date.now();
    await ctx()
      .database.db.insert(reviews)
      .values([
        {
          name: 'Old',
          rating: 3,
          img: '/images/avatars/avatar-1.svg',
          review: 'old',
          createdAt: new Date(now - 3_600_000),
        },
        {
          name: 'Future',
          rating: 5,
          img: '/images/avatars/avatar-3.svg',
          review: 'new',
          createdAt: new Date(now + 60_000),
        },
      ]);
    const res = await ctx().app.inject({ method: 'GET', url: '/api/review' });
    expect(res.statusCode).toBe(200);
    const list = z.array(reviewSchema).parse(res.json());
    expect(list.map((r) => r.name)).toEqual(['Future', valid.name, valid.name, 'Old']);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['_id', 'createdAt', 'img', 'name', 'number', 'review']);
    expect(list[0]?.number).toBe(5);
    const limited = await ctx().app.inject({ method: 'GET', url: '/api/review?limit=2' });
    expect(limited.json().map((r: { name: string }) => r.name)).toEqual(['Future', valid.name]);
  });

  it.each(['limit=0', 'limit=101', 'limit=x', 'limit=1.5', 'sort=newest'])('rejects the bad query %s', async (q) => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/review?${q}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_data');
  });

  it('refuses anonymous callers and stale tokens with 401, whatever the body', async () => {
    await expectRefused(valid, undefined, 401);
    await expectRefused({ junk: true }, undefined, 401);
    await expectRefused(valid, { authorization: 'Bearer expired-or-made-up' }, 401);
  });

  it.each(badBodies)('rejects %s with 400 and writes nothing', async (_label, body) => {
    await expectRefused(body, customer.headers, 400);
  });
});
