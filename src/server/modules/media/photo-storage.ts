import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InsufficientStorageError } from '../../errors.ts';

/** One stored width of a photo. */
export interface PhotoFile {
  width: number;
  data: Buffer;
}

/**
 * Where photo files live (ADR 013): the media module writes and removes through this port and asks it for a file's
 * public URL. Files are named by content-hashed key and width, so a name's bytes never change and can be cached for
 * a year. Only the disk is built; an S3-compatible bucket would be a second implementation of this interface.
 */
export interface PhotoStorage {
  /** Stores every width of a key; storing a key again is harmless (the same bytes under the same names). */
  put(key: string, files: PhotoFile[]): Promise<void>;
  /** Removes every width of a key; files already gone are not an error. */
  remove(key: string, widths: readonly number[]): Promise<void>;
  urlOf(key: string, width: number): string;
  /** The keys stored, each with its widths, whose files were all written before `before`. */
  storedBefore(before: Date): Promise<{ key: string; widths: number[] }[]>;
  /** Removes what writes cut short left behind (a process that died mid-write) before `before`; how many. */
  removeLeftoversBefore(before: Date): Promise<number>;
}

/** The disk, or the shop user's quota on it, is full: "try again later" (507), never a 500. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const isDiskFull = (error: unknown) => DISK_FULL_CODES.has(String((error as { code?: unknown } | null)?.code));
/**
 * The one file-system call whose failure depends on the disk's state (full, quota): a test stands in a full disk
 * here, since filling a real one takes a mount or a loop device.
 */
export const diskWrites = { writeFile: fs.writeFile };

/** A file being written: `<key>-<width>.webp.<uuid>.tmp`. */
const TEMPORARY_NAME = /^[a-f0-9]{16,64}-\d+\.webp\.[0-9a-f-]{36}\.tmp$/;

/** The URL prefix the disk storage's files are served under (media-routes.ts serves UPLOADS_DIR there). */
export const UPLOADS_URL_PREFIX = '/uploads/';
const PARTS = 'parts';

/** Photos as files under UPLOADS_DIR/parts, written whole (a temporary name, then a rename) or not at all. */
export class DiskPhotoStorage implements PhotoStorage {
  readonly #dir: string;
  constructor(uploadsDir: string) {
    this.#dir = path.join(path.resolve(uploadsDir), PARTS);
  }

  async put(key: string, files: PhotoFile[]): Promise<void> {
    const written: string[] = [];
    let temporary: string | undefined;
    try {
      await fs.mkdir(this.#dir, { recursive: true });
      for (const file of files) {
        const target = this.#path(key, file.width);
        temporary = `${target}.${crypto.randomUUID()}.tmp`;
        await diskWrites.writeFile(temporary, file.data);
        await fs.rename(temporary, target);
        temporary = undefined;
        written.push(target);
      }
    } catch (error) {
      // A write cut short (a full disk) leaves its temporary file: it goes with the widths already stored.
      const leftovers = temporary ? [...written, temporary] : written;
      await Promise.all(leftovers.map((file) => fs.rm(file, { force: true }).catch(() => undefined)));
      throw isDiskFull(error) ? new InsufficientStorageError() : error;
    }
  }

  async remove(key: string, widths: readonly number[]): Promise<void> {
    await Promise.all(widths.map((width) => fs.rm(this.#path(key, width), { force: true })));
  }

  urlOf(key: string, width: number): string {
    return `${UPLOADS_URL_PREFIX}${PARTS}/${key}-${width}.webp`;
  }

  async storedBefore(before: Date): Promise<{ key: string; widths: number[] }[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.#dir);
    } catch {
      return []; // Nothing uploaded yet.
    }
    const found = new Map<string, { widths: number[]; newest: number }>();
    for (const name of names) {
      const match = /^([a-f0-9]{16,64})-(\d+)\.webp$/.exec(name);
      if (!match?.[1] || !match[2]) continue;
      const modified = (await fs.stat(path.join(this.#dir, name)).catch(() => undefined))?.mtimeMs ?? Date.now();
      const entry = found.get(match[1]) ?? { widths: [], newest: 0 };
      entry.widths.push(Number(match[2]));
      entry.newest = Math.max(entry.newest, modified);
      found.set(match[1], entry);
    }
    return [...found]
      .filter(([, entry]) => entry.newest < before.getTime())
      .map(([key, entry]) => ({ key, widths: entry.widths }));
  }

  async removeLeftoversBefore(before: Date): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.#dir);
    } catch {
      return 0; // Nothing uploaded yet.
    }
    let removed = 0;
    for (const name of names.filter((n) => TEMPORARY_NAME.test(n))) {
      const file = path.join(this.#dir, name);
      const modified = (await fs.stat(file).catch(() => undefined))?.mtimeMs;
      if (modified === undefined || modified >= before.getTime()) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  #path(key: string, width: number): string {
    if (!/^[a-f0-9]{16,64}$/.test(key) || !Number.isInteger(width)) throw new Error(`not a photo key: ${key}`);
    return path.join(this.#dir, `${key}-${width}.webp`);
  }
}
