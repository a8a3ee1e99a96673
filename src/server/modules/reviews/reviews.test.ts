import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { REVIEW_FALLBACK_IMAGE } from '../../../shared/schemas/review-image.ts';
import { REVIEW_PAGE_SIZE, reviewMessages, reviewSchema } from '../../../shared/schemas/reviews.ts';
import { reviews } from '../../db/schema.ts';
import { DEFAULT_REVIEW_LIMITS } from './review-limits.ts';

const valid = {
  name: 'Maya Okafor',
  number: 4,
  img: '/images/avatars/avatar-1.svg',
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
  // A picture on another site would tell that site the address of every visitor of the home page.
  ['an https image on another site', { ...valid, img: 'https://example.com/maya.png' }],
  ['an http image on another site', { ...valid, img: 'http://203.0.113.9/pixel.gif' }],
  ['a protocol-relative image', { ...valid, img: '//example.com/maya.png' }],
  ['a backslash image path', { ...valid, img: '/\\example.com/maya.png' }],
  ['a shop path that is not a picture', { ...valid, img: '/api/review' }],
  ['a missing review', { ...valid, review: undefined }],
  ['an empty review', { ...valid, review: '' }],
  ['a review over 500 characters', { ...valid, review: 'r'.repeat(501) }],
  ['a review as a number', { ...valid, review: 5 }],
  ['an unknown field', { ...valid, userId: '00000000-0000-4000-8000-000000000000' }],
  ['a body that is not an object', [valid]],
];

describeEachDatabase('reviews API', (ctx) => {
  let customer: TestUser;

  let addressCounter = 0;
  /** Each limit test posts from an address of its own, so the tests' counts do not add up. */
  const nextAddress = () => `203.0.113.${++addressCounter}`;
  const verifiedUser = (): Promise<TestUser> => createUser(ctx(), { verified: true });
  const post = (user: TestUser, remoteAddress?: string, payload: object = valid) =>
    ctx().app.inject({
      method: 'POST',
      url: '/api/review',
      headers: user.headers,
      payload,
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  beforeAll(async () => {
    customer = await verifiedUser();
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

  it('refuses an account whose email is not verified with 403, and writes nothing', async () => {
    const unverified = await createUser(ctx());
    const before = await databaseChecksum(ctx().database.db);
    const res = await post(unverified, nextAddress());
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error).toEqual({ code: 'email_not_verified', message: reviewMessages.verifyEmailFirst });
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('refuses an account past its reviews in the window with 429 and Retry-After, and writes nothing', async () => {
    const author = await verifiedUser();
    const address = nextAddress();
    for (let i = 0; i < DEFAULT_REVIEW_LIMITS.perAccount; i++) {
      expect((await post(author, address)).statusCode).toBe(201);
    }
    const before = await databaseChecksum(ctx().database.db);
    // From another address too: the limit is the account's.
    for (const from of [address, nextAddress()]) {
      const res = await post(author, from);
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().error.code).toBe('rate_limited');
      expect(res.json().error.message).toMatch(
        /^You have posted many reviews lately\. Please try again in \d+ hours\.$/,
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    }
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    // Bad input is told what is wrong, not that the limit is reached.
    expect((await post(author, address, { ...valid, number: 9 })).statusCode).toBe(400);
  });

  it('refuses an address past its reviews in the window with 429, whatever the account', async () => {
    const address = nextAddress();
    let posted = 0;
    while (posted < DEFAULT_REVIEW_LIMITS.perAddress) {
      const author = await verifiedUser();
      for (let i = 0; i < DEFAULT_REVIEW_LIMITS.perAccount && posted < DEFAULT_REVIEW_LIMITS.perAddress; i++) {
        expect((await post(author, address)).statusCode).toBe(201);
        posted += 1;
      }
    }
    const fresh = await verifiedUser();
    const res = await post(fresh, address);
    expect(res.statusCode, res.body).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await post(fresh, nextAddress())).statusCode).toBe(201);
  });

  it('answers a picture on another site, stored before such links were refused, as the neutral avatar', async () => {
    await ctx()
      .database.db.insert(reviews)
      .values({
        name: 'Tracker',
        rating: 5,
        img: 'https://tracker.example/pixel.gif',
        review: 'hello',
        createdAt: new Date(Date.now() + 3_600_000),
      });
    const [first] = (await ctx().app.inject({ method: 'GET', url: '/api/review?limit=1' })).json();
    expect(first).toMatchObject({ name: 'Tracker', img: REVIEW_FALLBACK_IMAGE });
  });

  it(`answers at most ${REVIEW_PAGE_SIZE} reviews unless a limit asks for more (still a plain array)`, async () => {
    const all = (await ctx().app.inject({ method: 'GET', url: '/api/review?limit=100' })).json();
    expect(all.length).toBeGreaterThan(REVIEW_PAGE_SIZE);
    const res = await ctx().app.inject({ method: 'GET', url: '/api/review' });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(Array.isArray(page)).toBe(true);
    expect(page).toHaveLength(REVIEW_PAGE_SIZE);
    expect(page).toEqual(all.slice(0, REVIEW_PAGE_SIZE));
  });
});
