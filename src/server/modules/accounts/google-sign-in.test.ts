import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  googleSettingsFor,
  type LocalOidcProvider,
  startOidcProvider,
} from '../../../../test/support/oidc-provider.ts';
import { newestMailedToken } from '../../../../test/support/sign-up.ts';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createTestApp, describeEachDatabase, type TestContext } from '../../../../test/support/test-app.ts';
import { testDrivers } from '../../../../test/support/test-database.ts';
import { accountMessages, googleSignInErrors } from '../../../shared/messages.ts';
import { loadConfig } from '../../config.ts';
import { accountTokens, mailOutbox, oauthStates, users } from '../../db/schema.ts';
import { hashPassword } from './password-hasher.ts';

// The provider must exist before the apps are built: their config names its issuer.
const provider: LocalOidcProvider = await startOidcProvider();
const googleEnv = googleSettingsFor(provider);
afterAll(async () => {
  await provider.stop();
});

interface RoundTrip {
  location: string;
  fragment: URLSearchParams;
  /** The browser's `rl_google` cookie (`rl_google=…`), as the browser would send it back. */
  cookie: string;
}

/** The `name=value` of the rl_google cookie a response sets, and its attributes. */
function googleCookie(res: { headers: Record<string, unknown> }): { pair: string; attributes: string } {
  const header = String(res.headers['set-cookie'] ?? '');
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  return { pair, attributes: attributes.join('; ') };
}

/** Our start URL in one browser (its cookie jar is `cookie`); answers the provider URL and the cookie it holds now. */
async function startIn(app: FastifyInstance, returnTo = '/allparts', cookie?: string) {
  const start = await app.inject({
    method: 'GET',
    url: `/api/auth/google?returnTo=${encodeURIComponent(returnTo)}`,
    headers: cookie ? { cookie } : {},
  });
  expect(start.statusCode).toBe(302);
  return { authorize: new URL(String(start.headers.location)), cookie: googleCookie(start).pair || cookie || '' };
}

/** The provider's /authorize (real HTTP): answers our callback path with its query. */
async function atProvider(authorize: URL): Promise<string> {
  expect(authorize.origin).toBe(provider.issuer);
  const res = await fetch(authorize, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(String(res.headers.get('location')));
  expect(back.origin + back.pathname).toBe('http://shop.test/api/auth/google/callback');
  return back.pathname + back.search;
}

/** Browser steps, by hand: our start URL → the provider's /authorize → our callback, all in ONE browser. */
async function signInWithGoogle(app: FastifyInstance, returnTo = '/allparts'): Promise<RoundTrip> {
  const { authorize, cookie } = await startIn(app, returnTo);
  return finish(app, await atProvider(authorize), cookie);
}

async function finish(app: FastifyInstance, url: string, cookie?: string): Promise<RoundTrip> {
  const res = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(302);
  const location = String(res.headers.location);
  expect(location.startsWith('/auth/callback#')).toBe(true);
  // H2: the callback never hands over a bearer token; only a one-time code, or an error code.
  expect(location).not.toMatch(/token=/);
  return {
    location,
    fragment: new URLSearchParams(location.slice(location.indexOf('#') + 1)),
    cookie: cookie ?? '',
  };
}

function redeem(app: FastifyInstance, code: string | null, cookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/google/redeem',
    headers: cookie ? { cookie } : {},
    payload: { code: code ?? '' },
  });
}

/** The whole sign-in in one browser, to the session token the web app stores. */
async function tokenFor(app: FastifyInstance, returnTo = '/allparts'): Promise<string> {
  const trip = await signInWithGoogle(app, returnTo);
  expect(trip.fragment.get('error'), trip.location).toBeNull();
  const res = await redeem(app, trip.fragment.get('code'), trip.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

async function me(app: FastifyInstance, token: string | null) {
  return app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
}

describeEachDatabase(
  'Sign In With Google',
  (ctx) => {
    it('says Google is configured', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(res.json()).toEqual({ google: true });
    });

    it('sends the browser to the provider with state, nonce and an S256 PKCE challenge, and keeps them server-side', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/auth/google?returnTo=/part/abc' });
      expect(res.statusCode).toBe(302);
      const url = new URL(String(res.headers.location));
      expect(url.searchParams.get('client_id')).toBe('redline-test-client');
      expect(url.searchParams.get('redirect_uri')).toBe('http://shop.test/api/auth/google/callback');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('scope')).toContain('openid');
      const state = url.searchParams.get('state') ?? '';
      const [saved] = await ctx().database.db.select().from(oauthStates).where(eq(oauthStates.state, state));
      expect(saved).toMatchObject({ nonce: url.searchParams.get('nonce'), returnTo: '/part/abc' });
      expect(saved?.expiresAt.getTime()).toBeGreaterThan(Date.now());
      // The verifier itself never leaves the server.
      expect(res.headers.location).not.toContain(saved?.codeVerifier ?? 'missing');
      // H2: the browser binding is an HttpOnly, SameSite=Lax cookie scoped to /api/auth for ten minutes; the
      // database keeps only its keyed hash.
      const cookie = googleCookie(res);
      expect(cookie.pair).toMatch(/^rl_google=[A-Za-z0-9_-]{43}$/);
      expect(cookie.attributes).toMatch(/HttpOnly/);
      expect(cookie.attributes).toMatch(/SameSite=Lax/);
      expect(cookie.attributes).toMatch(/Path=\/api\/auth/);
      expect(cookie.attributes).toMatch(/Max-Age=600/);
      expect(cookie.attributes).not.toMatch(/Secure/); // PUBLIC_URL is http here
      expect(saved?.bindingHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(saved)).not.toContain(cookie.pair.slice('rl_google='.length));
    });

    it('creates a new user named by the provider, and hands over a one-time code (never a token) that becomes a session', async () => {
      provider.signInAs({ sub: 'g-new-1', email: 'New.Rider@Example.com', email_verified: true, name: 'Nina Rider' });
      const trip = await signInWithGoogle(ctx().app, '/allparts');
      expect(trip.fragment.get('returnTo')).toBe('/allparts');
      expect(trip.fragment.get('token')).toBeNull();
      const redeemed = await redeem(ctx().app, trip.fragment.get('code'), trip.cookie);
      expect(redeemed.statusCode).toBe(200);
      // The cookie is cleared once it has done its job.
      expect(googleCookie(redeemed).attributes).toMatch(/Max-Age=0/);
      const res = await me(ctx().app, redeemed.json().token);
      expect(res.json()).toEqual({
        email: 'New.Rider@Example.com',
        displayName: 'Nina Rider',
        isAdmin: false,
        // Google verified the address; the account has no password.
        emailVerified: true,
        hasPassword: false,
      });
      const [row] = await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-new-1'));
      expect(row?.passwordHash).toBeNull();

      // The same Google account signs in again to the same user.
      const again = await tokenFor(ctx().app, '/');
      expect((await me(ctx().app, again)).json().email).toBe('New.Rider@Example.com');
      const count = await ctx()
        .database.db.select()
        .from(users)
        .where(sql`lower(${users.email}) = 'new.rider@example.com'`);
      expect(count).toHaveLength(1);
    });

    it('H2: the one-time code works once, for 60 seconds, and only with the cookie of the browser that started', async () => {
      provider.signInAs({ sub: 'g-code', email: 'code@example.com', email_verified: true, name: 'Cody' });
      const trip = await signInWithGoogle(ctx().app);
      const code = trip.fragment.get('code');
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [stored] = await ctx()
        .database.db.select()
        .from(accountTokens)
        .where(eq(accountTokens.purpose, 'google_code'));
      expect(JSON.stringify(stored)).not.toContain(code);
      const lifetime = (stored?.expiresAt.getTime() ?? 0) - (stored?.createdAt.getTime() ?? 0);
      expect(lifetime).toBeGreaterThan(55_000);
      expect(lifetime).toBeLessThanOrEqual(61_000);

      const other = await startIn(ctx().app);
      for (const attempt of [undefined, other.cookie, 'rl_google=not-the-right-shape']) {
        const refused = await redeem(ctx().app, code, attempt);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({ error: { code: 'invalid_code', message: accountMessages.invalidGoogleCode } });
      }
      const first = await redeem(ctx().app, code, trip.cookie);
      expect(first.statusCode).toBe(200);
      const replay = await redeem(ctx().app, code, trip.cookie);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error.code).toBe('invalid_code');

      // A code whose minute ran out is refused even with the right cookie.
      const late = await signInWithGoogle(ctx().app);
      await ctx()
        .database.db.update(accountTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(sql`${accountTokens.usedAt} is null and ${accountTokens.purpose} = 'google_code'`);
      expect((await redeem(ctx().app, late.fragment.get('code'), late.cookie)).statusCode).toBe(400);
    });

    it('H2: a callback link from someone else’s sign-in (login CSRF) is refused in a browser without, or with another, cookie', async () => {
      // The attacker signs in with their own Google account in their own browser, and stops at the callback.
      provider.signInAs({ sub: 'g-attacker', email: 'mallory@example.com', email_verified: true, name: 'Mallory' });
      const victim = await startIn(ctx().app, '/'); // the victim's browser has a cookie of its own
      const before = await databaseChecksum(ctx().database.db);
      for (const cookie of [undefined, victim.cookie]) {
        const attacker = await startIn(ctx().app);
        const callback = await atProvider(attacker.authorize);
        const trip = await finish(ctx().app, callback, cookie);
        expect(trip.fragment.get('error')).toBe('browser_mismatch');
        expect(trip.fragment.get('code')).toBeNull();
      }
      // Nothing but the spent state: no user, no session, no code.
      const after = await databaseChecksum(ctx().database.db);
      expect({ ...after, oauth_states: '' }).toEqual({ ...before, oauth_states: '' });
      expect(await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-attacker'))).toHaveLength(0);
    });

    it('H1: never links Google into a password account whose email is not verified; links after verification', async () => {
      // Mallory registered the victim's address first, with a password of hers, and never verified it: an account
      // as sign-up made them before a sign-up waited for its link.
      const passwordHash = await hashPassword('secret-123', { N: 2 ** 10, r: 8, p: 1 });
      const [mallory] = await ctx()
        .database.db.insert(users)
        .values({ email: 'pat@example.com', displayName: 'Pat Password', passwordHash })
        .returning({ id: users.id });
      const session = await ctx().app.sessions.create(mallory?.id ?? '');
      await ctx().app.inject({
        method: 'POST',
        url: '/api/email/verify/resend',
        headers: { authorization: `Bearer ${session.token}` },
      });
      const before = await databaseChecksum(ctx().database.db);
      // The real owner signs in with Google: refused, nothing linked, Mallory's session untouched.
      provider.signInAs({ sub: 'g-pat', email: 'PAT@example.com', email_verified: true, name: 'Patricia G' });
      const refused = await signInWithGoogle(ctx().app);
      expect(refused.fragment.get('error')).toBe('password_sign_in_required');
      expect(refused.fragment.get('code')).toBeNull();
      const after = await databaseChecksum(ctx().database.db);
      expect({ ...after, oauth_states: '' }).toEqual({ ...before, oauth_states: '' });
      expect((await me(ctx().app, session.token)).statusCode).toBe(200);

      // Once the address is proven (the mailed link), Google links, every other session of the account ends and
      // its owner is told by mail.
      const [row] = await ctx().database.db.select().from(users).where(eq(users.email, 'pat@example.com'));
      const [mail] = await ctx().database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'verify-email'));
      const token = /verify-email#token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
      const verified = await ctx().app.inject({ method: 'POST', url: '/api/email/verify', payload: { token } });
      expect(verified.statusCode).toBe(200);
      const linked = await tokenFor(ctx().app);
      expect((await me(ctx().app, linked)).json()).toMatchObject({
        email: 'pat@example.com',
        displayName: 'Pat Password',
      });
      const [after2] = await ctx()
        .database.db.select()
        .from(users)
        .where(eq(users.id, row?.id ?? ''));
      expect(after2?.googleSubject).toBe('g-pat');
      expect((await me(ctx().app, session.token)).statusCode).toBe(401);
      const mails = await ctx()
        .database.db.select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'sign-in-method-linked'));
      expect(mails.map((m) => [m.recipient, m.subject])).toEqual([
        ['pat@example.com', 'Google sign-in was linked to your Redline Parts account'],
      ]);
      // The password still works.
      const login = await ctx().app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'pat@example.com', password: 'secret-123' },
      });
      expect(login.statusCode).toBe(200);
    });

    it('creates the account of a Google sign-in while a sign-up of its email waits; that link then answers 409', async () => {
      await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Wanda Waiting', email: 'wanda@example.com', password: 'secret-123' },
      });
      provider.signInAs({ sub: 'g-wanda', email: 'wanda@example.com', email_verified: true, name: 'Wanda G' });
      expect((await me(ctx().app, await tokenFor(ctx().app))).json()).toMatchObject({ email: 'wanda@example.com' });
      const link = await newestMailedToken(ctx().database.db, 'verify-email', 'wanda@example.com');
      const late = await ctx().app.inject({ method: 'POST', url: '/api/email/verify', payload: { token: link } });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('email_taken');
      const login = await ctx().app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'wanda@example.com', password: 'secret-123' },
      });
      expect(login.statusCode).toBe(401);
    });

    it('never links or creates an account for an unverified Google email', async () => {
      await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Vera Victim', email: 'vera@example.com', password: 'secret-123' },
      });
      const before = await databaseChecksum(ctx().database.db);
      for (const email of ['vera@example.com', 'nobody-yet@example.com']) {
        provider.signInAs({ sub: `g-unverified-${email}`, email, email_verified: false, name: 'Mallory' });
        const { fragment } = await signInWithGoogle(ctx().app);
        expect(fragment.get('code')).toBeNull();
        expect(fragment.get('error')).toBe('unverified_email');
      }
      // Only the spent states changed: no user, no session, no link.
      const after = await databaseChecksum(ctx().database.db);
      expect({ ...after, oauth_states: '' }).toEqual({ ...before, oauth_states: '' });
    });

    it('refuses a provider answer without an email, or with one our own forms would refuse (L5)', async () => {
      provider.signInAs({ sub: 'g-no-email', name: 'No Mail' });
      expect((await signInWithGoogle(ctx().app)).fragment.get('error')).toBe('no_email');
      provider.signInAs({ sub: 'g-odd-email', email: 'odd@localhost', email_verified: true, name: 'Odd' });
      expect((await signInWithGoogle(ctx().app)).fragment.get('error')).toBe('no_email');
      // A long ending is a real address (L5): the account is created.
      provider.signInAs({ sub: 'g-long-tld', email: 'rider@garage.motorcycles', email_verified: true, name: 'Long' });
      expect((await me(ctx().app, await tokenFor(ctx().app))).json().email).toBe('rider@garage.motorcycles');
    });

    it('refuses an unknown state, and a state used twice', async () => {
      provider.signInAs({ sub: 'g-state', email: 'state@example.com', email_verified: true, name: 'S' });
      const bad = await finish(ctx().app, '/api/auth/google/callback?code=abc&state=never-issued-state-value');
      expect(bad.fragment.get('error')).toBe('invalid_state');
      expect(bad.fragment.get('code')).toBeNull();

      const { authorize, cookie } = await startIn(ctx().app);
      const back = await atProvider(authorize);
      const first = await finish(ctx().app, back, cookie);
      expect(first.fragment.get('code')).toBeTruthy();
      const replay = await finish(ctx().app, back, cookie);
      expect(replay.fragment.get('error')).toBe('invalid_state');
    });

    it('refuses a state whose time ran out', async () => {
      provider.signInAs({ sub: 'g-late', email: 'late@example.com', email_verified: true, name: 'Late' });
      const { authorize, cookie } = await startIn(ctx().app);
      const state = authorize.searchParams.get('state') ?? '';
      await ctx()
        .database.db.update(oauthStates)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oauthStates.state, state));
      const res = await finish(ctx().app, await atProvider(authorize), cookie);
      expect(res.fragment.get('error')).toBe('expired');
      expect(await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-late'))).toHaveLength(0);
    });

    it('refuses a state that does not match the one the provider echoes (tampered state)', async () => {
      provider.signInAs({ sub: 'g-tamper', email: 'tamper@example.com', email_verified: true, name: 'T' });
      const a = await startIn(ctx().app);
      // Sign-in B in the same browser (it keeps its binding), so only PKCE and the nonce can tell them apart.
      const b = await startIn(ctx().app, '/', a.cookie);
      expect(b.cookie).toBe(a.cookie);
      const back = new URL(await atProvider(a.authorize), 'http://shop.test');
      // The code of sign-in A presented with the state of sign-in B: PKCE verifier and nonce do not match.
      back.searchParams.set('state', b.authorize.searchParams.get('state') ?? '');
      const res = await finish(ctx().app, back.pathname + back.search, a.cookie);
      expect(res.fragment.get('error')).toBe('invalid_state');
      expect(await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-tamper'))).toHaveLength(0);
    });

    it('says so when the person cancels at the provider', async () => {
      const { authorize, cookie } = await startIn(ctx().app);
      const state = authorize.searchParams.get('state') ?? '';
      const res = await finish(ctx().app, `/api/auth/google/callback?error=access_denied&state=${state}`, cookie);
      expect(res.fragment.get('error')).toBe('cancelled');
    });

    it('L4: the callback redirect carries only the fixed error codes, never text from the request', async () => {
      const { authorize, cookie } = await startIn(ctx().app);
      const state = authorize.searchParams.get('state') ?? '';
      const hostile = encodeURIComponent('<script>alert(1)</script> Your account is locked, call +1 555');
      const urls = [
        `/api/auth/google/callback?error=${hostile}&state=${state}`,
        `/api/auth/google/callback?error=access_denied&error_description=${hostile}&state=${hostile}`,
        `/api/auth/google/callback?code=${hostile}`,
      ];
      for (const url of urls) {
        const res = await finish(ctx().app, url, cookie);
        expect(res.location).toMatch(/^\/auth\/callback#error=[a-z_]+$/);
        expect(Object.keys(googleSignInErrors)).toContain(res.fragment.get('error'));
      }
    });

    it('only ever returns to a path on this site (L1 included)', async () => {
      for (const returnTo of [
        'https://evil.example/x',
        '//evil.example/x',
        '/\\evil.example',
        'javascript:alert(1)',
        '/.//evil.example',
        '/%2F%2Fevil.example',
      ]) {
        const start = await ctx().app.inject({
          method: 'GET',
          url: `/api/auth/google?returnTo=${encodeURIComponent(returnTo)}`,
        });
        const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
        const [saved] = await ctx().database.db.select().from(oauthStates).where(eq(oauthStates.state, state));
        expect(saved?.returnTo, returnTo).toBe('/');
      }
    });

    it('L8: builds redirect_uri from PUBLIC_URL, never from the Host header', async () => {
      const res = await ctx().app.inject({
        method: 'GET',
        url: '/api/auth/google',
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      const url = new URL(String(res.headers.location));
      expect(url.searchParams.get('redirect_uri')).toBe('http://shop.test/api/auth/google/callback');
    });
  },
  googleEnv,
);

describe('L8: without PUBLIC_URL', () => {
  let context: TestContext;
  beforeAll(async () => {
    const { PUBLIC_URL: _unset, ...withoutPublicUrl } = googleEnv;
    context = await createTestApp(testDrivers[0] ?? 'pglite', { ...withoutPublicUrl, PORT: '4123' });
  });
  afterAll(async () => {
    await context.app.close();
    await context.database.close();
  });

  it('development uses http://localhost:PORT whatever the Host header says', async () => {
    const res = await context.app.inject({ method: 'GET', url: '/api/auth/google', headers: { host: 'evil.example' } });
    expect(new URL(String(res.headers.location)).searchParams.get('redirect_uri')).toBe(
      'http://localhost:4123/api/auth/google/callback',
    );
  });

  it('production refuses to start with Google configured and no PUBLIC_URL, in a sentence naming it', () => {
    const { PUBLIC_URL: _unset, ...withoutPublicUrl } = googleEnv;
    expect(() => loadConfig({ ...withoutPublicUrl, NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' })).toThrow(
      /PUBLIC_URL must be set when Google sign-in is configured in production/,
    );
    expect(() => loadConfig({ ...googleEnv, NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' })).not.toThrow();
  });
});

describe('Google sign-in when it is not configured', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp(testDrivers[0] ?? 'pglite');
  });
  afterAll(async () => {
    await context.app.close();
    await context.database.close();
  });

  it('says so to the web app and to a browser that starts it anyway', async () => {
    expect((await context.app.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({ google: false });
    const start = await context.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(start.statusCode).toBe(302);
    expect(String(start.headers.location)).toBe('/auth/callback#error=not_configured');
    expect(start.headers['set-cookie']).toBeUndefined();
  });
});

describe('Google sign-in when the provider cannot be reached', () => {
  let context: TestContext;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing listens, discovery fails at once.
    context = await createTestApp(testDrivers[0] ?? 'pglite', { ...googleEnv, GOOGLE_ISSUER: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await context.app.close();
    await context.database.close();
  });

  it('sends the browser back with a code, keeps no state, and tries again next time', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const start = await context.app.inject({ method: 'GET', url: '/api/auth/google' });
      expect(start.statusCode).toBe(302);
      expect(String(start.headers.location)).toBe('/auth/callback#error=unavailable');
    }
    expect(await context.database.db.select().from(oauthStates)).toHaveLength(0);
  });
});
