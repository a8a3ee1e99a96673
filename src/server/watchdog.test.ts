import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const watchdog = path.join(import.meta.dirname, 'watchdog.ts');

/** A child process that starts the watchdog, then does `then` (JavaScript source) on its main thread. */
function child(stallSeconds: number, then: string) {
  const source = `import { startWatchdog } from ${JSON.stringify(watchdog)};
    const dog = startWatchdog(${stallSeconds});
    ${then}`;
  const started = Date.now();
  const proc = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; ms: number; stderr: string }>((resolve) => {
    proc.on('close', (code, signal) => resolve({ code, signal, ms: Date.now() - started, stderr }));
  });
}

describe('the watchdog ends a process whose main thread cannot run any more', () => {
  it('kills a process whose event loop is stuck (as PGlite spinning on a full disk leaves it)', async () => {
    const result = await child(1, 'setTimeout(() => { for (;;) {} }, 100);');
    expect(result.signal).toBe('SIGKILL');
    expect(result.stderr).toMatch(/watchdog: the event loop has not turned for \d+ s/);
    expect(result.ms).toBeLessThan(10_000);
  });

  it('kills a process whose graceful stop overran its deadline while the loop was stuck', async () => {
    const result = await child(0, 'dog.stopping(500); setTimeout(() => { for (;;) {} }, 50);');
    expect(result.signal).toBe('SIGKILL');
    expect(result.stderr).toMatch(/graceful stop overran its time cap/);
  });

  it('leaves a healthy process alone, and never keeps it alive', async () => {
    const result = await child(1, 'setTimeout(() => {}, 1500);');
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stderr).toBe('');
  });
});
