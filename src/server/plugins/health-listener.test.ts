import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/test-app.ts';
import { closeHealthListener, listenForHealth } from './health-listener.ts';

let listener: http.Server | undefined;
afterEach(async () => {
  if (listener) await closeHealthListener(listener);
  listener = undefined;
});

describeEachDatabase('health listener (HEALTH_PORT)', (ctx) => {
  it('answers both health checks through the app, and nothing else', async () => {
    const { app } = ctx();
    listener = await listenForHealth(app, { port: 0, host: '127.0.0.1', headersTimeoutMs: 5000 });
    const { port } = listener.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    const ready = await fetch(`${base}/api/health`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; database: { reachable: boolean; writable: boolean } };
    expect(body.status).toBe('ok');
    expect(body.database).toMatchObject({ reachable: true, writable: true });

    const live = await fetch(`${base}/api/health/live?probe=1`);
    expect(live.status).toBe(200);

    for (const [method, url] of [
      ['GET', '/api/part'],
      ['GET', '/api/me'],
      ['POST', '/api/health'],
      ['GET', '/api/healthz'],
    ] as const) {
      const other = await fetch(`${base}${url}`, { method });
      expect(other.status, `${method} ${url}`).toBe(404);
      expect(((await other.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});
