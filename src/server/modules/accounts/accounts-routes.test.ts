import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { newestMailedToken, signUpAndVerify } from '../../../../test/support/sign-up.ts';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestContext } from '../../../../test/support/test-app.ts';
import { accountMessages, validationMessages as m } from '../../../shared/messages.ts';
import { mailOutbox, sessions, signupRequests, users } from '../../db/schema.ts';
import { BAD_CREDENTIALS_MESSAGE } from './accounts-service.ts';

let counter = 0;
const freshEmail = (prefix = 'acct') => `${prefix}${++counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** POST /api/signup as it is sent, nothing more. */
function requestSignUp(app: FastifyInstance, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/signup', payload });
}

/** A finished sign-up: the form sent, then the mailed link opened. `auth` is the session the link answered. */
async function signUp(
  context: TestContext,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
) {
  const payload = { name: 'Casey Rider', email: freshEmail(), password: 'ride-safe-123', ...overrides };
  const auth = await signUpAndVerify(context.app, context.database.db, payload);
  return { auth, payload };
}

async function expectUnchanged(context: TestContext, action: () => Promise<void>) {
  const before = await databaseChecksum(context.database.db);
  await action();
  expect(await databaseChecksum(context.database.db)).toEqual(before);
}

/** Every row of every table but the mail outbox, to show that an action wrote nothing but mail. */
async function checksumWithoutMail(context: TestContext) {
  const { mail_outbox: _mail, ...rest } = await databaseChecksum(context.database.db);
  return rest;
}

function mailsTo(context: TestContext, email: string) {
  return context.database.db
    .select({ kind: mailOutbox.kind, text: mailOutbox.text })
    .from(mailOutbox)
    .where(sql`lower(${mailOutbox.recipient}) = lower(${email})`)
    .orderBy(asc(mailOutbox.createdAt));
}

const verifyLink = (app: FastifyInstance, token: string | null) =>
  app.inject({ method: 'POST', url: '/api/email/verify', payload: { token } });

describeEachDatabase('accounts: sign-up', (ctx) => {
  it('answers a new and a taken email alike, byte for byte, and mails the owner of the taken one', async () => {
    const owner = await signUp(ctx(), { name: 'Olive Owner' });
    const mailsBefore = await mailsTo(ctx(), owner.payload.email);
    const fresh = freshEmail('new');

    const forNew = await requestSignUp(ctx().app, { name: 'Nia New', email: fresh, password: 'ride-safe-123' });
    const before = await checksumWithoutMail(ctx());
    const forTaken = await requestSignUp(ctx().app, {
      name: 'Mallory',
      email: owner.payload.email.toUpperCase(),
      password: 'mallory-knows-1',
    });

    expect(forTaken.statusCode).toBe(202);
    expect(forNew.statusCode).toBe(forTaken.statusCode);
    expect(forNew.headers['content-type']).toBe(forTaken.headers['content-type']);
    expect(forNew.body).toBe(forTaken.body);
    expect(forTaken.json()).toEqual({ message: accountMessages.signupCheckEmail });
    // The taken email: nothing but a mail to its owner, who is told how to sign in or reset the password.
    expect(await checksumWithoutMail(ctx())).toEqual(before);
    const mailed = (await mailsTo(ctx(), owner.payload.email)).slice(mailsBefore.length);
    expect(mailed.map((mail) => mail.kind)).toEqual(['account-exists']);
    expect(mailed[0]?.text).toContain('Olive Owner');
    expect(mailed[0]?.text).toContain('/login');
    expect(mailed[0]?.text).toContain('/forgot-password');
    expect(mailed[0]?.text).not.toMatch(/#token=/);
    // Mallory's password opens nothing; the owner's still does.
    const mallory = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: owner.payload.email, password: 'mallory-knows-1' },
    });
    expect(mallory.statusCode).toBe(401);
    const ownerIn = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: owner.payload.email, password: owner.payload.password },
    });
    expect(ownerIn.statusCode).toBe(200);
    // The new email: a link mailed to it, and no account yet.
    expect((await mailsTo(ctx(), fresh)).map((mail) => mail.kind)).toEqual(['verify-email']);
  });

  it('makes nothing usable until the link is opened; the link creates the account, verified, and signs in', async () => {
    const payload = { name: '  Casey Rider ', email: freshEmail(), password: 'ride-safe-123' };
    const res = await requestSignUp(ctx().app, payload);
    expect(res.statusCode).toBe(202);
    expect(await ctx().database.db.select().from(users).where(eq(users.email, payload.email))).toEqual([]);
    const early = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: payload.email, password: payload.password },
    });
    expect(early.statusCode).toBe(401);
    // The waiting sign-up keeps a scrypt hash and the link's HMAC, never either in clear.
    const [waiting] = await ctx()
      .database.db.select()
      .from(signupRequests)
      .where(eq(signupRequests.email, payload.email));
    expect(waiting?.passwordHash).toMatch(/^scrypt\$/);
    const link = await newestMailedToken(ctx().database.db, 'verify-email', payload.email);
    expect(link).toBeTruthy();
    expect(waiting?.tokenHash).not.toBe(link);

    const opened = await verifyLink(ctx().app, link);
    expect(opened.statusCode).toBe(200);
    const body = opened.json();
    const user = {
      email: payload.email,
      displayName: 'Casey Rider',
      isAdmin: false,
      emailVerified: true,
      hasPassword: true,
    };
    expect(body).toEqual({
      email: payload.email,
      emailVerified: true,
      token: expect.any(String),
      expiresAt: expect.any(String),
      user,
    });
    // Default lifetime: 24 hours.
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const me = await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(body.token) });
    expect(me.json()).toEqual(user);
    const [row] = await ctx().database.db.select().from(users).where(eq(users.email, payload.email));
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(row?.passwordHash).not.toContain(payload.password);
    const stored = await ctx()
      .database.db.select()
      .from(sessions)
      .where(eq(sessions.userId, row?.id ?? ''));
    expect(stored.map((s) => s.tokenHash)).not.toContain(body.token);
    const login = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: payload.email, password: payload.password },
    });
    expect(login.statusCode).toBe(200);
    // Once only.
    const again = await verifyLink(ctx().app, link);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_token');
  });

  it('lets the link of one of two sign-ups create the account; the other link then creates nothing', async () => {
    const email = freshEmail('twice');
    await requestSignUp(ctx().app, { name: 'First', email, password: 'first-password-1' });
    const first = await newestMailedToken(ctx().database.db, 'verify-email', email);
    await requestSignUp(ctx().app, { name: 'Second', email, password: 'second-password-2' });
    const second = await newestMailedToken(ctx().database.db, 'verify-email', email);
    expect(second).not.toBe(first);
    const opened = await verifyLink(ctx().app, second);
    expect(opened.json().user.displayName).toBe('Second');
    await expectUnchanged(ctx(), async () => {
      expect((await verifyLink(ctx().app, first)).statusCode).toBe(400);
    });
    const withFirst = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: 'first-password-1' },
    });
    expect(withFirst.statusCode).toBe(401);
  });

  it('answers 409 for a link whose email got an account meanwhile, and creates nothing', async () => {
    const email = freshEmail('meanwhile');
    await requestSignUp(ctx().app, { name: 'Late', email, password: 'ride-safe-123' });
    const link = await newestMailedToken(ctx().database.db, 'verify-email', email);
    await createUser(ctx(), { email: email.toUpperCase(), verified: true });
    const res = await verifyLink(ctx().app, link);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'email_taken', message: accountMessages.signupAccountExists } });
    const rows = await ctx().database.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
    expect(rows).toHaveLength(1);
  });

  it('answers concurrent links of one email with one account and refusals, never a 500', async () => {
    const email = freshEmail('race');
    const links: (string | null)[] = [];
    for (const e of [email, email.toUpperCase(), email, email.toUpperCase()]) {
      await requestSignUp(ctx().app, { name: 'Racer', email: e, password: 'ride-safe-123' });
      links.push(await newestMailedToken(ctx().database.db, 'verify-email', e));
    }
    const results = await Promise.all(links.map((token) => verifyLink(ctx().app, token)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const status of statuses) expect([200, 400, 409]).toContain(status);
    const rows = await ctx().database.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
    expect(rows).toHaveLength(1);
  });

  it('mails one address at most as often as the reset mails, with the same answer after', async () => {
    const owner = await signUp(ctx());
    const fresh = freshEmail('flood');
    for (let i = 0; i < 5; i++) {
      for (const email of [owner.payload.email, fresh]) {
        const res = await requestSignUp(ctx().app, { name: 'Flood', email, password: 'ride-safe-123' });
        expect(res.statusCode).toBe(202);
        expect(res.json()).toEqual({ message: accountMessages.signupCheckEmail });
      }
    }
    const limit = ctx().app.config.RATE_LIMIT_PASSWORD_RESET_PER_EMAIL;
    const ownerMails = await mailsTo(ctx(), owner.payload.email);
    expect(ownerMails.filter((mail) => mail.kind === 'account-exists')).toHaveLength(limit - 1);
    expect(await mailsTo(ctx(), fresh)).toHaveLength(limit);
  });

  it('validates as spec §5 says, with its exact messages, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A', email: '', password: 'secret-1' }, m.emailRequired],
      [{ name: 'A', password: 'secret-1' }, m.emailRequired],
      [{ name: 'A', email: 'not-an-email', password: 'secret-1' }, m.emailInvalid],
      // L5: any 2–63 letter ending is a real address now (`.comxx` too); a one-letter or numeric ending is not.
      [{ name: 'A', email: 'a@b.c', password: 'secret-1' }, m.emailInvalid],
      [{ name: 'A', email: 'a@b.c0m', password: 'secret-1' }, m.emailInvalid],
      [{ name: 'A', email: `a@b.${'x'.repeat(64)}`, password: 'secret-1' }, m.emailInvalid],
      [{ name: 'A', email: freshEmail(), password: '' }, m.passwordRequired],
      [{ name: 'A', email: freshEmail(), password: '12345' }, m.passwordTooShort],
      [{ name: 'A', email: freshEmail(), password: 'x'.repeat(129) }, m.passwordTooLong],
      [{ name: '   ', email: freshEmail(), password: 'secret-1' }, m.nameRequired],
      [{ email: freshEmail(), password: 'secret-1' }, m.nameRequired],
    ];
    for (const [payload, message] of cases) {
      await expectUnchanged(ctx(), async () => {
        const res = await ctx().app.inject({ method: 'POST', url: '/api/signup', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
        expect(res.json().error.message).toContain(message);
      });
    }
    const extra = await ctx().app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: 'A', email: freshEmail(), password: 'secret-1', admin: true },
    });
    expect(extra.statusCode).toBe(400);
  });
});

describeEachDatabase('accounts: sign-in and sign-out', (ctx) => {
  it('signs in with the right password, whatever the email case', async () => {
    const { payload } = await signUp(ctx());
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: payload.email.toUpperCase(), password: payload.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({
      email: payload.email,
      displayName: 'Casey Rider',
      isAdmin: false,
      emailVerified: true,
      hasPassword: true,
    });
    expect(
      (await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(res.json().token) })).statusCode,
    ).toBe(200);
  });

  it('answers a wrong password, an unknown email and a Google-only account with the same 401', async () => {
    const { payload } = await signUp(ctx());
    const googleOnly = await createUser(ctx());
    const attempts = [
      { email: payload.email, password: 'wrong-password' },
      { email: freshEmail('ghost'), password: payload.password },
      { email: googleOnly.email, password: 'whatever-1' },
    ];
    for (const attempt of attempts) {
      await expectUnchanged(ctx(), async () => {
        const res = await ctx().app.inject({ method: 'POST', url: '/api/login', payload: attempt });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'bad_credentials', message: BAD_CREDENTIALS_MESSAGE } });
      });
    }
  });

  it('spends the same scrypt work on an unknown email as on a wrong password', async () => {
    const { payload } = await signUp(ctx());
    const time = async (email: string) => {
      const started = performance.now();
      await ctx().app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'wrong-password' } });
      return performance.now() - started;
    };
    await time(freshEmail('warm'));
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(payload.email));
      unknown.push(await time(freshEmail('ghost')));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] ?? 0;
    // Without the dummy hash an unknown email answers in about a fiftieth of the time; the bounds leave room
    // for a busy machine.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('revokes the token on log out; logging out again or anonymously is still 204', async () => {
    const { auth } = await signUp(ctx());
    const token = auth.token;
    const other = await ctx().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: auth.user.email, password: 'ride-safe-123' },
    });
    const out = await ctx().app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    const after = await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('invalid_token');
    // Only that device signed out.
    expect(
      (await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(other.json().token) })).statusCode,
    ).toBe(200);
    expect((await ctx().app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) })).statusCode).toBe(
      204,
    );
    expect((await ctx().app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(204);
  });
});

describeEachDatabase('accounts: tokens', (ctx) => {
  it('GET /api/me refuses anonymous, tampered, expired and revoked tokens with 401', async () => {
    const anonymous = await ctx().app.inject({ method: 'GET', url: '/api/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('not_signed_in');

    const user = await createUser(ctx());
    const last = user.token.at(-1) === 'A' ? 'B' : 'A';
    for (const token of [`${user.token.slice(0, -1)}${last}`, `${user.token}x`, 'short', 'x'.repeat(500)]) {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_token');
    }

    const expired = await createUser(ctx());
    await ctx()
      .database.db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id));
    expect((await ctx().app.inject({ method: 'GET', url: '/api/me', headers: expired.headers })).statusCode).toBe(401);

    const revoked = await createUser(ctx());
    await ctx().app.services.sessions.revoke(revoked.token);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/me', headers: revoked.headers })).statusCode).toBe(401);
  });

  it('PUT /api/user/{email} gives a fresh token only for your own email and a valid session', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const url = (email: string) => `/api/user/${encodeURIComponent(email)}`;

    await expectUnchanged(ctx(), async () => {
      const anonymous = await ctx().app.inject({
        method: 'PUT',
        url: url(customer.email),
        payload: { email: customer.email },
      });
      expect(anonymous.statusCode).toBe(401);
      for (const caller of [other, admin]) {
        const res = await ctx().app.inject({ method: 'PUT', url: url(customer.email), headers: caller.headers });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
    });

    const own = await ctx().app.inject({
      method: 'PUT',
      url: url(customer.email.toUpperCase()),
      headers: customer.headers,
      payload: { email: customer.email },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ token: expect.any(String), expiresAt: expect.any(String) });
    expect(own.json().token).not.toBe(customer.token);
    const me = await ctx().app.inject({ method: 'GET', url: '/api/me', headers: bearer(own.json().token) });
    expect(me.json().email).toBe(customer.email);

    // An expired session cannot mint a new one.
    await ctx()
      .database.db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, other.id));
    const stale = await ctx().app.inject({ method: 'PUT', url: url(other.email), headers: other.headers });
    expect(stale.statusCode).toBe(401);
  });
});

describeEachDatabase('accounts: who may call what', (ctx) => {
  it('answers each route as its caller deserves: anonymous, customer, another customer, admin', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const call = (method: 'GET' | 'PUT' | 'POST', url: string, headers?: { authorization: string }) =>
      ctx().app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
    const own = encodeURIComponent(customer.email);
    const cases: [
      method: 'GET' | 'PUT' | 'POST',
      url: string,
      anonymous: number,
      self: number,
      otherCustomer: number,
      admin: number,
    ][] = [
      ['GET', '/api/me', 401, 200, 200, 200],
      ['GET', '/api/profile', 401, 200, 200, 200],
      ['POST', '/api/profile', 401, 200, 200, 200],
      ['PUT', `/api/user/${own}`, 401, 200, 403, 403],
      ['GET', `/api/admin/${own}`, 401, 200, 403, 200],
      ['GET', '/api/user', 401, 403, 403, 200],
      ['GET', '/api/auth/providers', 200, 200, 200, 200],
    ];
    for (const [method, url, ...expected] of cases) {
      const statuses = [];
      for (const headers of [undefined, customer.headers, other.headers, admin.headers]) {
        statuses.push((await call(method, url, headers)).statusCode);
      }
      expect(statuses, `${method} ${url}`).toEqual(expected);
    }
    expect((await call('GET', '/api/me', admin.headers)).json()).toEqual({
      email: admin.email,
      displayName: admin.displayName,
      isAdmin: true,
      emailVerified: false,
      hasPassword: false,
    });
    expect((await call('GET', '/api/auth/providers')).json()).toEqual({ google: false });
  });

  it('housekeeping drops expired and long-revoked sessions, and keeps live ones', async () => {
    const live = await createUser(ctx());
    const expired = await createUser(ctx());
    const revoked = await createUser(ctx());
    await ctx()
      .database.db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id));
    await ctx()
      .database.db.update(sessions)
      .set({ revokedAt: new Date(Date.now() - 8 * 24 * 3_600_000) })
      .where(eq(sessions.userId, revoked.id));
    await ctx().app.services.sessions.deleteExpired();
    const left = await ctx().database.db.select({ userId: sessions.userId }).from(sessions);
    const ids = left.map((row) => row.userId);
    expect(ids).toContain(live.id);
    expect(ids).not.toContain(expired.id);
    expect(ids).not.toContain(revoked.id);
  });
});

describeEachDatabase('accounts: roles', (ctx) => {
  it('GET /api/admin/{email}: yourself, or anyone when you are an admin', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const ask = (email: string, headers?: { authorization: string }) =>
      ctx().app.inject({ method: 'GET', url: `/api/admin/${encodeURIComponent(email)}`, headers });

    expect((await ask(customer.email)).statusCode).toBe(401);
    expect((await ask(customer.email, customer.headers)).json()).toEqual({ admin: false });
    expect((await ask(customer.email.toUpperCase(), customer.headers)).json()).toEqual({ admin: false });
    expect((await ask(other.email, customer.headers)).statusCode).toBe(403);
    expect((await ask(admin.email, customer.headers)).statusCode).toBe(403);
    expect((await ask(admin.email, admin.headers)).json()).toEqual({ admin: true });
    expect((await ask(customer.email, admin.headers)).json()).toEqual({ admin: false });
    expect((await ask('nobody@example.com', admin.headers)).statusCode).toBe(404);
  });

  it('GET /api/user lists every user for an admin only, without secrets', async () => {
    const customer = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    expect((await ctx().app.inject({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/user', headers: customer.headers })).statusCode).toBe(
      403,
    );
    const res = await ctx().app.inject({ method: 'GET', url: '/api/user', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list).toEqual(
      expect.arrayContaining([
        { _id: customer.id, email: customer.email, displayName: customer.displayName, admin: false },
        { _id: admin.id, email: admin.email, displayName: admin.displayName, admin: true },
      ]),
    );
    for (const row of list) expect(Object.keys(row).sort()).toEqual(['_id', 'admin', 'displayName', 'email']);
  });

  it('PUT /api/user/admin/{email}: admins only; the new role counts from the next request', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const promote = (email: string, headers?: { authorization: string }) =>
      ctx().app.inject({ method: 'PUT', url: `/api/user/admin/${encodeURIComponent(email)}`, headers });

    await expectUnchanged(ctx(), async () => {
      expect((await promote(customer.email)).statusCode).toBe(401);
      expect((await promote(customer.email, customer.headers)).statusCode).toBe(403);
      expect((await promote(customer.email, other.headers)).statusCode).toBe(403);
      const unknown = await promote('nobody@example.com', admin.headers);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('not_found');
    });

    // Same token as before: the role is read per request.
    expect((await ctx().app.inject({ method: 'GET', url: '/api/user', headers: customer.headers })).statusCode).toBe(
      403,
    );
    const made = await promote(customer.email.toUpperCase(), admin.headers);
    expect(made.json()).toEqual({ modifiedCount: 1 });
    expect((await ctx().app.inject({ method: 'GET', url: '/api/user', headers: customer.headers })).statusCode).toBe(
      200,
    );
    expect((await ctx().app.inject({ method: 'GET', url: '/api/me', headers: customer.headers })).json().isAdmin).toBe(
      true,
    );
    expect((await promote(customer.email, admin.headers)).json()).toEqual({ modifiedCount: 0 });
    // The new admin can now promote others.
    expect((await promote(other.email, customer.headers)).json()).toEqual({ modifiedCount: 1 });
  });
});

describeEachDatabase('accounts: profile', (ctx) => {
  const profile = {
    education: 'BSc Mechanical Engineering',
    phonenumber: '+1 555 0100',
    img: 'https://images.example.com/me.png',
    link: 'https://www.linkedin.com/in/casey',
  };

  it('is empty until saved, then saved per user and replaced on the next save', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const get = (headers: { authorization: string }) =>
      ctx().app.inject({ method: 'GET', url: '/api/profile', headers });
    expect((await get(customer.headers)).json()).toEqual({
      education: '',
      phonenumber: '',
      img: '',
      link: '',
      updatedAt: null,
    });

    const saved = await ctx().app.inject({
      method: 'POST',
      url: '/api/profile',
      headers: customer.headers,
      payload: profile,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ ...profile, updatedAt: expect.any(String) });
    expect((await get(customer.headers)).json()).toEqual({ ...profile, updatedAt: expect.any(String) });
    expect((await get(other.headers)).json().updatedAt).toBeNull();

    const again = await ctx().app.inject({
      method: 'POST',
      url: '/api/profile',
      headers: customer.headers,
      payload: { ...profile, education: 'MSc', img: '' },
    });
    expect(again.json()).toMatchObject({ education: 'MSc', img: '', link: profile.link });
  });

  it('refuses anonymous callers, non-http links and unknown fields, changing nothing', async () => {
    const customer = await createUser(ctx());
    await expectUnchanged(ctx(), async () => {
      expect((await ctx().app.inject({ method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
      expect((await ctx().app.inject({ method: 'POST', url: '/api/profile', payload: profile })).statusCode).toBe(401);
      const bad = [
        { ...profile, link: 'javascript:alert(1)' },
        { ...profile, img: 'data:image/png;base64,AAAA' },
        { ...profile, img: 'ftp://example.com/x.png' },
        { ...profile, phonenumber: '<script>' },
        { ...profile, email: 'someone@else.com' },
        { ...profile, education: 'x'.repeat(2001) },
      ];
      for (const payload of bad) {
        const res = await ctx().app.inject({ method: 'POST', url: '/api/profile', headers: customer.headers, payload });
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
      }
    });
  });
});

describe('the OpenAPI document', () => {
  describeEachDatabase('accounts routes', (ctx) => {
    it('lists every accounts route, the protected ones with bearer auth', async () => {
      const doc = (await ctx().app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      for (const path of [
        '/api/signup',
        '/api/login',
        '/api/logout',
        '/api/me',
        '/api/user/{email}',
        '/api/admin/{email}',
        '/api/user',
        '/api/user/admin/{email}',
        '/api/profile',
        '/api/auth/providers',
        '/api/auth/google',
        '/api/auth/google/callback',
      ]) {
        expect(doc.paths[path], path).toBeDefined();
      }
      expect(doc.paths['/api/user'].get.security).toEqual([{ bearerAuth: [] }]);
    });
  });
});
