import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite has no server: two processes opening one data directory silently corrupt it. This lock file makes
 * the second process refuse to start with a clear message instead. A lock left by a killed process
 * (its pid no longer alive) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  makeDataDirPrivate(dataDir);
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The data directory ${path.resolve(dataDir)} is in use by another Redline Parts process (pid ${holder}). ` +
            'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${path.resolve(dataDir)}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The data directory holds the embedded database's files (password hashes, who is an admin), the session key and the
 * mail: they are the shop's user's alone. PGlite creates its files with mode 0666, so under the usual umask 022 any
 * local user could read them and, on a umask 000 machine, change them. From here on this process creates nothing
 * that its group or others may open (umask 077), and what an earlier start or a restore left open is closed now.
 */
export function makeDataDirPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  closeToOthers(dataDir);
}

/** Drops the group's and others' rights from a directory and everything under it (links are left as they are). */
function closeToOthers(entry: string): void {
  const stat = fs.lstatSync(entry);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(entry, stat.mode & 0o700);
  if (!stat.isDirectory()) return;
  for (const name of fs.readdirSync(entry)) closeToOthers(path.join(entry, name));
}
