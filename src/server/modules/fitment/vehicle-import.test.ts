import { inArray, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { VEHICLE_IMPORT_MAX_BYTES, type VehicleImportResult } from '../../../shared/schemas/catalog-transfer.ts';
import { vehicleMakes, vehicleModels, vehicles } from '../../db/schema.ts';
import { uniqueSuffix, VehicleBuilder } from './fitment-test-helpers.ts';

describeEachDatabase('vehicles imported from CSV', (ctx) => {
  let admin: TestUser;
  const s = uniqueSuffix();
  const makeA = `Csvmake${s}`;
  const makeB = `Csvother${s}`;

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    // One model exists already, as a motorcycle, with 2019.
    await new VehicleBuilder(ctx().app, admin.headers).years(makeA, 'Existing', 2019, 2019);
  });

  function upload(csv: string | Buffer, dryRun: boolean, headers: Record<string, string> = {}) {
    return ctx().app.inject({
      method: 'POST',
      url: `/api/admin/vehicles/import${dryRun ? '?dryRun=true' : ''}`,
      headers: { ...admin.headers, 'content-type': 'text/csv', ...headers },
      payload: csv,
    });
  }

  /** Makes, models and vehicles under this file's make names, as one comparable snapshot. */
  async function snapshot() {
    const db = ctx().database.db;
    const makes = await db
      .select()
      .from(vehicleMakes)
      .where(inArray(sql`lower(${vehicleMakes.name})`, [makeA.toLowerCase(), makeB.toLowerCase()]));
    const makeIds = makes.map((make) => make.id);
    const models =
      makeIds.length === 0 ? [] : await db.select().from(vehicleModels).where(inArray(vehicleModels.makeId, makeIds));
    const modelIds = models.map((model) => model.id);
    const years =
      modelIds.length === 0 ? [] : await db.select().from(vehicles).where(inArray(vehicles.modelId, modelIds));
    const name = new Map(models.map((model) => [model.id, model.name]));
    return {
      makes: makes.map((make) => make.name).sort(),
      models: models.map((model) => `${model.name}:${model.type}`).sort(),
      vehicles: years.map((v) => `${name.get(v.modelId)} ${v.year} ${v.variant}`).sort(),
    };
  }

  const good = [
    'type,make,model,years,variant',
    `motorcycle,${makeA},Existing,2019-2020,`,
    `,${makeA.toUpperCase()},existing,2020,ABS`,
    `Car,${makeB},Roadster,2021-2022,`,
    `car,${makeB},Roadster,2022,`,
  ].join('\n');

  it('a dry run reports what the file would add and changes nothing', async () => {
    const before = await snapshot();
    const res = await upload(good, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      dryRun: true,
      rows: 4,
      makesAdded: 1,
      modelsAdded: 1,
      vehiclesAdded: 4,
      vehiclesExisting: 1,
      errors: [],
    } satisfies VehicleImportResult);
    expect(await snapshot()).toEqual(before);
  });

  it('reports every bad row with its line and column, and neither a dry run nor an import writes anything', async () => {
    const before = await snapshot();
    const bad = [
      'make;model;years;type;variant',
      `${makeB};New One;2020;;`,
      `${makeA};Existing;2021;car;`,
      `;No Make;2020;car;`,
      `${makeB};Years;19-20;car;`,
      `${makeB};Span;1950-2030;car;`,
      `${makeB};Boat;2020;boat;`,
      `${makeB};Wide;2020;car;${'V'.repeat(41)}`,
      `${makeB};Short;2020`,
      `${makeB};Fine;2020;car;`,
    ].join('\r\n');
    const dry = await upload(bad, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const report = dry.json() as VehicleImportResult;
    expect(report.rows).toBe(9);
    expect(report.errors.map((error) => [error.line, error.column])).toEqual([
      [2, 'type'],
      [3, 'type'],
      [4, 'make'],
      [5, 'years'],
      [6, 'years'],
      [7, 'type'],
      [8, 'variant'],
      [9, null],
    ]);
    expect(report.errors[2]?.message).toBe('Make Is Required');
    expect(report.vehiclesAdded).toBe(0);
    // Rows that contradict the database or need a type are errors of their own.
    const contradicting = [
      'make;model;years;type;variant',
      `${makeB};New One;2020;;`,
      `${makeA};Existing;2021;car;`,
      `${makeB};Fine;2020;car;`,
    ].join('\n');
    const second = (await upload(contradicting, true)).json() as VehicleImportResult;
    expect(second.errors).toEqual([
      { line: 2, column: 'type', message: 'Type Is Required For A New Model (New One)' },
      { line: 3, column: 'type', message: `${makeA} Existing Is A motorcycle, Not A car` },
    ]);
    const real = await upload(contradicting, false);
    expect(real.statusCode).toBe(400);
    expect(real.json().error.message).toBe(
      '2 rows have errors: nothing was imported. Fix them and upload the file again.',
    );
    expect(real.json().error.details).toHaveLength(2);
    expect(await snapshot()).toEqual(before);
  });

  it('imports a good file in one go, and the same file again adds nothing', async () => {
    const res = await upload(good, false);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      dryRun: false,
      makesAdded: 1,
      modelsAdded: 1,
      vehiclesAdded: 4,
      vehiclesExisting: 1,
    });
    expect(await snapshot()).toEqual({
      makes: [makeA, makeB].sort(),
      models: ['Existing:motorcycle', 'Roadster:car'],
      vehicles: ['Existing 2019 ', 'Existing 2020 ', 'Existing 2020 ABS', 'Roadster 2021 ', 'Roadster 2022 '],
    });
    const after = await snapshot();
    const again = await upload(good, false);
    expect(again.json()).toMatchObject({ makesAdded: 0, modelsAdded: 0, vehiclesAdded: 0, vehiclesExisting: 5 });
    expect(await snapshot()).toEqual(after);
    // The selector offers what the file added.
    const list = await ctx().app.inject({ method: 'GET', url: '/api/vehicle/makes?type=car' });
    expect(list.json().map((make: { name: string }) => make.name)).toContain(makeB);
  });

  it('refuses a file that is no vehicle file with a clear 4xx, changing nothing', async () => {
    const before = await snapshot();
    const cases: [string | Buffer, number, RegExp, Record<string, string>?][] = [
      ['', 400, /./],
      ['make,model,years\n', 400, /no vehicles/],
      ['make,model\nA,B\n', 400, /Column "years" is missing/],
      ['make,model,years,colour\nA,B,2020,red\n', 400, /Unknown column "colour"/],
      ['make,model,years\n"A,B,2020\n', 400, /not valid CSV/],
      [Buffer.from([0x6d, 0x61, 0x6b, 0x65, 0xff, 0x0a]), 400, /not UTF-8/],
      [`make,model,years\n${'A,B,2020\n'.repeat(5001)}`, 400, /more than 5000 rows/],
      ['{"make":"A"}', 415, /./, { 'content-type': 'application/json' }],
      [`make,model,years\n${'x'.repeat(VEHICLE_IMPORT_MAX_BYTES)}\n`, 413, /./],
    ];
    for (const [body, status, message, headers] of cases) {
      const res = await upload(body, false, headers);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('is for admins only', async () => {
    const customer = await createUser(ctx());
    const res = await upload(good, true, customer.headers);
    expect(res.statusCode).toBe(403);
    const anonymous = await ctx().app.inject({
      method: 'POST',
      url: '/api/admin/vehicles/import?dryRun=true',
      headers: { 'content-type': 'text/csv' },
      payload: good,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
