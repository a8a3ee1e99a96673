import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, safeLoggerOptions } from './log-safety.ts';

/** An app with the production logger settings at `level`, its lines collected. */
async function appAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { ...(safeLoggerOptions(level) as object), stream },
    childLoggerFactory: lazyChildLogger,
    disableRequestLogging: true,
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/loud', async (request) => {
    request.log.info({ email: 'someone@example.com' }, 'an info line');
    request.log.warn({ email: 'someone@example.com' }, 'a warning');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

describe('the lazy request logger (issue 15)', () => {
  it('writes what the level allows, with the request id, and redacted as before', async () => {
    const { app, lines } = await appAt('warn');
    const res = await app.inject({ method: 'GET', url: '/loud' });
    expect(res.statusCode).toBe(200);
    expect(lines.map((l) => l.msg)).toEqual(['a warning']);
    expect(lines[0]).toMatchObject({ reqId: expect.any(String), email: '[redacted]', level: 40 });
    await app.close();
  });

  it('makes no pino child for a request that writes nothing', async () => {
    const { app } = await appAt('warn');
    let children = 0;
    const child = app.log.child.bind(app.log);
    app.log.child = (...args: Parameters<typeof child>) => {
      children += 1;
      return child(...args);
    };
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(children).toBe(0);
    await app.inject({ method: 'GET', url: '/loud' });
    expect(children).toBe(1);
    await app.close();
  });

  it('at info, both lines with the same request id', async () => {
    const { app, lines } = await appAt('info');
    await app.inject({ method: 'GET', url: '/loud' });
    expect(lines.map((l) => l.msg)).toEqual(['an info line', 'a warning']);
    expect(lines[0]?.reqId).toBe(lines[1]?.reqId);
    await app.close();
  });
});
