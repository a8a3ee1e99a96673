import { eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { AuthResponse } from '../../../shared/schemas/accounts.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { oauthStates, users } from '../../db/schema.ts';
import type { AccountsService } from './accounts-service.ts';
import { isUniqueViolation, type UserRepository, type UserRow } from './user-repository.ts';

const STATE_TTL_MS = 10 * 60_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A sign-in that cannot finish: the message is shown to the person on the callback page. */
export class GoogleSignInError extends Error {}

type GoogleConfig = Pick<AppConfig, 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'GOOGLE_ISSUER'>;

/**
 * Sign In With Google: OpenID Connect authorization-code flow with PKCE, state and nonce, through `openid-client`.
 * The verifier, nonce and return path live in `oauth_states` (not in memory), so any instance can finish a
 * sign-in another one started; each state is single-use and expires after ten minutes.
 */
export class GoogleSignIn {
  readonly #config: GoogleConfig;
  readonly #db: Database;
  readonly #users: UserRepository;
  readonly #accounts: AccountsService;
  readonly #log: FastifyBaseLogger;
  #discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    config: GoogleConfig,
    db: Database,
    users: UserRepository,
    accounts: AccountsService,
    log: FastifyBaseLogger,
  ) {
    this.#config = config;
    this.#db = db;
    this.#users = users;
    this.#accounts = accounts;
    this.#log = log;
  }

  get configured(): boolean {
    return Boolean(this.#config.GOOGLE_CLIENT_ID && this.#config.GOOGLE_CLIENT_SECRET);
  }

  /** Discovery once per process; a failure is not cached, so the next sign-in tries again. */
  #configuration(): Promise<oidc.Configuration> {
    if (!this.#discovered) {
      const issuer = new URL(this.#config.GOOGLE_ISSUER);
      // Plain http only for a provider on this machine (the local stand-in in tests), never over a network.
      const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.host.replace(/:\d+$/, ''));
      this.#discovered = oidc
        .discovery(issuer, this.#config.GOOGLE_CLIENT_ID ?? '', this.#config.GOOGLE_CLIENT_SECRET, undefined, {
          timeout: 10,
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          this.#discovered = undefined;
          throw error;
        });
    }
    return this.#discovered;
  }

  async deleteExpiredStates(): Promise<void> {
    await this.#db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date()));
  }

  /** Starts a sign-in: stores the state and answers the provider's URL to send the browser to. */
  async start(redirectUri: string, returnTo: string): Promise<URL> {
    if (!this.configured) throw new GoogleSignInError('Google sign-in is not configured.');
    let configuration: oidc.Configuration;
    try {
      configuration = await this.#configuration();
    } catch (error) {
      this.#log.warn({ err: error }, 'Google discovery failed');
      throw new GoogleSignInError('Google sign-in is unavailable right now. Please try again later.');
    }
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await this.deleteExpiredStates();
    await this.#db
      .insert(oauthStates)
      .values({ state, nonce, codeVerifier, returnTo, expiresAt: new Date(now + STATE_TTL_MS) });
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      prompt: 'select_account',
    });
  }

  /**
   * Finishes a sign-in from the provider's redirect (`currentUrl` = our callback URL with its query): checks and
   * spends the state, exchanges the code (PKCE), verifies the ID token (signature, issuer, audience, nonce) and
   * opens a session for the matching user.
   */
  async finish(currentUrl: URL): Promise<{ auth: AuthResponse; returnTo: string }> {
    if (!this.configured) throw new GoogleSignInError('Google sign-in is not configured.');
    const stateParam = currentUrl.searchParams.get('state');
    if (!stateParam || stateParam.length > 200)
      throw new GoogleSignInError('This sign-in link is not valid. Please try again.');
    // Delete-and-return spends the state exactly once, even when two requests race with it.
    const [saved] = await this.#db.delete(oauthStates).where(eq(oauthStates.state, stateParam)).returning();
    if (!saved) throw new GoogleSignInError('This sign-in link is not valid or was already used. Please try again.');
    if (saved.expiresAt.getTime() <= Date.now()) {
      throw new GoogleSignInError('This sign-in took too long and expired. Please try again.');
    }
    const providerError = currentUrl.searchParams.get('error');
    if (providerError) {
      throw new GoogleSignInError(
        providerError === 'access_denied'
          ? 'Google sign-in was cancelled.'
          : 'Google could not sign you in. Please try again.',
      );
    }

    let claims: oidc.IDToken | undefined;
    try {
      const configuration = await this.#configuration();
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        expectedState: saved.state,
        expectedNonce: saved.nonce,
        pkceCodeVerifier: saved.codeVerifier,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      this.#log.warn({ err: error }, 'Google sign-in could not be verified');
      throw new GoogleSignInError('Google sign-in could not be verified. Please try again.');
    }
    if (!claims) throw new GoogleSignInError('Google sign-in could not be verified. Please try again.');
    const user = await this.#resolveUser(claims);
    return { auth: await this.#accounts.openSession(user), returnTo: saved.returnTo };
  }

  /**
   * The same Google account always finds its user. Otherwise a VERIFIED email links to the account that has it
   * (or creates one); an unverified email is never trusted, or anyone could claim someone else's address.
   */
  async #resolveUser(claims: oidc.IDToken, attempt = 0): Promise<UserRow> {
    const subject = claims.sub;
    const known = await this.#users.findByGoogleSubject(subject);
    if (known) return known;

    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (!email || email.length > 254 || !email.includes('@')) {
      throw new GoogleSignInError(
        'Your Google account did not share an email address, so we cannot sign you in with it.',
      );
    }
    if (!verified) {
      throw new GoogleSignInError(
        'Your Google email address is not verified, so we cannot sign you in with it. Please log in with your password.',
      );
    }
    const existing = await this.#users.findByEmail(email);
    if (existing) {
      if (existing.googleSubject && existing.googleSubject !== subject) {
        throw new GoogleSignInError('This email is already linked to another Google account.');
      }
      if (!existing.googleSubject && !(await this.#users.linkGoogle(existing.id, subject))) {
        if (attempt < 1) return this.#resolveUser(claims, attempt + 1);
        throw new GoogleSignInError('This email is already linked to another Google account.');
      }
      return { ...existing, googleSubject: subject };
    }

    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : email.split('@')[0];
    try {
      const [created] = await this.#db
        .insert(users)
        .values({ email, displayName: (name ?? '').slice(0, 80), googleSubject: subject })
        .returning();
      if (!created) throw new Error('user not created');
      return created;
    } catch (error) {
      // Someone signed up with this email (or this Google account) at the same moment: look again.
      if (isUniqueViolation(error) && attempt < 1) return this.#resolveUser(claims, attempt + 1);
      throw error;
    }
  }
}
