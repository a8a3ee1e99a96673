import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUser, TEST_SESSION_SECRET, type TestContext, testConfig } from '../../../test/support/test-app.ts';
import { buildApp } from '../app.ts';
import { type DatabaseHandle, openPglite } from './client.ts';
import { DiskFloor, freeBytesOf, isReadOnlyStatement } from './disk-floor.ts';

/** A floor the test raises and lowers: "the disk" fills up and frees again. */
class TestFloor extends DiskFloor {
  full = false;
  override belowFloor(): boolean {
    return this.full;
  }
}

describe('the embedded database below its disk floor', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let ctx: TestContext;
  const disk = new TestFloor('.', 64);

  beforeAll(async () => {
    const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
    database = await openPglite(undefined, new Blob([snapshot]), disk);
    const config = testConfig();
    app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
    await app.ready();
    ctx = { driver: 'pglite', app, database: { ...database, url: null }, config };
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('refuses writes with 507 insufficient_storage and Retry-After, still serves reads, and health says why', async () => {
    const user = await createUser(ctx);
    // The health report's details are an admin's (the public learns only up or down).
    const admin = await createUser(ctx, { admin: true });
    disk.full = true;
    try {
      const signUp = await app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Full Disk', email: 'full.disk@example.com', password: 'Sturdy-Password-That-Is-Long-42' },
      });
      expect(signUp.statusCode).toBe(507);
      expect(signUp.headers['retry-after']).toBe('60');
      expect(signUp.json().error.code).toBe('insufficient_storage');

      const profile = await app.inject({
        method: 'POST',
        url: '/api/profile',
        headers: user.headers,
        payload: { education: 'x', phonenumber: '', img: '', link: '' },
      });
      expect(profile.statusCode).toBe(507);

      expect((await app.inject({ method: 'GET', url: '/api/part' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/me', headers: user.headers })).statusCode).toBe(200);

      const health = await app.inject({ method: 'GET', url: '/api/health', headers: admin.headers });
      expect(health.statusCode).toBe(503);
      expect(health.json().error.code).toBe('insufficient_storage');
      expect(health.json().error.details[0]).toMatchObject({
        database: { reachable: true, writable: false, reason: 'disk_below_floor' },
        disk: { ok: false, holdsDatabase: true },
      });
    } finally {
      disk.full = false;
    }
    // Space again: writes go through and health is back, without a restart.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: '/api/profile',
      headers: user.headers,
      payload: { education: 'x', phonenumber: '', img: '', link: '' },
    });
    expect(again.statusCode).toBe(200);
  });
});

describe('disk-floor helpers', () => {
  it('reads free space of a directory, or of its nearest existing parent', () => {
    expect(freeBytesOf('.')).toBeGreaterThan(0);
    expect(freeBytesOf('./no/such/dir/below/here')).toBe(freeBytesOf('.'));
  });

  it('a floor of 0 is off; a floor above the disk is below it', () => {
    expect(new DiskFloor('.', 0).belowFloor()).toBe(false);
    expect(new DiskFloor('.', 1_000_000_000).belowFloor()).toBe(true);
    expect(new DiskFloor('.', 1).report()).toMatchObject({ ok: true, floorMb: 1 });
  });

  it('tells reads from statements that may need space', () => {
    for (const read of [
      'select 1',
      '  SELECT * FROM parts',
      'with a as (select 1) select * from a',
      'begin',
      'commit',
      'rollback',
      'SET statement_timeout = 0',
      'show server_version',
    ]) {
      expect(isReadOnlyStatement(read), read).toBe(true);
    }
    for (const write of [
      'insert into t values (1)',
      'update t set a = 1',
      'delete from t',
      'with x as (insert into t values (1) returning *) select * from x',
      'create table t (a int)',
      'vacuum',
      'copy t from stdin',
    ]) {
      expect(isReadOnlyStatement(write), write).toBe(false);
    }
  });
});
