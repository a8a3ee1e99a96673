import { beforeAll, expect, it } from 'vitest';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { GARAGE_CAPACITY, type Garage, garageSchema, type Vehicle } from '../../../shared/schemas/fitment.ts';
import { VehicleBuilder } from './fitment-test-helpers.ts';

describeEachDatabase('My Garage', (ctx) => {
  let admin: TestUser;
  let yz250f2019: Vehicle;
  let mt072020: Vehicle;
  let crf2011: Vehicle;
  let many: Vehicle[];

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    const build = new VehicleBuilder(ctx().app, admin.headers);
    yz250f2019 = await build.vehicle('Yamaha', 'YZ250F', 2019);
    mt072020 = await build.vehicle('Yamaha', 'MT-07', 2020);
    crf2011 = await build.vehicle('Honda', 'CRF250R', 2011);
    many = await build.years('Kawasaki', 'KX250', 2000, 2025);
  });

  async function call(
    user: TestUser,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) {
    return ctx().app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  async function garageOf(user: TestUser): Promise<Garage> {
    const res = await call(user, 'GET', '/api/garage');
    expect(res.statusCode, res.body).toBe(200);
    return garageSchema.parse(res.json());
  }
  const labels = (garage: Garage) => garage.vehicles.map((e) => e.vehicle.label);

  it('adds, names, chooses, and removes vehicles; every call answers the whole garage', async () => {
    const user = await createUser(ctx());
    expect(await garageOf(user)).toEqual({ vehicles: [], currentId: null });

    const added = await call(user, 'POST', '/api/garage', { vehicleId: yz250f2019.id, name: '  Race bike ' });
    expect(added.statusCode, added.body).toBe(201);
    const first = garageSchema.parse(added.json());
    expect(first.vehicles).toEqual([
      { id: expect.any(String), vehicle: yz250f2019, name: 'Race bike', current: true, addedAt: expect.any(String) },
    ]);
    expect(first.currentId).toBe(first.vehicles[0]?.id);

    // Added without becoming current.
    const second = garageSchema.parse(
      (await call(user, 'POST', '/api/garage', { vehicleId: mt072020.id, current: false })).json(),
    );
    expect(labels(second)).toEqual(['2019 Yamaha YZ250F', '2020 Yamaha MT-07']);
    expect(second.currentId).toBe(first.currentId);
    const mtEntry = second.vehicles[1]?.id ?? '';

    // Added and current (the default): the previous one is no longer current.
    const third = garageSchema.parse((await call(user, 'POST', '/api/garage', { vehicleId: crf2011.id })).json());
    expect(third.vehicles.map((e) => e.current)).toEqual([false, false, true]);

    const renamed = garageSchema.parse(
      (await call(user, 'PATCH', `/api/garage/${mtEntry}`, { name: 'Commuter' })).json(),
    );
    expect(renamed.vehicles[1]?.name).toBe('Commuter');
    const cleared = garageSchema.parse((await call(user, 'PATCH', `/api/garage/${mtEntry}`, { name: '' })).json());
    expect(cleared.vehicles[1]?.name).toBeNull();

    const chosen = garageSchema.parse((await call(user, 'PUT', '/api/garage/current', { id: mtEntry })).json());
    expect(chosen.currentId).toBe(mtEntry);
    expect(chosen.vehicles.filter((e) => e.current).map((e) => e.id)).toEqual([mtEntry]);

    const removed = garageSchema.parse((await call(user, 'DELETE', `/api/garage/${mtEntry}`)).json());
    expect(labels(removed)).toEqual(['2019 Yamaha YZ250F', '2011 Honda CRF250R']);
    expect(removed.currentId).toBeNull();

    const none = garageSchema.parse(
      (await call(user, 'PUT', '/api/garage/current', { id: removed.vehicles[0]?.id })).json(),
    );
    expect(none.currentId).toBe(removed.vehicles[0]?.id);
    expect(
      garageSchema.parse((await call(user, 'PUT', '/api/garage/current', { id: null })).json()).currentId,
    ).toBeNull();
  });

  it('refuses a vehicle twice (409), an unknown vehicle (404) and a full garage (422), changing nothing', async () => {
    const user = await createUser(ctx());
    await call(user, 'POST', '/api/garage', { vehicleId: yz250f2019.id });
    const twice = await call(user, 'POST', '/api/garage', { vehicleId: yz250f2019.id });
    expect([twice.statusCode, twice.json().error.message]).toEqual([409, 'This vehicle is already in your garage.']);
    for (const vehicleId of [crypto.randomUUID(), 'not-a-vehicle']) {
      const unknown = await call(user, 'POST', '/api/garage', { vehicleId });
      expect([unknown.statusCode, unknown.json().error.message]).toEqual([404, 'This vehicle does not exist.']);
    }
    for (const vehicle of many.slice(0, GARAGE_CAPACITY - 1)) {
      expect((await call(user, 'POST', '/api/garage', { vehicleId: vehicle.id })).statusCode).toBe(201);
    }
    const full = await call(user, 'POST', '/api/garage', { vehicleId: mt072020.id });
    expect([full.statusCode, full.json().error.code]).toEqual([422, 'garage_full']);
    expect((await garageOf(user)).vehicles).toHaveLength(GARAGE_CAPACITY);
  });

  it("never lets anyone touch another user's garage, admins included (404, as if it did not exist)", async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const garage = garageSchema.parse(
      (await call(owner, 'POST', '/api/garage', { vehicleId: yz250f2019.id, name: 'Mine' })).json(),
    );
    const entry = garage.vehicles[0]?.id ?? '';
    for (const intruder of [other, admin]) {
      const attempts = [
        await call(intruder, 'PATCH', `/api/garage/${entry}`, { name: 'Stolen' }),
        await call(intruder, 'DELETE', `/api/garage/${entry}`),
        await call(intruder, 'PUT', '/api/garage/current', { id: entry }),
      ];
      expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404]);
      expect(attempts.map((r) => r.json().error.message)).toEqual(Array(3).fill('This vehicle is not in your garage.'));
      expect((await garageOf(intruder)).vehicles.map((e) => e.id)).not.toContain(entry);
    }
    expect(await garageOf(owner)).toEqual(garage);
    const anonymous = await ctx().app.inject({ method: 'GET', url: '/api/garage' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("merges a visitor's browser garage at sign-in: new vehicles join, names on the server win, unknown ones are skipped", async () => {
    const user = await createUser(ctx());
    await call(user, 'POST', '/api/garage', { vehicleId: mt072020.id, name: 'Server name' });
    const body = {
      vehicles: [
        { vehicleId: yz250f2019.id, name: 'Race bike' },
        { vehicleId: mt072020.id, name: 'Browser name' },
        { vehicleId: crypto.randomUUID() },
        { vehicleId: 'garbage' },
        { vehicleId: yz250f2019.id, name: 'Duplicate' },
      ],
      currentVehicleId: yz250f2019.id,
    };
    const res = await call(user, 'POST', '/api/garage/merge', body);
    expect(res.statusCode, res.body).toBe(200);
    const merged = garageSchema.parse(res.json());
    expect(merged.vehicles.map((e) => [e.vehicle.label, e.name, e.current])).toEqual([
      ['2020 Yamaha MT-07', 'Server name', false],
      ['2019 Yamaha YZ250F', 'Race bike', true],
    ]);
    // Merging again changes nothing.
    const again = garageSchema.parse((await call(user, 'POST', '/api/garage/merge', body)).json());
    expect(again).toEqual(merged);
    // An empty browser garage keeps the server's current vehicle.
    const empty = garageSchema.parse((await call(user, 'POST', '/api/garage/merge', { vehicles: [] })).json());
    expect(empty).toEqual(merged);
  });

  it('keeps the order of the browser garage when it merges several vehicles in one go', async () => {
    const user = await createUser(ctx());
    const sent = [many[4], many[1], many[3], many[0], many[2]].map((v) => v as Vehicle);
    const merged = garageSchema.parse(
      (await call(user, 'POST', '/api/garage/merge', { vehicles: sent.map((v) => ({ vehicleId: v.id })) })).json(),
    );
    expect(merged.vehicles.map((e) => e.vehicle.id)).toEqual(sent.map((v) => v.id));
    expect((await garageOf(user)).vehicles.map((e) => e.vehicle.id)).toEqual(sent.map((v) => v.id));
  });

  it('merges up to the capacity and refuses a body over it', async () => {
    const user = await createUser(ctx());
    await call(user, 'POST', '/api/garage', { vehicleId: yz250f2019.id });
    const vehicles = many.slice(0, GARAGE_CAPACITY).map((v) => ({ vehicleId: v.id }));
    const merged = garageSchema.parse((await call(user, 'POST', '/api/garage/merge', { vehicles })).json());
    expect(merged.vehicles).toHaveLength(GARAGE_CAPACITY);
    expect(merged.vehicles[0]?.vehicle.id).toBe(yz250f2019.id);
    const tooMany = await call(user, 'POST', '/api/garage/merge', {
      vehicles: many.slice(0, GARAGE_CAPACITY + 1).map((v) => ({ vehicleId: v.id })),
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('keeps one current vehicle when adds race each other', async () => {
    const user = await createUser(ctx());
    const results = await Promise.all(
      many.slice(0, 8).map((v) => call(user, 'POST', '/api/garage', { vehicleId: v.id })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const garage = await garageOf(user);
    expect(garage.vehicles).toHaveLength(8);
    expect(garage.vehicles.filter((e) => e.current)).toHaveLength(1);
  });
});
