import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { vehicleMakeSchema, vehicleModelSchema, vehicleSchema } from '../../../shared/schemas/fitment.ts';
import { VehicleBuilder } from './fitment-test-helpers.ts';

describeEachDatabase('vehicles: the selector and the admin API', (ctx) => {
  let admin: TestUser;
  let customer: TestUser;
  let build: VehicleBuilder;

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    customer = await createUser(ctx());
    build = new VehicleBuilder(ctx().app, admin.headers);
    await build.years('Yamaha', 'YZ250F', 2014, 2025);
    await build.years('Yamaha', 'YZ450F', 2018, 2020);
    await build.years('Yamaha', 'MT-07', 2019, 2019);
    await build.years('Yamaha', 'MT-07', 2019, 2019, { variant: 'ABS' });
    await build.years('Honda', 'CRF250R', 2010, 2012);
    await build.years('Toyota', 'Corolla', 2019, 2019, { type: 'car' });
    await build.make('Empty Make');
    await build.model('Honda', 'Model Without Years');
  });

  const get = async (url: string) => {
    const res = await ctx().app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const names = (items: { name: string }[]) => items.map((i) => i.name);

  it('offers only types, years, makes, models and variants that exist, one step narrowing the next', async () => {
    expect((await get('/api/vehicle/types')).json()).toEqual(['car', 'motorcycle']);

    const years = (await get('/api/vehicle/years?type=motorcycle')).json();
    // 2013 has no vehicle (CRF250R ends in 2012, YZ250F starts in 2014): it is not offered.
    expect(years).toEqual(Array.from({ length: 2025 - 2010 + 1 }, (_, i) => 2025 - i).filter((y) => y !== 2013));
    expect((await get('/api/vehicle/years?type=car')).json()).toEqual([2019]);

    const makes2019 = z
      .array(vehicleMakeSchema)
      .parse((await get('/api/vehicle/makes?type=motorcycle&year=2019')).json());
    expect(names(makes2019)).toEqual(['Yamaha']);
    const makes2011 = (await get('/api/vehicle/makes?type=motorcycle&year=2011')).json();
    expect(names(makes2011)).toEqual(['Honda']);
    expect(names((await get('/api/vehicle/makes?type=car&year=2019')).json())).toEqual(['Toyota']);

    const yamaha = makes2019[0]?.id ?? '';
    const models = z
      .array(vehicleModelSchema)
      .parse((await get(`/api/vehicle/models?type=motorcycle&year=2019&makeId=${yamaha}`)).json());
    expect(names(models)).toEqual(['MT-07', 'YZ250F', 'YZ450F']);
    expect(names((await get(`/api/vehicle/models?year=2021&makeId=${yamaha}`)).json())).toEqual(['YZ250F']);

    const mt07 = models.find((m) => m.name === 'MT-07')?.id ?? '';
    const variants = await get(`/api/vehicle?modelId=${mt07}&year=2019`);
    const vehicles = z.array(vehicleSchema).parse(variants.json());
    expect(vehicles.map((v) => [v.label, v.variant])).toEqual([
      ['2019 Yamaha MT-07', null],
      ['2019 Yamaha MT-07 ABS', 'ABS'],
    ]);
    expect(variants.headers['x-total-count']).toBe('2');
  });

  it('lists everything for the admin pickers when not narrowed, empty makes and models included', async () => {
    const makes = (await get('/api/vehicle/makes')).json();
    expect(names(makes)).toEqual(['Empty Make', 'Honda', 'Toyota', 'Yamaha']);
    const honda = makes.find((m: { name: string }) => m.name === 'Honda').id;
    expect(names((await get(`/api/vehicle/models?makeId=${honda}`)).json())).toEqual([
      'CRF250R',
      'Model Without Years',
    ]);
    const yz = await build.model('Yamaha', 'YZ450F');
    expect((await get(`/api/vehicle/years?modelId=${yz}`)).json()).toEqual([2020, 2019, 2018]);
  });

  it('answers one vehicle by id, 404 for an unknown one, 400 for a malformed one', async () => {
    const vehicle = await build.vehicle('Yamaha', 'YZ250F', 2019);
    expect(vehicle.label).toBe('2019 Yamaha YZ250F');
    const res = await get(`/api/vehicle/${vehicle.id}`);
    expect(res.json()).toEqual(vehicle);
    const unknown = await ctx().app.inject({ method: 'GET', url: `/api/vehicle/${crypto.randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This vehicle does not exist.');
    expect((await ctx().app.inject({ method: 'GET', url: '/api/vehicle/nope' })).statusCode).toBe(400);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/vehicle?makeId=nope' })).statusCode).toBe(400);
  });

  it('adds model years idempotently and pages the vehicle list with its total', async () => {
    const again = await build.years('Yamaha', 'YZ250F', 2024, 2026);
    expect(again.map((v) => v.year)).toEqual([2026, 2025, 2024]);
    const yz = await build.model('Yamaha', 'YZ250F');
    const page = await get(`/api/vehicle?modelId=${yz}&limit=5&offset=0`);
    expect(page.json().map((v: { year: number }) => v.year)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(page.headers['x-total-count']).toBe(String(2026 - 2014 + 1));
  });

  it('refuses duplicates with 409, unknown parents with 404 and bad years with 400', async () => {
    const inject = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      ctx().app.inject({ method, url, headers: admin.headers, payload: payload as object });
    expect((await inject('POST', '/api/vehicle/make', { name: ' yamaha ' })).statusCode).toBe(409);
    const yamaha = await build.make('Yamaha');
    expect(
      (await inject('POST', '/api/vehicle/model', { makeId: yamaha, name: 'yz250f', type: 'motorcycle' })).statusCode,
    ).toBe(409);
    expect(
      (await inject('POST', '/api/vehicle/model', { makeId: crypto.randomUUID(), name: 'X', type: 'motorcycle' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await inject('POST', '/api/vehicle/model', { makeId: 'not-an-id', name: 'X', type: 'car' })).statusCode,
    ).toBe(404);
    const yz = await build.model('Yamaha', 'YZ250F');
    const backwards = await inject('POST', '/api/vehicle', { modelId: yz, yearFrom: 2020, yearTo: 2019 });
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json())).toContain('Year From Must Not Be After Year To');
    expect((await inject('POST', '/api/vehicle', { modelId: yz, yearFrom: 1900, yearTo: 1901 })).statusCode).toBe(400);
    const honda = await build.make('Honda');
    expect((await inject('PATCH', `/api/vehicle/make/${honda}`, { name: 'YAMAHA' })).statusCode).toBe(409);
  });

  it('renames and retypes, and deletes only what nothing uses', async () => {
    const makeId = await build.make('Rename Me');
    const renamed = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/vehicle/make/${makeId}`,
      headers: admin.headers,
      payload: { name: 'Renamed' },
    });
    expect(renamed.json()).toEqual({ id: makeId, name: 'Renamed' });
    const modelId = await build.model('Rename Me', 'Quad', 'atv');
    const retyped = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/vehicle/model/${modelId}`,
      headers: admin.headers,
      payload: { type: 'scooter' },
    });
    expect(retyped.json()).toMatchObject({ id: modelId, make: 'Renamed', name: 'Quad', type: 'scooter' });
    const del = (url: string) => ctx().app.inject({ method: 'DELETE', url, headers: admin.headers });
    expect((await del(`/api/vehicle/make/${makeId}`)).statusCode).toBe(409);
    const [vehicle] = await build.years('Rename Me', 'Quad', 2020, 2020);
    expect((await del(`/api/vehicle/model/${modelId}`)).statusCode).toBe(409);

    // A vehicle in a garage stays.
    await ctx().app.inject({
      method: 'POST',
      url: '/api/garage',
      headers: customer.headers,
      payload: { vehicleId: vehicle?.id },
    });
    expect((await del(`/api/vehicle/${vehicle?.id}`)).statusCode).toBe(409);
    const garage = await ctx().app.inject({ method: 'GET', url: '/api/garage', headers: customer.headers });
    const entry = garage.json().vehicles.find((e: { vehicle: { id: string } }) => e.vehicle.id === vehicle?.id);
    await ctx().app.inject({ method: 'DELETE', url: `/api/garage/${entry.id}`, headers: customer.headers });

    // The parts list knows the vehicle (and remembers that for a few seconds)…
    const partsFor = () => ctx().app.inject({ method: 'GET', url: `/api/part?vehicle=${vehicle?.id}&limit=1` });
    expect((await partsFor()).statusCode).toBe(200);
    expect((await del(`/api/vehicle/${vehicle?.id}`)).statusCode).toBe(204);
    // …and forgets it the moment it is deleted: a browser still naming it hears 404 at once and drops it.
    expect((await partsFor()).statusCode).toBe(404);
    expect((await del(`/api/vehicle/${vehicle?.id}`)).statusCode).toBe(404);
    expect((await del(`/api/vehicle/model/${modelId}`)).statusCode).toBe(204);
    expect((await del(`/api/vehicle/make/${makeId}`)).statusCode).toBe(204);
    expect((await del(`/api/vehicle/make/${makeId}`)).statusCode).toBe(404);
  });

  it('lets only admins write vehicles', async () => {
    const body = { name: 'Sneaky' };
    const anonymous = await ctx().app.inject({ method: 'POST', url: '/api/vehicle/make', payload: body });
    const asCustomer = await ctx().app.inject({
      method: 'POST',
      url: '/api/vehicle/make',
      headers: customer.headers,
      payload: body,
    });
    expect([anonymous.statusCode, asCustomer.statusCode]).toEqual([401, 403]);
    expect(names((await get('/api/vehicle/makes')).json())).not.toContain('Sneaky');
  });
});
