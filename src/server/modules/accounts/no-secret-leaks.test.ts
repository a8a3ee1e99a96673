import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  googleSettingsFor,
  type LocalOidcProvider,
  startOidcProvider,
} from '../../../../test/support/oidc-provider.ts';
import { newestMailedToken } from '../../../../test/support/sign-up.ts';
import { TEST_SESSION_SECRET, testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { buildApp, loggerOptions } from '../../app.ts';
import { mailOutbox, users } from '../../db/schema.ts';

const provider: LocalOidcProvider = await startOidcProvider();
const env = googleSettingsFor(provider, { id: 'leak-test-client', secret: 'leak-test-client-secret-value' });
afterAll(async () => {
  await provider.stop();
});

describe.each(testDrivers)('no password, hash or token leaks [%s]', (driver) => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let log = '';

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const config = testConfig({ ...env, LOG_LEVEL: 'trace' });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    // The production logger settings, at the chattiest level, written to a string.
    const logger = { ...(loggerOptions(config) as object), level: 'trace', stream };
    app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('keeps secrets out of every log line and every answer except the token issuance itself', async () => {
    const password = 'Pa55word-that-must-not-leak';
    const email = `leak-${driver}@example.com`;
    const tokens: string[] = [];
    const secretsBesideTokens: string[] = [];
    const bodies: string[] = [];
    const call = async (options: InjectOptions, issuesToken = false) => {
      const res = await app.inject(options);
      if (issuesToken && res.statusCode < 300) tokens.push(res.json().token);
      else bodies.push(res.body);
      return res;
    };

    await call({ method: 'POST', url: '/api/signup', payload: { name: 'Leak Test', email, password } });
    // The sign-up's link is a secret too (in no log line); opening it issues the first token.
    const link = String(await newestMailedToken(database.db, 'verify-email', email));
    secretsBesideTokens.push(link);
    await call({ method: 'POST', url: '/api/email/verify', payload: { token: link } }, true);
    await call({ method: 'POST', url: '/api/signup', payload: { name: 'Leak Test', email, password } });
    await call({ method: 'POST', url: '/api/login', payload: { email, password } }, true);
    await call({ method: 'POST', url: '/api/login', payload: { email, password: `${password}-wrong` } });
    await call({ method: 'POST', url: '/api/login', payload: { email: 'bad', password } });
    await call({ method: 'POST', url: '/api/signup', payload: { name: '', email, password: 'short' } });
    await app.db.update(users).set({ isAdmin: true }).where(eq(users.email, email));
    const auth = { authorization: `Bearer ${tokens[0]}` };
    await call({ method: 'GET', url: '/api/me', headers: auth });
    await call({ method: 'PUT', url: `/api/user/${email}`, headers: auth, payload: { email } }, true);
    await call({ method: 'GET', url: `/api/admin/${email}`, headers: auth });
    await call({ method: 'GET', url: '/api/user', headers: auth });
    await call({ method: 'PUT', url: `/api/user/admin/${email}`, headers: auth });
    await call({
      method: 'POST',
      url: '/api/profile',
      headers: auth,
      payload: { education: 'x', phonenumber: '', img: '', link: '' },
    });
    await call({ method: 'GET', url: '/api/profile', headers: auth });
    await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tokens[1]}tampered` } });

    provider.signInAs({ sub: 'leak-sub', email: 'leak-google@example.com', email_verified: true, name: 'G' });
    const start = await call({ method: 'GET', url: '/api/auth/google' });
    const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
    const back = new URL(
      String((await fetch(String(start.headers.location), { redirect: 'manual' })).headers.get('location')),
    );
    const done = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
    const code = new URLSearchParams(String(done.headers.location).split('#')[1]).get('code');
    expect(code).toBeTruthy();
    const redeemed = await app.inject({
      method: 'POST',
      url: '/api/auth/google/redeem',
      headers: { cookie },
      payload: { code },
    });
    const googleToken = redeemed.json().token;
    expect(googleToken).toBeTruthy();
    tokens.push(String(googleToken));
    // The one-time code and the browser binding are secrets too: in no log line.
    secretsBesideTokens.push(String(code), cookie.slice('rl_google='.length));

    // The mailed links' tokens (the outbox holds them until delivery) never reach a log line.
    await call({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    await app.services.accounts.settled();
    const mails = await app.db.select({ text: mailOutbox.text }).from(mailOutbox);
    for (const mail of mails) {
      const link = /#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
      if (link) secretsBesideTokens.push(link);
    }

    await call({ method: 'POST', url: '/api/logout', headers: auth });

    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    const hash = String(row?.passwordHash);
    const hashedTokens = tokens.map((t) => app.services.sessions.hashToken(t));
    const secrets = [
      password,
      hash,
      hash.split('$').at(-1) ?? hash,
      ...tokens,
      ...hashedTokens,
      env.GOOGLE_CLIENT_SECRET,
      ...secretsBesideTokens,
    ];

    expect(log).toContain('/api/auth/google/callback');
    for (const secret of secrets) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 6)}…`).toBe(false);
      for (const body of bodies)
        expect(body.includes(secret), `a response contains ${secret.slice(0, 6)}…`).toBe(false);
    }
  });
});
