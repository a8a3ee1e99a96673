import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { partFacetsSchema, type Vehicle } from '../../../shared/schemas/fitment.ts';
import { type PartDetails, partDetailsSchema, partListPageSchema, partSchema } from '../../../shared/schemas/parts.ts';
import { VehicleBuilder } from '../fitment/fitment-test-helpers.ts';

/**
 * Fitment, part numbers, brands and categories through the catalogue's API (ADR 010). A small catalogue of known
 * parts and vehicles, so every list, count and badge can be asserted exactly.
 */
describeEachDatabase('catalogue: fitment, filters, facets and part numbers', (ctx) => {
  let admin: TestUser;
  let build: VehicleBuilder;
  let yz250f2019: Vehicle;
  let yz250f2015: Vehicle;
  let yz450f2019: Vehicle;
  let mt072019: Vehicle;
  let mt072019abs: Vehicle;
  const ids: Record<string, string> = {};

  const base = { img: '/images/parts/brake-disc.svg', minimunorder: 1 };

  /** A Yamaha model's years the part fits: model, first year, last year, and the variant when only one fits. */
  type FitmentRow = [model: string, yearFrom: number, yearTo: number, variant?: string];
  /** The known catalogue: name, price, stock, its numbers, brand and category, and what it fits. */
  const catalogue: [string, number, number, Record<string, unknown>, FitmentRow[]?][] = [
    [
      'Air Filter',
      25,
      50,
      { brand: 'Twin Air', mpn: '152218', category: 'filters' },
      [
        ['YZ250F', 2019, 2023],
        ['YZ450F', 2018, 2022],
      ],
    ],
    [
      'Drive Chain',
      89,
      10,
      { brand: 'KMC', mpn: 'KMC-520', oemNumbers: ['94568-20120', 'DID 520.VX3'], category: 'chains' },
      [
        ['YZ250F', 2014, 2025],
        ['MT-07', 2014, 2025],
      ],
    ],
    ['Brake Pads', 42, 0, { brand: 'EBC', mpn: 'FA185HH', category: 'brake-pads' }, [['YZ250F', 2014, 2018]]],
    [
      'ABS Brake Disc',
      260,
      5,
      { brand: 'Galfer', mpn: 'DF-320', category: 'brake-discs' },
      [['MT-07', 2014, 2025, 'ABS']],
    ],
    ['Helmet', 325, 3, { brand: 'Shoei', category: 'helmets', universal: true }],
    ['Gloves', 54, 0, { brand: 'alpinestars ', category: 'gloves', universal: true }],
    ['Sticker', 3, 100, {}],
  ];

  async function inject(options: InjectOptions) {
    return ctx().app.inject(options);
  }
  async function addPart(body: Record<string, unknown>) {
    const res = await inject({
      method: 'POST',
      url: '/api/part',
      headers: admin.headers,
      payload: { ...base, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return partDetailsSchema.parse(res.json());
  }
  async function list(query: string) {
    const res = await inject({ method: 'GET', url: `/api/part${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const items = z.array(partSchema).parse(res.json());
    return { items, names: items.map((p) => p.name).sort(), total: Number(res.headers['x-total-count']) };
  }
  async function facets(query: string) {
    const res = await inject({ method: 'GET', url: `/api/part/facets${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return partFacetsSchema.parse(res.json());
  }
  async function details(id: string, query = ''): Promise<PartDetails> {
    const res = await inject({ method: 'GET', url: `/api/part/${id}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return partDetailsSchema.parse(res.json());
  }

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    build = new VehicleBuilder(ctx().app, admin.headers);
    const yz250f = await build.years('Yamaha', 'YZ250F', 2014, 2025);
    yz250f2019 = yz250f.find((v) => v.year === 2019) as Vehicle;
    yz250f2015 = yz250f.find((v) => v.year === 2015) as Vehicle;
    yz450f2019 = await build.vehicle('Yamaha', 'YZ450F', 2019);
    mt072019 = await build.vehicle('Yamaha', 'MT-07', 2019);
    mt072019abs = await build.vehicle('Yamaha', 'MT-07', 2019, { variant: 'ABS' });
    for (const [name, price, availablequantity, extra, fitment = []] of catalogue) {
      const rows = [];
      for (const [model, yearFrom, yearTo, variant] of fitment) {
        rows.push({ modelId: await build.model('Yamaha', model), yearFrom, yearTo, ...(variant ? { variant } : {}) });
      }
      const part = { name, price, availablequantity, ...extra, ...(rows.length > 0 ? { fitment: rows } : {}) };
      ids[name] = (await addPart(part))._id;
    }
  });

  it('keeps the spec call as it was: no `fit` without a vehicle, every part, oldest first', async () => {
    const { items, total } = await list('');
    expect(total).toBe(7);
    expect(items.map((p) => p.name)).toEqual([
      'Air Filter',
      'Drive Chain',
      'Brake Pads',
      'ABS Brake Disc',
      'Helmet',
      'Gloves',
      'Sticker',
    ]);
    expect(items.every((p) => !('fit' in p))).toBe(true);
    expect(items[0]).toMatchObject({
      brand: { slug: 'twin-air', name: 'Twin Air' },
      mpn: '152218',
      oemNumbers: [],
      category: { slug: 'filters', name: 'Filters', path: ['Engine', 'Filters'] },
      universal: false,
    });
  });

  it('says per part whether it fits, is universal, or does not fit the vehicle', async () => {
    const { items, total } = await list(`?vehicle=${yz250f2019.id}`);
    expect(total).toBe(7);
    expect(Object.fromEntries(items.map((p) => [p.name, p.fit]))).toEqual({
      'Air Filter': 'fits',
      'Drive Chain': 'fits',
      'Brake Pads': 'doesNotFit',
      'ABS Brake Disc': 'doesNotFit',
      Helmet: 'universal',
      Gloves: 'universal',
      Sticker: 'doesNotFit',
    });
    expect('fit' in (await details(ids['Drive Chain'] ?? ''))).toBe(false);
  });

  it.each([
    ['Brake Pads', '2015 YZ250F', 'fits'],
    ['Air Filter', '2015 YZ250F', 'doesNotFit'],
    // A variant row fits only that variant; a row without variant fits them all.
    ['ABS Brake Disc', '2019 MT-07 ABS', 'fits'],
    ['ABS Brake Disc', '2019 MT-07', 'doesNotFit'],
    ['Drive Chain', '2019 MT-07 ABS', 'fits'],
  ] as const)('the page of %s says whether it fits the %s: %s', async (part, vehicle, fit) => {
    const chosen = { '2015 YZ250F': yz250f2015, '2019 MT-07': mt072019, '2019 MT-07 ABS': mt072019abs }[vehicle];
    expect((await details(ids[part] ?? '', `?vehicle=${chosen.id}`)).fit).toBe(fit);
  });

  it('lists only what fits (universal included) with fits=true, and counts exactly that', async () => {
    const fitting = await list(`?vehicle=${yz250f2019.id}&fits=true`);
    expect(fitting.names).toEqual(['Air Filter', 'Drive Chain', 'Gloves', 'Helmet']);
    expect(fitting.total).toBe(4);
    expect((await list(`?vehicle=${yz450f2019.id}&fits=true`)).names).toEqual(['Air Filter', 'Gloves', 'Helmet']);
    const paged = await list(`?vehicle=${yz250f2019.id}&fits=true&limit=1&offset=1&sort=price_asc`);
    expect([paged.items.map((p) => p.name), paged.total]).toEqual([['Gloves'], 4]);
  });

  it('answers each vehicle its own page and counts when one statement shape serves them all (named statements)', async () => {
    // The facet statement and the page's rows are built once per shape with placeholders: the second vehicle, the
    // next cursor and a marked vehicle must each get their own values, not the first request's.
    const pageOf = async (query: string) => {
      const res = await inject({ method: 'GET', url: `/api/part/page${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = partListPageSchema.parse(res.json());
      return { names: page.items.map((p) => p.name), total: page.total, fits: page.facets.fits };
    };
    for (let round = 0; round < 2; round++) {
      expect(await pageOf(`?vehicle=${yz250f2019.id}&fits=true&sort=name`)).toEqual({
        names: ['Air Filter', 'Drive Chain', 'Gloves', 'Helmet'],
        total: 4,
        fits: 4,
      });
      expect(await pageOf(`?vehicle=${yz450f2019.id}&fits=true&sort=name`)).toEqual({
        names: ['Air Filter', 'Gloves', 'Helmet'],
        total: 3,
        fits: 3,
      });
    }
    const first = await pageOf(`?vehicle=${yz250f2019.id}&fits=true&sort=name&limit=2`);
    const second = await pageOf(`?vehicle=${yz250f2019.id}&fits=true&sort=name&limit=2&offset=2`);
    expect([first.names, second.names]).toEqual([
      ['Air Filter', 'Drive Chain'],
      ['Gloves', 'Helmet'],
    ]);
  });

  it('shows the full fitment of a part grouped by make and model, with year ranges', async () => {
    const chain = await details(ids['Drive Chain'] ?? '');
    expect(chain.fitment.map((g) => [`${g.make} ${g.model}`, g.ranges])).toEqual([
      ['Yamaha MT-07', [{ yearFrom: 2014, yearTo: 2025, variant: null }]],
      ['Yamaha YZ250F', [{ yearFrom: 2014, yearTo: 2025, variant: null }]],
    ]);
    expect((await details(ids.Helmet ?? '')).fitment).toEqual([]);
  });

  it.each([['kmc 520'], ['KMC-520'], ['kmc520'], ['K.M.C.520'], [' Kmc_520 '], ['94568 20120'], ['did520vx3']])(
    'finds the part by its number spelled %j',
    async (q) => {
      const found = await list(`?q=${encodeURIComponent(q)}`);
      expect(found.names).toEqual(['Drive Chain']);
      expect(found.total).toBe(1);
    },
  );

  it('still searches names and descriptions, and a number that names nothing finds nothing', async () => {
    expect((await list('?q=filter')).names).toEqual(['Air Filter']);
    expect((await list('?q=KMC-521')).total).toBe(0);
    expect((await list('?q=---')).total).toBe(0);
  });

  it.each([
    ['?category=brakes', ['ABS Brake Disc', 'Brake Pads']],
    ['?category=brake-pads', ['Brake Pads']],
    ['?category=gear', ['Gloves', 'Helmet']],
    ['?category=no-such-category', []],
    ['?brand=alpinestars', ['Gloves']],
    ['?brand=kmc', ['Drive Chain']],
    ['?minPrice=40&maxPrice=100', ['Brake Pads', 'Drive Chain', 'Gloves']],
    ['?minPrice=325', ['Helmet']],
    ['?inStock=true', ['ABS Brake Disc', 'Air Filter', 'Drive Chain', 'Helmet', 'Sticker']],
    ['?fitment=none', ['Sticker']],
    ['?category=gear&inStock=true', ['Helmet']],
    ['?category=brakes&brand=ebc&inStock=true', []],
  ])('filters %s with X-Total-Count equal to what matches, and the facets agree', async (query, expected) => {
    const found = await list(query);
    expect(found.names).toEqual([...expected].sort());
    expect(found.total).toBe(expected.length);
    expect((await facets(query)).total).toBe(expected.length);
  });

  it('counts each facet under every other filter', async () => {
    const all = await facets('');
    expect(all.total).toBe(7);
    const count = (list: { slug: string; count: number }[], slug: string) => list.find((c) => c.slug === slug)?.count;
    expect(count(all.categories, 'brakes')).toBe(2);
    expect(count(all.categories, 'brake-pads')).toBe(1);
    expect(count(all.categories, 'gear')).toBe(2);
    expect(count(all.categories, 'tyres')).toBe(0);
    expect(all.categories.find((c) => c.slug === 'brake-pads')?.parentSlug).toBe('brakes');
    expect(all.brands.map((b) => [b.name, b.count])).toEqual([
      ['alpinestars', 1],
      ['EBC', 1],
      ['Galfer', 1],
      ['KMC', 1],
      ['Shoei', 1],
      ['Twin Air', 1],
    ]);
    expect(all.price).toEqual({ min: 3, max: 325 });
    expect(all.inStock).toBe(5);
    expect(all.fits).toBeNull();

    // Choosing a category leaves the category counts as they were, narrows the others.
    const brakes = await facets('?category=brakes');
    expect(brakes.total).toBe(2);
    expect(count(brakes.categories, 'gear')).toBe(2);
    expect(brakes.brands.map((b) => b.slug)).toEqual(['ebc', 'galfer']);
    expect(brakes.price).toEqual({ min: 42, max: 260 });
    expect(brakes.inStock).toBe(1);

    // With a vehicle (show all): how many would fit, under the other filters.
    const forBike = await facets(`?vehicle=${yz250f2019.id}&inStock=true`);
    expect([forBike.total, forBike.fits]).toEqual([5, 3]);
    const fitting = await facets(`?vehicle=${yz250f2019.id}&fits=true`);
    expect(fitting.total).toBe(4);
    expect(fitting.fits).toBe(4);
    expect(count(fitting.categories, 'gear')).toBe(2);
    expect(count(fitting.categories, 'brakes')).toBe(0);
    expect(fitting.price).toEqual({ min: 25, max: 325 });
  });

  it.each([
    ['fits a vehicle', () => `?vehicle=${yz250f2019.id}&fits=true&limit=2`],
    ['fits, a second page by price', () => `?vehicle=${yz250f2019.id}&fits=true&limit=2&offset=2&sort=price_desc`],
    ['fits, newest first, in stock', () => `?vehicle=${yz250f2019.id}&fits=true&sort=newest&inStock=true`],
    ['fits, by name, a brand', () => `?vehicle=${yz250f2019.id}&fits=true&sort=name&brand=kmc`],
    ['fits, past the end', () => `?vehicle=${yz250f2019.id}&fits=true&limit=2&offset=10`],
    ['a search with a vehicle marked', () => `?q=brake&vehicle=${mt072019abs.id}`],
    ['a search by price range', () => '?q=brake&minPrice=50&limit=1'],
    ['no fitment yet', () => '?fitment=none'],
    ['the whole catalogue, a category', () => '?category=brakes&limit=1'],
    ['the whole catalogue, a vehicle marked', () => `?vehicle=${mt072019.id}&limit=3&offset=1`],
    ['the spec call', () => ''],
  ])('answers a page with its counts in one call as the list and the facets do: %s', async (_case, query) => {
    const res = await inject({ method: 'GET', url: `/api/part/page${query()}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = partListPageSchema.parse(res.json());
    const listed = await list(query());
    expect(page.items).toEqual(listed.items);
    expect([page.total, Number(res.headers['x-total-count'])]).toEqual([listed.total, listed.total]);
    const filters = new URLSearchParams(query());
    for (const paging of ['limit', 'offset', 'sort']) filters.delete(paging);
    const rest = filters.toString();
    expect(page.facets).toEqual(await facets(rest ? `?${rest}` : ''));
  });

  it('answers the category tree and the brands', async () => {
    const tree = (await inject({ method: 'GET', url: '/api/category' })).json();
    expect(tree.map((c: { slug: string }) => c.slug)).toEqual([
      'brakes',
      'drivetrain',
      'engine',
      'controls',
      'electrical',
      'wheels-tyres',
      'body',
      'gear',
      'tools',
    ]);
    expect(tree[0]).toEqual({
      slug: 'brakes',
      name: 'Brakes',
      children: [
        { slug: 'brake-pads', name: 'Pads' },
        { slug: 'brake-discs', name: 'Discs' },
      ],
    });
    const brands = (await inject({ method: 'GET', url: '/api/brand' })).json();
    expect(brands).toContainEqual({ slug: 'twin-air', name: 'Twin Air' });
  });

  describe('refusals', () => {
    async function expectRefused(options: InjectOptions, status: number, message?: string) {
      const before = await databaseChecksum(ctx().database.db);
      const res = await inject(options);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(JSON.stringify(res.json())).toContain(message);
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    }

    it('refuses a fit filter without a vehicle, prices the wrong way round, an unknown or malformed vehicle', async () => {
      for (const path of ['/api/part', '/api/part/facets', '/api/part/page']) {
        await expectRefused(
          { method: 'GET', url: `${path}?fits=true` },
          400,
          'Choose A Vehicle To Show Parts That Fit',
        );
        await expectRefused({ method: 'GET', url: `${path}?minPrice=10&maxPrice=5` }, 400, 'Lowest Price');
        await expectRefused({ method: 'GET', url: `${path}?vehicle=${crypto.randomUUID()}` }, 404, 'This vehicle');
        await expectRefused({ method: 'GET', url: `${path}?vehicle=nope` }, 400);
        await expectRefused({ method: 'GET', url: `${path}?category=Not%20A%20Slug` }, 400);
      }
      await expectRefused({ method: 'GET', url: `/api/part/${ids.Helmet}?vehicle=${crypto.randomUUID()}` }, 404);
    });

    it('refuses fitment for a model that does not exist, an unknown category, and backwards years, saving nothing', async () => {
      const yz = await build.model('Yamaha', 'YZ250F');
      const part = { ...base, name: 'Refused', price: 1, availablequantity: 1 };
      for (const modelId of [crypto.randomUUID(), 'not-a-model']) {
        const fitment = [{ modelId, yearFrom: 2019, yearTo: 2019 }];
        await expectRefused(
          { method: 'POST', url: '/api/part', headers: admin.headers, payload: { ...part, fitment } },
          404,
          'This vehicle model does not exist.',
        );
        await expectRefused(
          { method: 'PATCH', url: `/api/part/${ids.Sticker}`, headers: admin.headers, payload: { price: 9, fitment } },
          404,
        );
      }
      await expectRefused(
        { method: 'POST', url: '/api/part', headers: admin.headers, payload: { ...part, category: 'nope' } },
        404,
        'This category does not exist.',
      );
      await expectRefused(
        {
          method: 'POST',
          url: '/api/part',
          headers: admin.headers,
          payload: { ...part, fitment: [{ modelId: yz, yearFrom: 2020, yearTo: 2019 }] },
        },
        400,
        'Year From Must Not Be After Year To',
      );
    });
  });

  it('lets an admin add fitment for a new vehicle, and the customer then sees the part fit', async () => {
    const customer = await createUser(ctx());
    const kx = await build.vehicle('Kawasaki', 'KX250', 2021);
    await inject({ method: 'POST', url: '/api/garage', headers: customer.headers, payload: { vehicleId: kx.id } });
    const before = await list(`?vehicle=${kx.id}&fits=true`);
    expect(before.names).toEqual(['Gloves', 'Helmet']);

    const current = await details(ids['Drive Chain'] ?? '');
    const rows = current.fitment.flatMap((g) => g.ranges.map((r) => ({ modelId: g.modelId, ...r })));
    const patched = await inject({
      method: 'PATCH',
      url: `/api/part/${ids['Drive Chain']}`,
      headers: admin.headers,
      payload: { fitment: [...rows, { modelId: kx.modelId, yearFrom: 2021, yearTo: 2024 }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(partDetailsSchema.parse(patched.json()).fitment.map((g) => `${g.make} ${g.model}`)).toEqual([
      'Kawasaki KX250',
      'Yamaha MT-07',
      'Yamaha YZ250F',
    ]);
    const after = await list(`?vehicle=${kx.id}&fits=true`);
    expect(after.names).toEqual(['Drive Chain', 'Gloves', 'Helmet']);
    expect((await details(ids['Drive Chain'] ?? '', `?vehicle=${kx.id}`)).fit).toBe('fits');
  });

  it('edits brand, numbers, category and universal, and search follows the new numbers', async () => {
    const part = await addPart({ name: 'Spark Plug', price: 14.5, availablequantity: 30, mpn: 'CR8EIX' });
    expect((await list('?q=cr8-eix')).names).toEqual(['Spark Plug']);
    const res = await inject({
      method: 'PATCH',
      url: `/api/part/${part._id}`,
      headers: admin.headers,
      payload: {
        mpn: null,
        oemNumbers: ['94702-00361', '94702 00361'],
        brand: 'NGK',
        category: 'ignition',
        universal: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      mpn: null,
      oemNumbers: ['94702-00361'],
      brand: { slug: 'ngk', name: 'NGK' },
      category: { slug: 'ignition', path: ['Engine', 'Ignition'] },
      universal: true,
    });
    expect((await list('?q=cr8eix')).total).toBe(0);
    expect((await list('?q=9470200361')).names).toEqual(['Spark Plug']);
    const cleared = await inject({
      method: 'PATCH',
      url: `/api/part/${part._id}`,
      headers: admin.headers,
      payload: { brand: null, category: null, universal: false },
    });
    expect(cleared.json()).toMatchObject({ brand: null, category: null, universal: false });
    await inject({ method: 'DELETE', url: `/api/part/${part._id}`, headers: admin.headers });
  });
});
