import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../../test/support/test-app.ts';
import { vehicleMakeSchema, vehicleSchema } from '../../shared/schemas/fitment.ts';
import { partSchema } from '../../shared/schemas/parts.ts';
import { seedDemoData } from './seed.ts';

const fastHash = { NODE_ENV: 'test', TEST_ONLY_FAST_PASSWORD_HASH: 'true' } as const;
const silent = { info: () => {}, warn: () => {} };

describeEachDatabase('the demo vehicles and fitment', (ctx) => {
  beforeAll(async () => {
    await seedDemoData(
      ctx().database.db,
      { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: 'demo-admin-pass', ...fastHash },
      silent,
    );
  });
  const get = async (url: string) => {
    const res = await ctx().app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('has at least 40 vehicles of at least 8 makes, model years 2005 to 2025, cars among them', async () => {
    const all = await get('/api/vehicle?limit=500');
    expect(Number(all.headers['x-total-count'])).toBeGreaterThanOrEqual(40);
    const makes = z
      .array(vehicleMakeSchema)
      .parse((await get('/api/vehicle/makes')).json())
      .map((m) => m.name);
    expect(makes).toEqual(
      expect.arrayContaining(['Honda', 'Yamaha', 'Kawasaki', 'Suzuki', 'KTM', 'Ducati', 'BMW', 'Harley-Davidson']),
    );
    expect((await get('/api/vehicle/types')).json()).toEqual(
      expect.arrayContaining(['motorcycle', 'car', 'atv', 'scooter']),
    );
    const years = (await get('/api/vehicle/years')).json() as number[];
    expect([Math.min(...years), Math.max(...years)]).toEqual([2005, 2025]);
  });

  it('fits the 2019 Yamaha YZ250F with some demo parts, universal gear, and not the rest', async () => {
    const yamaha = (await get('/api/vehicle/makes?type=motorcycle&year=2019'))
      .json()
      .find((m: { name: string }) => m.name === 'Yamaha');
    const models = (await get(`/api/vehicle/models?makeId=${yamaha.id}&year=2019`)).json();
    const yz = models.find((m: { name: string }) => m.name === 'YZ250F');
    const [vehicle] = z.array(vehicleSchema).parse((await get(`/api/vehicle?modelId=${yz.id}&year=2019`)).json());
    expect(vehicle?.label).toBe('2019 Yamaha YZ250F');
    const parts = z.array(partSchema).parse((await get(`/api/part?vehicle=${vehicle?.id}`)).json());
    const by = (fit: string) =>
      parts
        .filter((p) => p.fit === fit)
        .map((p) => p.name)
        .sort();
    expect(by('fits')).toEqual(['Clutch Lever', 'Iridium Spark Plug', 'O-Ring Drive Chain', 'Sintered Brake Pads']);
    expect(by('universal')).toEqual([
      'Chest Protector',
      'Full-Face Helmet',
      'Pressure Meter',
      'Riding Boots',
      'Riding Gloves',
    ]);
    expect(by('doesNotFit')).toEqual([
      'Bar-End Mirror',
      'Drilled Brake Disc',
      'Exhaust Silencer',
      'LED Headlight',
      'Off-Road Tyre',
      'Oil Filter',
      'Sport Seat',
    ]);
    expect(parts.every((p) => p.brand !== null && p.category !== null && p.mpn !== null)).toBe(true);
    const chain = (await get('/api/part?q=kmc%20520')).json();
    expect(chain.map((p: { name: string }) => p.name)).toEqual(['O-Ring Drive Chain']);
  });
});
