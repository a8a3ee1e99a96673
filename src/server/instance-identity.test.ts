import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instanceIdentity } from './instance-identity.ts';

describe('the instance identity a restart recognises itself by', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-identity-'));
    dirs.push(dir);
    return dir;
  };

  it('is the same for a restart on the same DATA_DIR and port, another for another port or DATA_DIR', () => {
    const dir = dataDir();
    const first = instanceIdentity({ DATA_DIR: dir, PORT: 3001 });
    expect(first.persisted).toBe(true);
    expect(fs.statSync(path.join(dir, 'instance-id')).mode & 0o777).toBe(0o600);
    expect(instanceIdentity({ DATA_DIR: dir, PORT: 3001 }).id).toBe(first.id);
    // A second instance sharing the DATA_DIR (PostgreSQL) listens on another port: another name.
    expect(instanceIdentity({ DATA_DIR: dir, PORT: 3002 }).id).not.toBe(first.id);
    expect(instanceIdentity({ DATA_DIR: dataDir(), PORT: 3001 }).id).not.toBe(first.id);
  });

  it('is INSTANCE_ID when set, and a random one for this process when DATA_DIR cannot be written', () => {
    expect(instanceIdentity({ INSTANCE_ID: 'shop-a', DATA_DIR: dataDir(), PORT: 3000 })).toEqual({
      id: 'shop-a',
      persisted: true,
    });
    const blocked = path.join(dataDir(), 'a-file');
    fs.writeFileSync(blocked, '');
    const lost = instanceIdentity({ DATA_DIR: path.join(blocked, 'data'), PORT: 3000 });
    expect(lost.persisted).toBe(false);
    expect(instanceIdentity({ DATA_DIR: path.join(blocked, 'data'), PORT: 3000 }).id).not.toBe(lost.id);
  });
});
