import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { insertPart } from '../orders/order-test-helpers.ts';
import { diskWrites } from './photo-storage.ts';

/**
 * A full uploads disk. The disk is the third party here, and filling a real one takes a mount or a loop device:
 * instead the storage's file write (`diskWrites`, its boundary with the disk) is a stand-in that writes part of the
 * temporary file and then fails as a full disk does (ENOSPC), leaving the part on disk as a real short write would.
 * Everything else (the app, its routes, the database, the rest of the file system) is real.
 */
const realWriteFile = diskWrites.writeFile;
const fullDiskWriteFile: typeof realWriteFile = async (file, data) => {
  await realWriteFile(file, Buffer.isBuffer(data) ? data.subarray(0, Math.min(512, data.length)) : '');
  throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(file)}'`), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
};

const jpeg = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: '#4a7' } })
    .jpeg()
    .toBuffer();
const temporaryFiles = (dir: string) =>
  (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((n) => n.endsWith('.tmp'));

describeEachDatabase('a full uploads disk', (ctx) => {
  let admin: TestUser;
  let dir: string;
  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    dir = path.join(ctx().config.uploadsDir, 'parts');
  });
  afterEach(() => {
    diskWrites.writeFile = realWriteFile;
  });

  it('answers a photo upload 507 with Retry-After, keeps no temporary file and writes no row', async () => {
    const part = await insertPart(ctx().database.db);
    const body = await jpeg();
    const filesBefore = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    const before = await databaseChecksum(ctx().database.db);
    diskWrites.writeFile = fullDiskWriteFile;
    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/part/${part.id}/photos`,
      headers: { ...admin.headers, 'content-type': 'image/jpeg' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json().error.code).toBe('insufficient_storage');
    expect(res.json().error.message).toMatch(/disk is full/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(temporaryFiles(dir)).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual(filesBefore);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);

    // Once there is room again, the same upload works.
    diskWrites.writeFile = realWriteFile;
    const again = await ctx().app.inject({
      method: 'POST',
      url: `/api/part/${part.id}/photos`,
      headers: { ...admin.headers, 'content-type': 'image/jpeg' },
      payload: body,
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('housekeeping removes temporary files an hour old (a write a crash cut short), and keeps younger ones', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const key = 'ab'.repeat(16);
    const stale = path.join(dir, `${key}-640.webp.${crypto.randomUUID()}.tmp`);
    const young = path.join(dir, `${key}-320.webp.${crypto.randomUUID()}.tmp`);
    const unrelated = path.join(dir, 'notes.tmp');
    for (const file of [stale, young, unrelated]) fs.writeFileSync(file, 'partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(unrelated, twoHoursAgo, twoHoursAgo);

    await ctx().app.services.jobs.runHousekeeping();
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    // Only the storage's own temporary names: anything else in the directory is not the shop's to remove.
    expect(fs.existsSync(unrelated)).toBe(true);
    fs.rmSync(young);
    fs.rmSync(unrelated);
  });
});
