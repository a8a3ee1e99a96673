import fs from 'node:fs';
import path from 'node:path';

/** Every entry under `dir` (itself included) that its group or others may read, write or enter. */
export function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, entry) || '.'}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dir);
  return found;
}
