import crypto from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import { type GoogleSignInErrorCode, googleSignInErrors } from '../../../shared/messages.ts';
import { type AuthResponse, EMAIL_PATTERN } from '../../../shared/schemas/accounts.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { oauthStates, users } from '../../db/schema.ts';
import { enqueueMail, signInMethodLinkedMail } from '../mail/ports.ts';
import type { AccountTokenRepository } from './account-token-repository.ts';
import type { AccountLinks, AccountsService, MailKick } from './accounts-service.ts';
import type { SessionRepository } from './session-repository.ts';
import { isUniqueViolation, type UserRepository, type UserRow } from './user-repository.ts';

const STATE_TTL_MS = 10 * 60_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A sign-in that cannot finish. Only its code travels (`/auth/callback#error=<code>`, L4); the web maps the code to
 * the sentence in `googleSignInErrors` and never shows text from the URL.
 */
export class GoogleSignInError extends Error {
  readonly code: GoogleSignInErrorCode;
  constructor(code: GoogleSignInErrorCode) {
    super(googleSignInErrors[code]);
    this.code = code;
  }
}

type GoogleConfig = Pick<AppConfig, 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'GOOGLE_ISSUER'>;

interface GoogleDependencies {
  config: GoogleConfig;
  db: Database;
  users: UserRepository;
  sessions: SessionRepository;
  tokens: AccountTokenRepository;
  accounts: AccountsService;
  mail: MailKick;
  links: AccountLinks;
  log: FastifyBaseLogger;
}

/**
 * Sign In With Google: OpenID Connect authorization-code flow with PKCE, state and nonce, through `openid-client`.
 * The verifier, nonce and return path live in `oauth_states` (not in memory), so any instance can finish a
 * sign-in another one started; each state is single-use and expires after ten minutes.
 *
 * H2: a sign-in belongs to the browser that started it. `start` is given that browser's `rl_google` cookie value
 * (HttpOnly, set by the route) and keeps only its keyed hash with the state; `finish` refuses a callback that does
 * not bring the same cookie, and ends not with a token but with a one-time code (60 s, single use) that `redeem`
 * exchanges for a session, again only with that cookie. A link carrying someone else's callback signs no one in.
 */
export class GoogleSignIn {
  readonly #config: GoogleConfig;
  readonly #db: Database;
  readonly #users: UserRepository;
  readonly #sessions: SessionRepository;
  readonly #tokens: AccountTokenRepository;
  readonly #accounts: AccountsService;
  readonly #mail: MailKick;
  readonly #links: AccountLinks;
  readonly #log: FastifyBaseLogger;
  #discovered: Promise<oidc.Configuration> | undefined;

  constructor(deps: GoogleDependencies) {
    this.#config = deps.config;
    this.#db = deps.db;
    this.#users = deps.users;
    this.#sessions = deps.sessions;
    this.#tokens = deps.tokens;
    this.#accounts = deps.accounts;
    this.#mail = deps.mail;
    this.#links = deps.links;
    this.#log = deps.log;
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

  /**
   * Starts a sign-in for the browser whose `rl_google` cookie is `binding`: stores the state with the cookie's keyed
   * hash and answers the provider's URL to send the browser to.
   */
  async start(redirectUri: string, returnTo: string, binding: string): Promise<URL> {
    if (!this.configured) throw new GoogleSignInError('not_configured');
    let configuration: oidc.Configuration;
    try {
      configuration = await this.#configuration();
    } catch (error) {
      this.#log.warn({ err: error }, 'Google discovery failed');
      throw new GoogleSignInError('unavailable');
    }
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await this.deleteExpiredStates();
    await this.#db.insert(oauthStates).values({
      state,
      nonce,
      codeVerifier,
      returnTo,
      bindingHash: this.#tokens.hash(binding, 'binding'),
      expiresAt: new Date(now + STATE_TTL_MS),
    });
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
   * Finishes a sign-in from the provider's redirect (`currentUrl` = our callback URL with its query), in the browser
   * whose cookie is `binding`: checks and spends the state, checks the browser, exchanges the code (PKCE), verifies
   * the ID token (signature, issuer, audience, nonce), finds or links the user and answers a one-time code for
   * `redeem`, bound to the same cookie. Never a token.
   */
  async finish(currentUrl: URL, binding: string | undefined): Promise<{ code: string; returnTo: string }> {
    if (!this.configured) throw new GoogleSignInError('not_configured');
    const stateParam = currentUrl.searchParams.get('state');
    if (!stateParam || stateParam.length > 200) throw new GoogleSignInError('invalid_state');
    // Delete-and-return spends the state exactly once, even when two requests race with it.
    const [saved] = await this.#db.delete(oauthStates).where(eq(oauthStates.state, stateParam)).returning();
    if (!saved) throw new GoogleSignInError('invalid_state');
    if (saved.expiresAt.getTime() <= Date.now()) throw new GoogleSignInError('expired');
    if (!binding || !saved.bindingHash || !sameHash(saved.bindingHash, this.#tokens.hash(binding, 'binding'))) {
      throw new GoogleSignInError('browser_mismatch');
    }
    const providerError = currentUrl.searchParams.get('error');
    if (providerError) throw new GoogleSignInError(providerError === 'access_denied' ? 'cancelled' : 'unavailable');

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
      throw new GoogleSignInError('invalid_state');
    }
    if (!claims) throw new GoogleSignInError('invalid_state');
    const user = await this.#resolveUser(claims);
    const { token } = await this.#tokens.issue(this.#db, { purpose: 'google_code', userId: user.id, binding });
    return { code: token, returnTo: saved.returnTo };
  }

  /** The one-time code of `finish`, from the same browser (its cookie), for a session; null for anything else. */
  async redeem(code: string, binding: string | undefined): Promise<AuthResponse | null> {
    if (!binding) return null;
    return this.#db.transaction(async (tx) => {
      const spent = await this.#tokens.spend(tx, { purpose: 'google_code', token: code, binding });
      const user = spent ? await this.#users.findById(spent.userId, tx) : undefined;
      return user ? this.#accounts.openSession(user, tx) : null;
    });
  }

  /**
   * The same Google account always finds its user. Otherwise a VERIFIED Google email links to the account that has
   * it, but only if that account proved the address too (H1: else whoever registered the address first, without
   * owning it, would share the account with its owner), or creates one. Linking revokes the account's other sessions
   * and mails its owner.
   */
  async #resolveUser(claims: oidc.IDToken, attempt = 0): Promise<UserRow> {
    const subject = claims.sub;
    const known = await this.#users.findByGoogleSubject(subject);
    if (known) return known;

    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    // The same address rule as sign-up (L5): an address our own forms would refuse makes no account.
    if (!email || email.length > 254 || !EMAIL_PATTERN.test(email)) throw new GoogleSignInError('no_email');
    if (!verified) throw new GoogleSignInError('unverified_email');
    const existing = await this.#users.findByEmail(email);
    if (existing) {
      if (existing.googleSubject && existing.googleSubject !== subject) throw new GoogleSignInError('linked_elsewhere');
      if (!existing.emailVerifiedAt) throw new GoogleSignInError('password_sign_in_required');
      if (await this.#link(existing, subject)) return { ...existing, googleSubject: subject };
      if (attempt < 1) return this.#resolveUser(claims, attempt + 1);
      throw new GoogleSignInError('linked_elsewhere');
    }

    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : email.split('@')[0];
    try {
      const [created] = await this.#db
        .insert(users)
        .values({
          email,
          displayName: (name ?? '').slice(0, 80),
          googleSubject: subject,
          // Google said it verified this address.
          emailVerifiedAt: new Date(),
        })
        .returning();
      if (!created) throw new Error('user not created');
      return created;
    } catch (error) {
      // Someone signed up with this email (or this Google account) at the same moment: look again.
      if (isUniqueViolation(error) && attempt < 1) return this.#resolveUser(claims, attempt + 1);
      throw error;
    }
  }

  /** Links Google to a verified account in one transaction with the revocation of its sessions and the mail. */
  async #link(user: UserRow, subject: string): Promise<boolean> {
    const linkedAt = new Date();
    const mail = await signInMethodLinkedMail({
      name: user.displayName,
      method: 'Google',
      linkedAt,
      accountUrl: this.#links.myAccount(),
    });
    const linked = await this.#db.transaction(async (tx) => {
      if (!(await this.#users.linkGoogle(user.id, subject, tx))) return false;
      await this.#sessions.revokeAll(user.id, tx);
      await enqueueMail(tx, { kind: 'sign-in-method-linked', to: user.email, ...mail });
      return true;
    });
    if (linked) this.#mail.kick();
    return linked;
  }
}

/** Two hex digests compared in constant time. */
function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
