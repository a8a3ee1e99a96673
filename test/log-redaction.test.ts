import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../src/server/app.ts';
import { parts } from '../src/server/db/schema.ts';
import { scrubMessage, scrubUrl, serializeError } from '../src/server/log-safety.ts';
import { createUser, TEST_SESSION_SECRET, type TestContext, testConfig } from './support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from './support/test-database.ts';

/**
 * Issue 11, item 1: a failed statement is logged with its text, never its values. Inserts are made to fail by a
 * trigger (whose error even carries the row's email in its DETAIL, as a unique violation would), then every log line
 * is searched for what the client sent: email, name, password and its hash, address, phone.
 */
describe.each(testDrivers)('database failures keep personal data out of the logs [%s]', (driver) => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let log = '';

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const config = testConfig({ LOG_LEVEL: 'trace' });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    // The production logger settings at the chattiest level, written to a string.
    const logger = { ...(loggerOptions(config) as object), level: 'trace', stream };
    app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger });
    await app.ready();
    await database.db.execute(sql`
      create or replace function log_test_refuse() returns trigger language plpgsql as $$
      begin
        raise exception 'refused by the log test'
          using detail = 'Failing row contains (' || coalesce(to_jsonb(new)::text, '') || ')';
      end $$`);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('a failing sign-up logs the statement and its error code, not the email, name, password or hash', async () => {
    await database.db.execute(
      sql`create trigger log_test_signups before insert on signup_requests for each row execute function log_test_refuse()`,
    );
    const sent = {
      name: 'Zebulon Quartermaine',
      email: `zebulon.q.${driver}@leak-test.example`,
      password: 'Unguessable-Sentence-47-Walrus',
    };
    log = '';
    const res = await app.inject({ method: 'POST', url: '/api/signup', payload: sent });
    await database.db.execute(sql`drop trigger log_test_signups on signup_requests`);

    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(log).toMatch(/insert into \\"signup_requests\\"/);
    expect(log).toContain('P0001');
    expect(log).toContain('refused by the log test');
    for (const value of [sent.name, sent.email, sent.password, 'Zebulon', 'leak-test.example', 'scrypt$']) {
      expect(log, `log lines contain ${value}`).not.toContain(value);
    }
  });

  it('a failing order logs the statement, not the buyer, address or phone', async () => {
    const ctx: TestContext = { driver, app, database, config: testConfig() };
    const buyer = await createUser(ctx, {
      email: `order-leak-${driver}@leak-test.example`,
      displayName: 'Ottoline Vex',
    });
    const [part] = await database.db
      .insert(parts)
      .values({ name: 'Log Test Part', img: '/images/parts/brake-disc.svg', priceCents: 1000, availableQuantity: 100 })
      .returning({ id: parts.id });
    await database.db.execute(
      sql`create trigger log_test_orders before insert on orders for each row execute function log_test_refuse()`,
    );
    const sent = { partId: part?.id, quantity: 2, address: '17 Cherrywood Lane, Marlport', phone: '+44 20 7946 0991' };
    log = '';
    const res = await app.inject({ method: 'POST', url: '/api/myorder', headers: buyer.headers, payload: sent });
    await database.db.execute(sql`drop trigger log_test_orders on orders`);

    expect(res.statusCode).toBe(500);
    // The placing statement's head (the log keeps a statement's first 2,000 characters): its count of held orders.
    expect(log).toMatch(/from \\"orders\\" o/);
    for (const value of [sent.address, 'Cherrywood', sent.phone, '7946', buyer.email, 'Ottoline', buyer.token]) {
      expect(log, `log lines contain ${value}`).not.toContain(value);
    }
  });

  it('an email in a request URL is not logged', async () => {
    const admin = await createUser({ driver, app, database, config: testConfig() }, { admin: true });
    log = '';
    await app.inject({
      method: 'GET',
      url: '/api/myorder?email=hidden.person%40leak-test.example',
      headers: admin.headers,
    });
    await app.inject({ method: 'GET', url: '/api/admin/hidden.person@leak-test.example', headers: admin.headers });
    expect(log).toContain('incoming request');
    expect(log).not.toMatch(/hidden\.person|leak-test\.example/);
  });

  it("Google's callback code and state are not logged", async () => {
    log = '';
    await app.inject({
      method: 'GET',
      url: '/api/auth/google/callback?code=one-time-code-leak-test&state=state-leak-test',
    });
    expect(log).toContain('/api/auth/google/callback');
    expect(log).not.toMatch(/one-time-code-leak-test|state-leak-test/);
  });
});

describe('log-safety helpers', () => {
  it('drops Drizzle parameters and quoted values from messages, keeps quoted names', () => {
    expect(scrubMessage('Failed query: insert into "users" values ($1)\nparams: a@b.c,Name,scrypt$1$2')).toBe(
      'Failed query: insert into "users" values ($1)\nparams: [redacted]',
    );
    expect(scrubMessage('invalid input syntax for type uuid: "secret-ish"')).toBe(
      'invalid input syntax for type uuid: "[redacted]"',
    );
    expect(scrubMessage('duplicate key value violates unique constraint "users_email_unique"')).toBe(
      'duplicate key value violates unique constraint "users_email_unique"',
    );
  });

  it('serialises an error from safe fields only, through its causes', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
      code: '23505',
      constraint: 'users_email_unique',
      detail: 'Key (email)=(x@y.z) already exists.',
      where: 'SQL statement',
      parameters: ['x@y.z'],
    });
    const error = Object.assign(new Error('Failed query: insert into users\nparams: x@y.z'), {
      query: 'insert into users',
      params: ['x@y.z'],
      cause,
    });
    const out = JSON.stringify(serializeError(error));
    expect(out).not.toContain('x@y.z');
    expect(out).toContain('23505');
    expect(out).toContain('users_email_unique');
    expect(out).toContain('insert into users');
  });

  it('scrubs emails from URLs', () => {
    expect(scrubUrl('/api/user/a.b%40c.com?x=1')).toBe('/api/user/[redacted]?x=1');
    expect(scrubUrl('/api/myorder?email=a@b.c&limit=5')).toBe('/api/myorder?email=[redacted]&limit=5');
    expect(scrubUrl('/api/part/123')).toBe('/api/part/123');
  });

  it('scrubs the search of the admin lists of people (a name is personal data), not the catalogue search', () => {
    expect(scrubUrl('/api/user?q=Rita%20Rider&limit=25')).toBe('/api/user?q=[redacted]&limit=25');
    expect(scrubUrl('/api/allorder?limit=25&q=rita')).toBe('/api/allorder?limit=25&q=[redacted]');
    expect(scrubUrl('/api/part?q=brake&limit=5')).toBe('/api/part?q=brake&limit=5');
  });

  it("drops the query of auth routes (Google's one-time code and state) and credential parameters anywhere", () => {
    expect(scrubUrl('/api/auth/google/callback?code=4%2F0AeanS-secret&state=st4te-value&scope=email')).toBe(
      '/api/auth/google/callback?[redacted]',
    );
    expect(scrubUrl('/api/auth/google/callback')).toBe('/api/auth/google/callback');
    expect(scrubUrl('/api/verify-email?token=abc123&next=%2F')).toBe('/api/verify-email?token=[redacted]&next=%2F');
    expect(scrubUrl('/api/part?q=brake&limit=5')).toBe('/api/part?q=brake&limit=5');
  });
});
