import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  googleSettingsFor,
  type LocalOidcProvider,
  startOidcProvider,
} from '../../../../test/support/oidc-provider.ts';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createTestApp, describeEachDatabase, type TestContext } from '../../../../test/support/test-app.ts';
import { testDrivers } from '../../../../test/support/test-database.ts';
import { oauthStates, users } from '../../db/schema.ts';

// The provider must exist before the apps are built: their config names its issuer.
const provider: LocalOidcProvider = await startOidcProvider();
const googleEnv = googleSettingsFor(provider);
afterAll(async () => {
  await provider.stop();
});

interface RoundTrip {
  location: string;
  fragment: URLSearchParams;
}

/** Browser steps, by hand: our start URL → the provider's /authorize (real HTTP) → our callback. */
async function signInWithGoogle(app: FastifyInstance, returnTo = '/allparts'): Promise<RoundTrip> {
  const start = await app.inject({ method: 'GET', url: `/api/auth/google?returnTo=${encodeURIComponent(returnTo)}` });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(String(start.headers.location));
  expect(authorize.origin).toBe(provider.issuer);
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(String(atProvider.headers.get('location')));
  expect(back.origin + back.pathname).toBe('http://shop.test/api/auth/google/callback');
  return finish(app, back.pathname + back.search);
}

async function finish(app: FastifyInstance, url: string): Promise<RoundTrip> {
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(302);
  const location = String(res.headers.location);
  expect(location.startsWith('/auth/callback#')).toBe(true);
  return { location, fragment: new URLSearchParams(location.slice(location.indexOf('#') + 1)) };
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
    });

    it('creates a new user named by the provider, opens a session and hands the token over in the fragment', async () => {
      provider.signInAs({ sub: 'g-new-1', email: 'New.Rider@Example.com', email_verified: true, name: 'Nina Rider' });
      const { fragment } = await signInWithGoogle(ctx().app, '/allparts');
      expect(fragment.get('returnTo')).toBe('/allparts');
      const token = fragment.get('token');
      expect(token).toBeTruthy();
      const res = await me(ctx().app, token);
      expect(res.json()).toEqual({ email: 'New.Rider@Example.com', displayName: 'Nina Rider', isAdmin: false });
      const [row] = await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-new-1'));
      expect(row?.passwordHash).toBeNull();

      // The same Google account signs in again to the same user.
      const again = await signInWithGoogle(ctx().app, '/');
      expect((await me(ctx().app, again.fragment.get('token'))).json().email).toBe('New.Rider@Example.com');
      const count = await ctx()
        .database.db.select()
        .from(users)
        .where(sql`lower(${users.email}) = 'new.rider@example.com'`);
      expect(count).toHaveLength(1);
    });

    it('links to an existing password account with the same verified email and keeps its name and password', async () => {
      const signup = await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Pat Password', email: 'pat@example.com', password: 'secret-123' },
      });
      expect(signup.statusCode).toBe(201);
      provider.signInAs({ sub: 'g-pat', email: 'PAT@example.com', email_verified: true, name: 'Patricia G' });
      const { fragment } = await signInWithGoogle(ctx().app);
      expect((await me(ctx().app, fragment.get('token'))).json()).toEqual({
        email: 'pat@example.com',
        displayName: 'Pat Password',
        isAdmin: false,
      });
      const [row] = await ctx().database.db.select().from(users).where(eq(users.email, 'pat@example.com'));
      expect(row?.googleSubject).toBe('g-pat');
      const login = await ctx().app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'pat@example.com', password: 'secret-123' },
      });
      expect(login.statusCode).toBe(200);
    });

    it('never links or creates an account for an unverified email', async () => {
      await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Vera Victim', email: 'vera@example.com', password: 'secret-123' },
      });
      const before = await databaseChecksum(ctx().database.db);
      for (const email of ['vera@example.com', 'nobody-yet@example.com']) {
        provider.signInAs({ sub: `g-unverified-${email}`, email, email_verified: false, name: 'Mallory' });
        const { fragment } = await signInWithGoogle(ctx().app);
        expect(fragment.get('token')).toBeNull();
        expect(fragment.get('error')).toMatch(/not verified/);
      }
      // Only the spent states changed: no user, no session, no link.
      const after = await databaseChecksum(ctx().database.db);
      expect({ ...after, oauth_states: '' }).toEqual({ ...before, oauth_states: '' });
    });

    it('refuses a provider answer without an email', async () => {
      provider.signInAs({ sub: 'g-no-email', name: 'No Mail' });
      const { fragment } = await signInWithGoogle(ctx().app);
      expect(fragment.get('error')).toMatch(/email/);
    });

    it('refuses an unknown state, and a state used twice', async () => {
      provider.signInAs({ sub: 'g-state', email: 'state@example.com', email_verified: true, name: 'S' });
      const bad = await finish(ctx().app, '/api/auth/google/callback?code=abc&state=never-issued-state-value');
      expect(bad.fragment.get('error')).toMatch(/not valid/);
      expect(bad.fragment.get('token')).toBeNull();

      const start = await ctx().app.inject({ method: 'GET', url: '/api/auth/google' });
      const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = new URL(String(atProvider.headers.get('location')));
      const first = await finish(ctx().app, back.pathname + back.search);
      expect(first.fragment.get('token')).toBeTruthy();
      const replay = await finish(ctx().app, back.pathname + back.search);
      expect(replay.fragment.get('error')).toMatch(/already used|not valid/);
    });

    it('refuses a state whose time ran out', async () => {
      provider.signInAs({ sub: 'g-late', email: 'late@example.com', email_verified: true, name: 'Late' });
      const start = await ctx().app.inject({ method: 'GET', url: '/api/auth/google' });
      const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
      await ctx()
        .database.db.update(oauthStates)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oauthStates.state, state));
      const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = new URL(String(atProvider.headers.get('location')));
      const res = await finish(ctx().app, back.pathname + back.search);
      expect(res.fragment.get('error')).toMatch(/expired/);
      expect(await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-late'))).toHaveLength(0);
    });

    it('refuses a state that does not match the one the provider echoes (tampered state)', async () => {
      provider.signInAs({ sub: 'g-tamper', email: 'tamper@example.com', email_verified: true, name: 'T' });
      const a = await ctx().app.inject({ method: 'GET', url: '/api/auth/google' });
      const b = await ctx().app.inject({ method: 'GET', url: '/api/auth/google' });
      const atProvider = await fetch(String(a.headers.location), { redirect: 'manual' });
      const back = new URL(String(atProvider.headers.get('location')));
      // The code of sign-in A presented with the state of sign-in B: PKCE verifier and nonce do not match.
      back.searchParams.set('state', new URL(String(b.headers.location)).searchParams.get('state') ?? '');
      const res = await finish(ctx().app, back.pathname + back.search);
      expect(res.fragment.get('error')).toMatch(/could not be verified/);
      expect(await ctx().database.db.select().from(users).where(eq(users.googleSubject, 'g-tamper'))).toHaveLength(0);
    });

    it('says so when the person cancels at the provider', async () => {
      const start = await ctx().app.inject({ method: 'GET', url: '/api/auth/google' });
      const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
      const res = await finish(ctx().app, `/api/auth/google/callback?error=access_denied&state=${state}`);
      expect(res.fragment.get('error')).toBe('Google sign-in was cancelled.');
    });

    it('only ever returns to a path on this site', async () => {
      for (const returnTo of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
        const start = await ctx().app.inject({
          method: 'GET',
          url: `/api/auth/google?returnTo=${encodeURIComponent(returnTo)}`,
        });
        const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
        const [saved] = await ctx().database.db.select().from(oauthStates).where(eq(oauthStates.state, state));
        expect(saved?.returnTo).toBe('/');
      }
    });
  },
  googleEnv,
);

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
    expect(decodeURIComponent(String(start.headers.location))).toBe(
      '/auth/callback#error=Google sign-in is not configured.',
    );
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

  it('sends the browser back with a sentence, keeps no state, and tries again next time', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const start = await context.app.inject({ method: 'GET', url: '/api/auth/google' });
      expect(start.statusCode).toBe(302);
      expect(decodeURIComponent(String(start.headers.location))).toBe(
        '/auth/callback#error=Google sign-in is unavailable right now. Please try again later.',
      );
    }
    expect(await context.database.db.select().from(oauthStates)).toHaveLength(0);
  });
});
