import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PayloadTooLargeError, spoolUpload } from './upload-spool.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-spool-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('refuses an upload past the cap while a write is still on its way to the disk, without an uncaught error', async () => {
  // The spool file is open, a large chunk's write is in flight, and the next chunk passes the cap: the refusal
  // destroys the stream under that write, whose completion then fails with ERR_STREAM_DESTROYED. Without an 'error'
  // listener that was an uncaught exception, which ends a server (CI saw it).
  // Chunks under the stream's high-water mark: each write returns at once while the disk still works on it.
  const chunk = Buffer.from('Brake pads,10\n'.repeat(500));
  const chunks = [Buffer.from('name,price\n'), ...Array.from({ length: 40 }, () => chunk)];
  const cap = chunk.length * 30;
  for (let round = 0; round < 10; round++) {
    async function* upload() {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the file is open by now
      yield* chunks;
    }
    await expect(spoolUpload(Readable.from(upload()), dir, cap)).rejects.toBeInstanceOf(PayloadTooLargeError);
  }
  // Let every queued write finish: an uncaught error would fail this test file.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('spools a valid upload and counts its records', async () => {
  const source = Readable.from([Buffer.from('name,price\nBrake pads,10\nChain,20\n')]);
  const spooled = await spoolUpload(source, dir, 1024);
  expect(spooled.rows).toBe(2);
  expect(spooled.header).toEqual(['name', 'price']);
  expect(fs.readFileSync(spooled.file, 'utf8')).toBe('name,price\nBrake pads,10\nChain,20\n');
});
