import fs from 'node:fs';
import path from 'node:path';

const MB = 1024 * 1024;
/** statfs is a cheap system call, but a write path needs no fresher figure than this. */
const REFRESH_MS = 1000;

export interface DiskReport {
  path: string;
  freeMb: number;
  floorMb: number;
  /** Free space is above the floor (or the floor is off). */
  ok: boolean;
}

/**
 * Free space on the disk holding a directory, against a floor. PGlite cannot survive a full disk: when a new
 * write-ahead-log segment cannot be created it spins at 100% CPU and never returns, and a later start dies with
 * "PGlite failed to initialize properly". So writes are refused while free space is below the floor, well before
 * that point (the floor should leave room for a few 16 MB log segments and a checkpoint).
 */
export class DiskFloor {
  readonly path: string;
  readonly floorBytes: number;
  #freeBytes = Number.POSITIVE_INFINITY;
  #checkedAt = 0;

  constructor(directory: string, floorMb: number) {
    this.path = path.resolve(directory);
    this.floorBytes = floorMb * MB;
  }

  /** Free bytes, at most a second old; a directory that cannot be read counts as having no space. */
  freeBytes(): number {
    const now = Date.now();
    if (now - this.#checkedAt >= REFRESH_MS) {
      this.#checkedAt = now;
      this.#freeBytes = freeBytesOf(this.path);
    }
    return this.#freeBytes;
  }

  belowFloor(): boolean {
    return this.floorBytes > 0 && this.freeBytes() < this.floorBytes;
  }

  report(): DiskReport {
    const free = this.freeBytes();
    return {
      path: this.path,
      freeMb: Number.isFinite(free) ? Math.floor(free / MB) : -1,
      floorMb: this.floorBytes / MB,
      ok: !this.belowFloor(),
    };
  }
}

/** Free bytes for an unprivileged writer on the disk holding `directory` (or its nearest existing parent). */
export function freeBytesOf(directory: string): number {
  let dir = path.resolve(directory);
  for (;;) {
    try {
      const stats = fs.statfsSync(dir);
      return stats.bavail * stats.bsize;
    } catch (error) {
      const parent = path.dirname(dir);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) return 0;
      dir = parent;
    }
  }
}

/** What a statement does, for the floor: anything but a plain read may need new disk space. */
export function isReadOnlyStatement(statement: string): boolean {
  const text = statement.trimStart().slice(0, 4096).toLowerCase();
  if (
    /^(select|show|explain|values|begin|start transaction|commit|rollback|end|release|savepoint|set|reset)\b/.test(text)
  ) {
    // `select … for update` takes row locks, which PostgreSQL writes into the row: still fine, no new space.
    return true;
  }
  return /^with\b/.test(text) && !/\b(insert|update|delete|merge)\b/.test(text);
}
