import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealthy } from '../../test/support/server-process.ts';

const dataDirs: string[] = [];
const freshDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-main-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const PLAIN_LINE = /^Admin sign-in: admin@redline\.dev \/ (\S+) \(shown once[^\n]*$/gm;

describe('the first start announces the generated admin sign-in', () => {
  it('prints one plain line on stderr before "serving", never in the JSON log, and only on the seeding start', async () => {
    const dataDir = freshDataDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: '', ADMIN_EMAIL: '' }, port);
    let stdout = '';
    let stderr = '';
    first.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    first.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await waitForHealthy(first);
    const output = first.output();

    const lines = [...output.matchAll(PLAIN_LINE)];
    expect(lines).toHaveLength(1);
    const password = lines[0]?.[1] ?? '';
    // Shown in the plain line on stderr, nowhere else: no JSON log record holds it.
    expect(output.split(password)).toHaveLength(2);
    expect(stdout).not.toContain(password);
    expect(stderr).toContain(`Admin sign-in: admin@redline.dev / ${password} `);
    for (const line of output.split('\n').filter((l) => l.startsWith('{'))) expect(line).not.toContain(password);
    // Whoever reads up to "listening" or "serving" has already seen it.
    expect(output.indexOf('Admin sign-in:')).toBeLessThan(output.indexOf('Server listening at'));
    expect(output.indexOf('Admin sign-in:')).toBeLessThan(output.indexOf('Redline Parts is serving on'));

    const login = await fetch(`${first.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@redline.dev', password }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: { isAdmin: boolean } }).user.isAdmin).toBe(true);
    expect(await first.stop()).toBe(0);

    const second = startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: '', ADMIN_EMAIL: '' }, port);
    await waitForHealthy(second);
    expect(second.output()).not.toMatch(/Admin sign-in:/);
    expect(second.output()).not.toContain(password);
    expect(await second.stop()).toBe(0);
  }, 90_000);
});
