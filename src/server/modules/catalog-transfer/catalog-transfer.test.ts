import http from 'node:http';
import { parse } from 'csv-parse/sync';
import { count, eq, inArray } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { CatalogImport } from '../../../shared/schemas/catalog-transfer.ts';
import { catalogImports, partFitments, parts } from '../../db/schema.ts';
import { PartBulkRepository } from '../catalog/part-bulk-repository.ts';
import { uniqueSuffix, VehicleBuilder } from '../fitment/fitment-test-helpers.ts';
import { insertPart } from '../orders/order-test-helpers.ts';

const HEADER = 'mpn,name,brand,oem_numbers,category,price,stock,minimum_order,description,image_url,universal,fitment';

describeEachDatabase('catalog import and export (issue 14)', (ctx) => {
  let admin: TestUser;
  let customer: TestUser;
  let make: string;
  const s = uniqueSuffix();
  const mpn = (n: string) => `IMP-${s}-${n}`;

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    customer = await createUser(ctx());
    make = `Importa${s}`;
    const vehicles = new VehicleBuilder(ctx().app, admin.headers);
    await vehicles.model(make, 'ZX100');
  });

  async function upload(csv: string | Buffer, query = '', headers: Record<string, string> = {}) {
    return ctx().app.inject({
      method: 'POST',
      url: `/api/admin/catalog/import${query}`,
      headers: { ...admin.headers, 'content-type': 'text/csv', ...headers },
      payload: csv,
    });
  }

  /** Uploads, waits for the background run, answers the finished import. */
  async function importFile(csv: string, dryRun = false): Promise<CatalogImport> {
    const res = await upload(csv, dryRun ? '?dryRun=true&fileName=parts.csv' : '?fileName=parts.csv');
    expect(res.statusCode, res.body).toBe(202);
    await ctx().app.services.catalogImports.settled();
    const done = await ctx().app.inject({
      method: 'GET',
      url: `/api/admin/catalog/import/${res.json().id}`,
      headers: admin.headers,
    });
    expect(done.statusCode).toBe(200);
    return done.json() as CatalogImport;
  }

  const importCount = async () => (await ctx().database.db.select({ n: count() }).from(catalogImports))[0]?.n ?? 0;

  const partsOf = async (...numbers: string[]) =>
    ctx().database.db.select().from(parts).where(inArray(parts.mpn, numbers));

  it('imports a valid file with brand, category, OEM numbers and fitment', async () => {
    const csv = [
      HEADER,
      `${mpn('A')},Brake Pad Set,Brembo,OEM-1|OEM 2,brake-pads,24.50,40,2,Sintered pads,/images/parts/brake-pads.svg,false,${make}|ZX100|2019-2021; ${make}|ZX100|2023|ABS`,
      `${mpn('B')},Chain,DID,,Chains,89.99,10,1,"A chain, with a comma",https://example.com/chain.png,no,`,
    ].join('\n');
    const result = await importFile(csv);
    expect(result).toMatchObject({ status: 'done', totalRows: 2, rowsDone: 2, created: 2, updated: 0, errorCount: 0 });
    const [a] = await partsOf(mpn('A'));
    expect(a).toMatchObject({ name: 'Brake Pad Set', priceCents: 2450, availableQuantity: 40, minimumOrder: 2 });
    expect(a?.oemNumbers).toEqual(['OEM-1', 'OEM 2']);
    const fitment = await ctx()
      .database.db.select()
      .from(partFitments)
      .where(eq(partFitments.partId, a?.id ?? ''));
    expect(fitment.map((row) => [row.yearFrom, row.yearTo, row.variant]).sort()).toEqual([
      [2019, 2021, null],
      [2023, 2023, 'ABS'],
    ]);
    const details = await ctx().app.inject({ method: 'GET', url: `/api/part/${a?.id}` });
    expect(details.json()).toMatchObject({ brand: { name: 'Brembo' }, category: { slug: 'brake-pads' } });
  });

  it('upserts by part number in any spelling, changing only the columns the file has', async () => {
    const spelled = mpn('A').toLowerCase().replaceAll('-', ' ');
    const result = await importFile(
      `mpn,name,price,stock,image_url\n${spelled},Brake Pads v2,30,5,/images/parts/brake-pads.svg\n`,
    );
    expect(result).toMatchObject({ status: 'done', created: 0, updated: 1 });
    const [a] = await partsOf(spelled);
    expect(a).toMatchObject({ name: 'Brake Pads v2', priceCents: 3000, availableQuantity: 5, minimumOrder: 2 });
    expect(a?.oemNumbers).toEqual(['OEM-1', 'OEM 2']);
    expect(await partsOf(mpn('A'))).toHaveLength(0);
  });

  it('leaves a part whose row is unchanged unwritten, and adds again a part deleted since the run read the keys', async () => {
    const file = `mpn,name,price,stock,image_url\n${mpn('SAME')},Same Part,12,3,/images/parts/oil-filter.svg\n`;
    await importFile(file);
    const [first] = await partsOf(mpn('SAME'));
    const again = await importFile(file);
    expect(again).toMatchObject({ created: 0, updated: 1 });
    const [second] = await partsOf(mpn('SAME'));
    expect(second?.updatedAt).toEqual(first?.updatedAt);
    // The run's map still names a part that was deleted meanwhile: the row is added, not lost.
    const bulk = new PartBulkRepository(ctx().database.db);
    const gone = '00000000-0000-4000-8000-00000000dead';
    const written = await ctx().database.db.transaction((tx) =>
      bulk.upsert(
        tx,
        [
          {
            mpn: mpn('GONE'),
            name: 'Gone Part',
            priceCents: 100,
            availableQuantity: 1,
            img: '/images/parts/oil-filter.svg',
          },
        ],
        new Map([[normalizePartNumber(mpn('GONE')), gone]]),
        new Set(['img']),
        admin.email,
      ),
    );
    expect(written).toMatchObject({ created: 1, updated: 0 });
    expect(await partsOf(mpn('GONE'))).toHaveLength(1);
  });

  it('a dry run reports what would happen and writes nothing to the catalogue', async () => {
    const before = await databaseChecksum(ctx().database.db);
    const result = await importFile(
      `${HEADER}\n${mpn('DRY')},Dry Part,,,,10,1,1,,/images/parts/oil-filter.svg,,\n${mpn('B')},Chain,,,,1,1,1,,/images/parts/drive-chain.svg,,\n`,
      true,
    );
    expect(result).toMatchObject({ status: 'done', dryRun: true, created: 1, updated: 1, errorCount: 0 });
    const after = await databaseChecksum(ctx().database.db);
    // Only the import's own record was written.
    expect({ ...after, catalog_imports: undefined }).toEqual({ ...before, catalog_imports: undefined });
    expect(await partsOf(mpn('DRY'))).toHaveLength(0);
  });

  it('reports every bad row with its line and column, and imports the rest', async () => {
    const csv = [
      HEADER,
      `${mpn('OK1')},Good One,,,,5,1,1,,/images/parts/oil-filter.svg,,`,
      `${mpn('BAD1')},This name is far too long for a part,,,,abc,1,1,,/images/parts/oil-filter.svg,,`,
      `"${mpn('OK2')}",Good Two,,,,"7.25",3,1,"two
lines",/images/parts/oil-filter.svg,,`,
      `${mpn('BAD2')},Bad Two,,,nowhere,5,-1,1,,javascript:alert(1),maybe,Nomake|Nomodel|2020`,
      `${mpn('OK1')},Duplicate,,,,5,1,1,,/images/parts/oil-filter.svg,,`,
      'too,few,cells',
    ].join('\n');
    const result = await importFile(csv);
    expect(result.status).toBe('done');
    expect(result.created).toBe(2);
    expect(result.totalRows).toBe(6);
    const at = (line: number, column: string | null) =>
      result.errors.filter((e) => e.line === line && e.column === column).map((e) => e.message);
    expect(at(3, 'name')).toEqual(['Product Name Must Be 20 Characters Or Fewer']);
    expect(at(3, 'price')).toEqual(['Price Must Be A Number']);
    // Line 4 holds a cell over two lines: the next row is on line 6.
    expect(at(6, 'category')).toHaveLength(1);
    expect(at(6, 'stock')).toEqual(['Available Quantity Cannot Be Negative']);
    expect(at(6, 'image_url')).toEqual(['Provide A Valid Image Link (http or https)']);
    expect(at(6, 'universal')).toEqual(['Universal Must Be True Or False']);
    expect(at(6, 'fitment')[0]).toContain('No Vehicle Model');
    expect(at(7, 'mpn')).toEqual(['Part Number Already On Line 2']);
    expect(at(8, null)[0]).toContain('Expected 12 cells');
    expect(result.errorCount).toBe(result.errors.length);
    expect(await partsOf(mpn('OK1'), mpn('OK2'), mpn('BAD1'), mpn('BAD2'))).toHaveLength(2);
  });

  it('refuses a file that is not UTF-8, changing nothing', async () => {
    const before = await databaseChecksum(ctx().database.db);
    const imports = await importCount();
    const latin1 = Buffer.from(`${HEADER}\n${mpn('L1')},Caf\xe9,,,,5,1,1,,/images/parts/oil-filter.svg,,\n`, 'latin1');
    const res = await upload(latin1);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('not UTF-8');
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    expect(await importCount()).toBe(imports);
  });

  it('refuses malformed CSV with its line, and a bad header, changing nothing', async () => {
    const before = await databaseChecksum(ctx().database.db);
    const imports = await importCount();
    const broken = await upload(`${HEADER}\n${mpn('Q')},"Open quote,,,,5,1,1,,x,,\n`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toMatch(/not valid CSV: .*\(line \d+\)/);
    const header = await upload('mpn,name,colour\nA,B,C\n');
    expect(header.statusCode).toBe(400);
    expect(header.json().error.details).toEqual(
      expect.arrayContaining([
        { line: 1, column: 'colour', message: 'Unknown column "colour"' },
        { line: 1, column: 'price', message: 'Column "price" is missing' },
      ]),
    );
    expect((await upload('')).statusCode).toBe(400);
    expect((await upload(`${HEADER}\n`)).statusCode).toBe(400);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    expect(await importCount()).toBe(imports);
  });

  it('cuts off an upload over the cap with 413: early on its declared length, or as it streams', async () => {
    const before = await databaseChecksum(ctx().database.db);
    const imports = await importCount();
    // Real connections: one declaring 1 GB is answered 413 after its first bytes (the rest is never sent); one that
    // declares nothing (chunked) is cut off once 50 MB have passed.
    const address = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const send = (declaredLength: number | undefined) =>
      new Promise<{ status: number; body: string; sentMb: number }>((resolve, reject) => {
        const request = http.request(`${address}/api/admin/catalog/import`, {
          method: 'POST',
          agent: false,
          headers: {
            ...admin.headers,
            connection: 'close',
            'content-type': 'text/csv',
            ...(declaredLength === undefined ? {} : { 'content-length': String(declaredLength) }),
          },
        });
        let sentMb = 0;
        let answered = false;
        request.on('response', (response) => {
          answered = true;
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body, sentMb });
          });
        });
        request.on('error', (error) => (answered ? undefined : reject(error)));
        // Valid CSV rows, so only the size can be what is refused.
        const megabyte = Buffer.from(`${HEADER}\n`.repeat(Math.ceil((1024 * 1024) / (HEADER.length + 1))));
        const pump = () => {
          while (!answered && !request.destroyed && sentMb < 200) {
            sentMb += 1;
            if (!request.write(megabyte)) {
              request.once('drain', pump);
              return;
            }
          }
        };
        pump();
      });
    const declared = await send(1024 * 1024 * 1024);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe('payload_too_large');
    const chunked = await send(undefined);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('payload_too_large');
    expect(chunked.sentMb).toBeLessThan(200);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    expect(await importCount()).toBe(imports);
  });

  it('is for admins only, and takes only text/csv', async () => {
    const anonymous = await ctx().app.inject({
      method: 'POST',
      url: '/api/admin/catalog/import',
      headers: { 'content-type': 'text/csv' },
      payload: HEADER,
    });
    expect(anonymous.statusCode).toBe(401);
    const asCustomer = await upload(HEADER, '', customer.headers);
    expect(asCustomer.statusCode).toBe(403);
    const json = await upload('{}', '', { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    const noBody = await ctx().app.inject({ method: 'POST', url: '/api/admin/catalog/import', headers: admin.headers });
    expect(noBody.statusCode).toBe(400);
  });

  it('cancel stops an import after its batch; a finished one stays as it was', async () => {
    const rows = Array.from(
      { length: 1200 },
      (_, i) => `${mpn(`C${i}`)},Cancel ${i},,,,5,1,1,,/images/parts/oil-filter.svg,,`,
    );
    const res = await upload(`${HEADER}\n${rows.join('\n')}\n`);
    expect(res.statusCode).toBe(202);
    const id = res.json().id as string;
    const cancel = await ctx().app.inject({
      method: 'POST',
      url: `/api/admin/catalog/import/${id}/cancel`,
      headers: admin.headers,
    });
    expect(cancel.statusCode).toBe(200);
    await ctx().app.services.catalogImports.settled();
    const [record] = await ctx().database.db.select().from(catalogImports).where(eq(catalogImports.id, id));
    expect(record?.status).toBe('cancelled');
    expect(record?.rowsDone).toBeLessThan(1200);
    const again = await ctx().app.inject({
      method: 'POST',
      url: `/api/admin/catalog/import/${id}/cancel`,
      headers: admin.headers,
    });
    expect(again.json().status).toBe('cancelled');
    const unknown = await ctx().app.inject({
      method: 'POST',
      url: '/api/admin/catalog/import/00000000-0000-4000-8000-000000000000/cancel',
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('shows an import whose server died as stopped, not running forever', async () => {
    const [orphan] = await ctx()
      .database.db.insert(catalogImports)
      .values({
        dryRun: false,
        createdByEmail: admin.email,
        totalRows: 10,
        updatedAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    const res = await ctx().app.inject({
      method: 'GET',
      url: `/api/admin/catalog/import/${orphan?.id}`,
      headers: admin.headers,
    });
    expect(res.json()).toMatchObject({ status: 'failed', message: expect.stringContaining('Upload the file again') });
  });

  it('reads a semicolon-separated file (as spreadsheets save it where decimals take a comma)', async () => {
    const csv = [
      'mpn;name;price;stock;image_url;fitment',
      `${mpn('S1')};"Chain; gold";24,50;3;/images/parts/chain.svg;"${make}|ZX100|2019-2021; ${make}|ZX100|2023"`,
      `${mpn('S2')};Sprocket;12;5;/images/parts/chain.svg;`,
    ].join('\r\n');
    const result = await importFile(csv);
    expect(result).toMatchObject({ status: 'done', created: 2, errorCount: 0 });
    const rows = await partsOf(mpn('S1'), mpn('S2'));
    expect(rows.map((row) => [row.name, row.priceCents]).sort()).toEqual([
      ['Chain; gold', 2450],
      ['Sprocket', 1200],
    ]);
  });

  it('keeps a history of imports: when, who, which file, rows added, updated and refused, how it ended', async () => {
    const image = '/images/parts/oil-filter.svg';
    const file = `mpn,name,price,stock,image_url\n${mpn('H1')},History Part,5,1,${image}\n,No Number,5,1,${image}\n`;
    await importFile(file, true);
    const ours = await importFile(file);
    const res = await ctx().app.inject({
      method: 'GET',
      url: '/api/admin/catalog/imports?limit=100',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const history = res.json();
    expect(history.total).toBeGreaterThanOrEqual(2);
    const mine = history.items.find((item: { id: string }) => item.id === ours.id);
    expect(mine).toMatchObject({
      status: 'done',
      dryRun: false,
      fileName: 'parts.csv',
      createdBy: admin.email,
      created: 1,
      updated: 0,
      errorCount: 1,
      refused: 1,
      finishedAt: expect.any(String),
    });
    expect(mine).not.toHaveProperty('errors');
    const times = history.items.map((item: { createdAt: string }) => item.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const next = await ctx().app.inject({
      method: 'GET',
      url: '/api/admin/catalog/imports?limit=1&offset=1',
      headers: admin.headers,
    });
    expect(next.json().items).toHaveLength(1);
    expect(next.json().items[0].createdAt <= times[0]).toBe(true);
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'page=2']) {
      const refused = await ctx().app.inject({
        method: 'GET',
        url: `/api/admin/catalog/imports?${bad}`,
        headers: admin.headers,
      });
      expect(refused.statusCode, bad).toBe(400);
    }
  });

  it('lists the latest imports for the page to find after a reload', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/admin/catalog/import', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeGreaterThan(0);
  });

  it('exports products in the columns import reads, neutralising formulas, and the file imports back', async () => {
    await importFile(
      `${HEADER}\n${mpn('F')},=cmd|' /C calc'!A0,,,,5,1,1,@SUM(A1),/images/parts/oil-filter.svg,,${make}|ZX100|2020\n`,
    );
    const res = await ctx().app.inject({
      method: 'GET',
      url: '/api/admin/export/products.csv',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(HEADER);
    const line = lines.find((l) => l.startsWith(mpn('F')));
    expect(line).toContain(",'=cmd|' /C calc'!A0,");
    expect(line).toContain("'@SUM(A1)");
    expect(line).toContain(`${make}|ZX100|2020`);
    // Round trip: the exported file imports back with no error and no change of name.
    const back = await importFile(res.body);
    expect(back.errorCount).toBe(0);
    const [part] = await partsOf(mpn('F'));
    expect(part?.name).toBe("=cmd|' /C calc'!A0");
  });

  it('exports orders filtered by status and dates', async () => {
    const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
    const placed = await ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: customer.headers,
      payload: { partId: part.id, quantity: 2, address: '=HYPERLINK("x")', phone: '+44 7700 900123' },
    });
    expect(placed.statusCode).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const res = await ctx().app.inject({
      method: 'GET',
      url: `/api/admin/export/orders.csv?status=unpaid&from=${today}&to=${today}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(placed.json()._id);
    expect(res.body).toContain(`"'=HYPERLINK(""x"")"`);
    // The phone as a courier import reads it: E.164 digits, nothing before them that a spreadsheet would run.
    const records = parse(res.body) as string[][];
    const phone = records[0]?.indexOf('phone') ?? -1;
    const row = records.find((record) => record[0] === placed.json()._id);
    expect(row?.[phone]).toBe('447700900123');
    const none = await ctx().app.inject({
      method: 'GET',
      url: '/api/admin/export/orders.csv?status=refunded&from=2001-01-01&to=2001-01-02',
      headers: admin.headers,
    });
    expect(none.body.trim().split('\r\n')).toHaveLength(1);
    const backwards = await ctx().app.inject({
      method: 'GET',
      url: '/api/admin/export/orders.csv?from=2020-01-02&to=2020-01-01',
      headers: admin.headers,
    });
    expect(backwards.statusCode).toBe(400);
  });
});
