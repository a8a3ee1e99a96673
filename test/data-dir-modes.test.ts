import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/open-database.ts';
import { openToOthers } from './support/file-modes.ts';

describe('the embedded database keeps its files to the shop user', () => {
  const before = process.umask();
  const dirs: string[] = [];
  afterEach(() => {
    process.umask(before);
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates DATA_DIR and every PGlite file private (0700 / 0600) under umask 022, and closes an old open one', async () => {
    process.umask(0o022);
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-modes-'));
    dirs.push(parent);
    const dataDir = path.join(parent, 'data');
    // What an earlier start (or restore) left behind: a directory and a file anyone could read.
    fs.mkdirSync(path.join(dataDir, 'mail'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'mail', 'old.eml'), 'x', { mode: 0o666 });
    fs.chmodSync(dataDir, 0o755);

    const { handle, release } = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    try {
      const files = fs.readdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
      expect(files.length).toBeGreaterThan(100);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      // Files PostgreSQL makes while it runs (a new table's) are private too.
      await handle.db.execute(sql`create table mode_probe (id int primary key, note text)`);
      await handle.db.execute(sql`insert into mode_probe select g, repeat('x', 500) from generate_series(1, 2000) g`);
      await handle.db.execute(sql`checkpoint`);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await handle.close();
      release();
    }
  }, 120_000);
});
