import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { NO_PHOTO_IMAGE } from '../../../shared/schemas/media.ts';
import { parts } from '../../db/schema.ts';
import { insertPart } from '../orders/order-test-helpers.ts';
import { sniffFormat } from './photo-conversion.ts';

/** Test images made here with sharp: no binary fixtures. */
const picture = (width: number, height: number, colour = '#c33') =>
  sharp({ create: { width, height, channels: 3, background: colour } });
const jpeg = (w = 1600, h = 1000) => picture(w, h).jpeg().toBuffer();
const png = (w = 800, h = 600) => picture(w, h, '#3a6').png().toBuffer();
const webp = (w = 400, h = 300) => picture(w, h, '#36c').webp().toBuffer();

/** A real 64 × 64 PNG whose header claims 50,000 × 50,000 pixels (10 GB decoded): a decompression bomb. */
async function pngBomb(): Promise<Buffer> {
  const bytes = Buffer.from(await picture(64, 64).png().toBuffer());
  // IHDR's data starts at byte 16: width, height (big-endian), then its CRC over type + data at byte 29.
  bytes.writeUInt32BE(50_000, 16);
  bytes.writeUInt32BE(50_000, 20);
  bytes.writeUInt32BE(zlib.crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
);

function filesIn(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.endsWith('.tmp')) : [];
}

describe('sniffFormat', () => {
  it('knows JPEG, PNG, WebP and AVIF by their bytes, and nothing else', async () => {
    expect(sniffFormat(await jpeg(10, 10))).toBe('jpeg');
    expect(sniffFormat(await png(10, 10))).toBe('png');
    expect(sniffFormat(await webp(10, 10))).toBe('webp');
    expect(sniffFormat(await picture(16, 16).avif().toBuffer())).toBe('avif');
    expect(sniffFormat(SVG_WITH_SCRIPT)).toBeUndefined();
    expect(sniffFormat(await picture(10, 10).gif().toBuffer())).toBeUndefined();
    expect(sniffFormat(Buffer.from('PK\u0003\u0004 a zip'))).toBeUndefined();
  });
});

describeEachDatabase('part photos (issue 14)', (ctx) => {
  let admin: TestUser;
  let customer: TestUser;
  let uploadsDir: string;
  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    customer = await createUser(ctx());
    uploadsDir = path.join(ctx().config.uploadsDir, 'parts');
  });

  const upload = (partId: string, body: Buffer, type = 'image/jpeg', who: TestUser | null = admin) =>
    ctx().app.inject({
      method: 'POST',
      url: `/api/part/${partId}/photos`,
      headers: { ...(who ? who.headers : {}), 'content-type': type },
      payload: body,
    });
  const imgOf = async (partId: string) =>
    (await ctx().database.db.select({ img: parts.img }).from(parts).where(eq(parts.id, partId)))[0]?.img;

  it('takes JPEG, PNG and WebP, converts each to WebP at widths no wider than the original, and serves them cached for a year', async () => {
    const part = await insertPart(ctx().database.db);
    const first = await upload(part.id, await jpeg(1600, 1000));
    expect(first.statusCode, first.body).toBe(201);
    const [main] = first.json();
    expect(main).toMatchObject({ main: true, width: 1280, height: 800 });
    expect(main.srcset).toMatch(/-320\.webp 320w, .*-640\.webp 640w, .*-1280\.webp 1280w$/);
    expect(main.url).toMatch(/^\/uploads\/parts\/[a-f0-9]{32}-640\.webp$/);
    // The spec's `img` is the main photo's.
    expect(await imgOf(part.id)).toBe(main.url);

    const second = await upload(part.id, await png(800, 600), 'image/png');
    expect(second.statusCode, second.body).toBe(201);
    const third = await upload(part.id, await webp(300, 200), 'application/octet-stream');
    expect(third.statusCode, third.body).toBe(201);
    const photos = third.json();
    expect(photos).toHaveLength(3);
    expect(photos.map((p: { main: boolean }) => p.main)).toEqual([true, false, false]);
    // A 300 px original is stored once, at its own width; an 800 px one at 320, 640 and its own 800.
    expect(photos[2].srcset).toMatch(/-300\.webp 300w$/);
    expect(photos[1].srcset.split(', ').map((entry: string) => entry.split(' ')[1])).toEqual(['320w', '640w', '800w']);
    expect(await imgOf(part.id)).toBe(main.url);

    const file = await ctx().app.inject({ method: 'GET', url: main.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(file.rawPayload).metadata()).format).toBe('webp');

    const details = await ctx().app.inject({ method: 'GET', url: `/api/part/${part.id}` });
    expect(details.json().photos).toEqual(photos);
    expect(details.json().img).toBe(main.url);
  });

  it('keeps a photo narrower than the largest width at its own width too (never enlarged), and caps a wide one', async () => {
    const part = await insertPart(ctx().database.db);
    const narrow = await upload(part.id, await jpeg(600, 400));
    expect(narrow.statusCode, narrow.body).toBe(201);
    const [photo] = narrow.json();
    expect(photo).toMatchObject({ width: 600, height: 400 });
    expect(photo.srcset).toMatch(
      /^\/uploads\/parts\/[a-f0-9]{32}-320\.webp 320w, \/uploads\/parts\/[a-f0-9]{32}-600\.webp 600w$/,
    );
    // The 600 px file is the photo's (and the part's) picture and its zoomed view, and is served at that width.
    expect(photo.url).toMatch(/-600\.webp$/);
    expect(photo.largeUrl).toBe(photo.url);
    expect(await imgOf(part.id)).toBe(photo.url);
    const file = await ctx().app.inject({ method: 'GET', url: photo.url });
    expect(file.statusCode).toBe(200);
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 600, height: 400 });
    expect(fs.existsSync(path.join(uploadsDir, path.basename(photo.url)))).toBe(true);

    const wide = await upload(part.id, await jpeg(3000, 1500));
    expect(wide.statusCode, wide.body).toBe(201);
    const [, big] = wide.json();
    expect(big).toMatchObject({ width: 1280, height: 640 });
    expect(big.srcset.split(', ').map((entry: string) => entry.split(' ')[1])).toEqual(['320w', '640w', '1280w']);
    expect(big.largeUrl).toMatch(/-1280\.webp$/);
    expect(filesIn(uploadsDir).some((name) => name.endsWith('-3000.webp'))).toBe(false);
  });

  it('reorders, makes another photo main and removes, with the part image following the main photo', async () => {
    const part = await insertPart(ctx().database.db);
    for (const colour of ['#111', '#555', '#999']) {
      expect((await upload(part.id, await picture(700, 500, colour).jpeg().toBuffer())).statusCode).toBe(201);
    }
    const listed = (await ctx().app.inject({ method: 'GET', url: `/api/part/${part.id}` })).json().photos;
    const [a, b, c] = listed.map((p: { id: string }) => p.id);

    const reordered = await ctx().app.inject({
      method: 'PUT',
      url: `/api/part/${part.id}/photos`,
      headers: admin.headers,
      payload: { order: [c, a, b] },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json().map((p: { id: string }) => p.id)).toEqual([c, a, b]);
    expect(await imgOf(part.id)).toBe(reordered.json()[0].url);

    const incomplete = await ctx().app.inject({
      method: 'PUT',
      url: `/api/part/${part.id}/photos`,
      headers: admin.headers,
      payload: { order: [a, b] },
    });
    expect(incomplete.statusCode).toBe(400);

    const main = await ctx().app.inject({
      method: 'PUT',
      url: `/api/part/${part.id}/photos/${b}/main`,
      headers: admin.headers,
    });
    expect(main.statusCode, main.body).toBe(200);
    expect(main.json().map((p: { id: string; main: boolean }) => [p.id, p.main])).toEqual([
      [b, true],
      [c, false],
      [a, false],
    ]);
    expect(await imgOf(part.id)).toBe(main.json()[0].url);

    const bFiles = filesIn(uploadsDir).filter((name) => main.json()[0].url.includes(name.split('-')[0]));
    expect(bFiles.length).toBeGreaterThan(0);
    const removed = await ctx().app.inject({
      method: 'DELETE',
      url: `/api/part/${part.id}/photos/${b}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().map((p: { id: string }) => p.id)).toEqual([c, a]);
    expect(await imgOf(part.id)).toBe(removed.json()[0].url);
    // Its files are gone with it.
    for (const name of bFiles) expect(fs.existsSync(path.join(uploadsDir, name))).toBe(false);

    for (const id of [c, a]) {
      await ctx().app.inject({ method: 'DELETE', url: `/api/part/${part.id}/photos/${id}`, headers: admin.headers });
    }
    expect(await imgOf(part.id)).toBe(NO_PHOTO_IMAGE);
    const unknown = await ctx().app.inject({
      method: 'DELETE',
      url: `/api/part/${part.id}/photos/${a}`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('housekeeping removes files no photo names (a deleted part’s) once an hour old, and keeps the rest', async () => {
    const db = ctx().database.db;
    const kept = await insertPart(db);
    const keptUrl = (await upload(kept.id, await picture(500, 400, '#ab1').jpeg().toBuffer())).json()[0].url;
    const gone = await insertPart(db);
    const goneUrl = (await upload(gone.id, await picture(500, 400, '#1ab').jpeg().toBuffer())).json()[0].url;
    await db.delete(parts).where(eq(parts.id, gone.id));
    const fileOf = (url: string) => path.join(uploadsDir, path.basename(url));
    expect(fs.existsSync(fileOf(goneUrl))).toBe(true);

    // Younger than an hour: it may be an upload on its way to its row.
    await ctx().app.services.photos.sweepUnusedFiles();
    expect(fs.existsSync(fileOf(goneUrl))).toBe(true);
    await ctx().app.services.photos.sweepUnusedFiles(new Date(Date.now() + 2 * 60 * 60 * 1000));
    expect(fs.existsSync(fileOf(goneUrl))).toBe(false);
    expect(fs.existsSync(fileOf(goneUrl.replace('-320.webp', '-640.webp')))).toBe(false);
    expect(fs.existsSync(fileOf(keptUrl))).toBe(true);
  });

  describe('refusals write nothing: no row, no file', () => {
    let partId: string;
    beforeAll(async () => {
      partId = (await insertPart(ctx().database.db)).id;
    });

    const cases: { name: string; body: () => Promise<Buffer>; type?: string; status: number; message: RegExp }[] = [
      {
        name: 'SVG with a script',
        body: async () => SVG_WITH_SCRIPT,
        type: 'image/svg+xml',
        status: 415,
        message: /not a photo/,
      },
      {
        name: 'SVG declared as a JPEG',
        body: async () => SVG_WITH_SCRIPT,
        type: 'image/jpeg',
        status: 415,
        message: /JPEG, PNG, WebP or AVIF/,
      },
      { name: 'a GIF', body: () => picture(20, 20).gif().toBuffer(), status: 415, message: /not a photo/ },
      {
        name: 'text named photo.jpg',
        body: async () => Buffer.from('just some text, not a photo'),
        status: 415,
        message: /not a photo/,
      },
      {
        name: 'a zip posing as an image',
        body: async () => Buffer.from(`PK\u0003\u0004${'A'.repeat(200)}`),
        status: 415,
        message: /not a photo/,
      },
      {
        name: 'a PNG declaring 50,000 × 50,000 pixels',
        body: pngBomb,
        type: 'image/png',
        status: 400,
        message: /50000 × 50000 pixels/,
      },
      {
        name: 'a truncated JPEG',
        body: async () => (await jpeg(800, 600)).subarray(0, 600),
        status: 400,
        message: /could not be read/,
      },
      { name: 'an empty body', body: async () => Buffer.alloc(0), status: 400, message: /Choose a photo/ },
      {
        name: 'over 10 MB',
        body: async () => Buffer.concat([await jpeg(100, 100), Buffer.alloc(10 * 1024 * 1024)]),
        status: 413,
        message: /A photo may be at most 10 MB/,
      },
    ];
    for (const c of cases) {
      it(`${c.name}: ${c.status}`, async () => {
        const before = await databaseChecksum(ctx().database.db);
        const filesBefore = filesIn(uploadsDir);
        const res = await upload(partId, await c.body(), c.type);
        expect(res.statusCode, res.body).toBe(c.status);
        expect(res.json().error.message).toMatch(c.message);
        expect(await databaseChecksum(ctx().database.db)).toEqual(before);
        expect(filesIn(uploadsDir)).toEqual(filesBefore);
      });
    }

    it('only an admin may upload: anonymous 401, a customer 403; an unknown part 404', async () => {
      const body = await jpeg(400, 300);
      const filesBefore = filesIn(uploadsDir);
      expect((await upload(partId, body, 'image/jpeg', null)).statusCode).toBe(401);
      expect((await upload(partId, body, 'image/jpeg', customer)).statusCode).toBe(403);
      expect((await upload(crypto.randomUUID(), body)).statusCode).toBe(404);
      expect(filesIn(uploadsDir)).toEqual(filesBefore);
      expect(await imgOf(partId)).toBe('/images/parts/brake-disc.svg');
    });
  });
});
