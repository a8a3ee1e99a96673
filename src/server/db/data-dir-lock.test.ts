import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.ts';

describe('the PGlite data directory lock', () => {
  it('refuses a second holder while the first is alive, and frees on release', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-lock-'));
    // A live process other than us holds it: simulate with the parent's pid (always alive).
    fs.writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(/in use by another Redline Parts process/);
    fs.rmSync(path.join(dir, 'server.lock'));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock left by a process that was killed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-lock-'));
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid;
    await new Promise((resolve) => child.on('exit', resolve));
    fs.writeFileSync(path.join(dir, 'server.lock'), String(deadPid));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
