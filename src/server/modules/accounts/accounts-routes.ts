import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountMessages } from '../../../shared/messages.ts';
import {
  adminCheckSchema,
  authResponseSchema,
  changePasswordBodySchema,
  emailParamsSchema,
  forgotPasswordBodySchema,
  googleRedeemBodySchema,
  loginBodySchema,
  makeAdminResponseSchema,
  meSchema,
  messageResponseSchema,
  profileBodySchema,
  profileSchema,
  providersSchema,
  resetPasswordBodySchema,
  safeReturnTo,
  signupBodySchema,
  tokenRequestBodySchema,
  tokenResponseSchema,
  userListItemSchema,
  usersQuerySchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '../../../shared/schemas/accounts.ts';
import { publicUrl } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { pageLinks } from '../../page-links.ts';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import { createAbuseLimits } from './abuse-limits.ts';
import { type AccountsService, badCredentials, meOf, wrongCurrentPassword } from './accounts-service.ts';
import { type GoogleSignIn, GoogleSignInError } from './google-sign-in.ts';
import type { ProfileService } from './profile-service.ts';
import type { SessionRepository } from './session-repository.ts';

interface AccountsRoutesOptions {
  accounts: AccountsService;
  profiles: ProfileService;
  google: GoogleSignIn;
  sessions: SessionRepository;
}

/** H2: the cookie that binds a Google sign-in to the browser that started it (only its keyed hash is stored). */
const GOOGLE_COOKIE = 'rl_google';
const GOOGLE_COOKIE_PATH = '/api/auth';
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function readGoogleCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    const value = rest.join('=');
    if (name === GOOGLE_COOKIE && BINDING_PATTERN.test(value)) return value;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sign-up, sign-in, Google, tokens, roles, users admin and profile. */
export const accountsRoutes: FastifyPluginAsyncZod<AccountsRoutesOptions> = async (app, options) => {
  const { config } = app;
  const { accounts, profiles, google, sessions } = options;
  const limits = createAbuseLimits(app, config);

  // Housekeeping (expired sessions, abandoned Google sign-ins, spent tokens) is the `housekeeping` job (services.ts).
  const secureCookie = config.PUBLIC_URL?.startsWith('https://') ?? false;
  const cookieAttributes = `Path=${GOOGLE_COOKIE_PATH}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}`;

  app.post(
    '/api/signup',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign up with name, email and password',
        description:
          'Always 202 with the same sentence, whether or not the email already has an account, so a sign-up tells ' +
          'nobody which emails are registered. A new email is mailed a link (valid 48 h) that creates the account ' +
          'and signs in when opened (POST /api/email/verify); nothing is an account before. An email that has an ' +
          'account: its owner is mailed how to sign in or reset the password, and nothing changes. At most ' +
          'RATE_LIMIT_PASSWORD_RESET_PER_EMAIL such mails per email per window. Rate limited per IP and per email ' +
          '(429 with Retry-After).',
        body: signupBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
      preHandler: [limits.signupPerIp.hit, limits.signupPerAccount.hit],
    },
    async (request, reply) => {
      const mayMail = await limits.signupMailsPerEmail.allow(request);
      return reply.status(202).send(await accounts.signUp(request.body, mayMail));
    },
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password',
        description:
          'Wrong password and unknown email answer the same 401. Rate limited per address (every attempt) and per ' +
          'address and account (failed attempts): 429 with Retry-After and details `[{ resetPasswordPath }]`. An ' +
          'account that keeps failing is answered more slowly (up to about 2 s), from every address, but never locked.',
        body: loginBodySchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 429) },
      },
      preHandler: [limits.loginPerIp.hit, limits.loginPerAddressAccount.check],
    },
    async (request, reply) => {
      const delay = await limits.loginDelayMs(request);
      if (delay > 0) await sleep(delay);
      const result = await accounts.logIn(request.body);
      if (!result) {
        await limits.loginFailuresPerAccount.hit(request, reply);
        await limits.loginPerAddressAccount.hit(request, reply);
        throw badCredentials();
      }
      return result;
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: revokes the bearer token',
        description: 'Always 204, so signing out twice or with an expired token is not an error.',
        security: bearerAuth,
        response: { 204: z.null().describe('Signed out') },
      },
    },
    async (request, reply) => {
      if (request.bearerToken) await sessions.revoke(request.bearerToken);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/logout/everywhere',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign Out Everywhere: revokes every session of your account',
        security: bearerAuth,
        response: { 204: z.null().describe('Every session of the account ended'), ...errorResponses(401) },
      },
      onRequest: requireUser,
    },
    async (request, reply) => {
      await accounts.logOutEverywhere(currentUser(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user',
        security: bearerAuth,
        response: { 200: meSchema, ...errorResponses(401) },
      },
      onRequest: requireUser,
    },
    async (request) => meOf(currentUser(request)),
  );

  app.post(
    '/api/email/verify',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Verify your email with the token of the mailed link',
        description:
          'No sign-in needed: the link may be opened in another browser. The token is single use and valid 48 h; ' +
          'unknown, used or expired answers 400 `invalid_token`. The link of a sign-up creates the account and ' +
          'answers a session as sign-in does (`token`, `expiresAt`, `user`); if the email got an account meanwhile, ' +
          '409 `email_taken`.',
        body: verifyEmailBodySchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses(400, 409, 429) },
      },
      preHandler: limits.tokensPerIp.hit,
    },
    async (request) => accounts.verifyEmail(request.body.token),
  );

  app.post(
    '/api/email/verify/resend',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Send a new verification link',
        description: 'Already verified: 409 `already_verified`. Rate limited per account (429 with Retry-After).',
        security: bearerAuth,
        response: { 202: messageResponseSchema, ...errorResponses(401, 409, 429) },
      },
      onRequest: requireUser,
      preHandler: limits.verifyResendPerAccount.hit,
    },
    async (request, reply) => reply.status(202).send(await accounts.resendVerification(currentUser(request))),
  );

  app.post(
    '/api/password/forgot',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Ask for a password reset link',
        description:
          'Always 202 with the same sentence, whether or not the email has an account, and answered before any ' +
          'lookup (no enumeration, no timing oracle). The link is single use and valid 1 hour. Rate limited per ' +
          'address and per email (429).',
        body: forgotPasswordBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
      preHandler: [limits.passwordResetPerIp.hit, limits.passwordResetPerEmail.hit],
    },
    async (request, reply) => {
      accounts.requestPasswordReset(request.body.email);
      return reply.status(202).send({ message: accountMessages.resetRequested });
    },
  );

  app.post(
    '/api/password/reset',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the token of the mailed link',
        description:
          'Revokes every session of the account, marks its email verified and mails "your password was changed". ' +
          'Bad token: 400 `invalid_token`; a password the rules refuse: 400 `invalid_data` (details path ' +
          '`body.password`), and the link stays usable.',
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 429) },
      },
      preHandler: limits.tokensPerIp.hit,
    },
    async (request) => accounts.resetPassword(request.body.token, request.body.password),
  );

  app.post(
    '/api/password/change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change your password (current password required)',
        description:
          'Answers a NEW token: every other session of the account, the caller’s old one included, is revoked. ' +
          'Wrong current password: 422 `wrong_password`; a Google-only account: 409 `no_password`.',
        security: bearerAuth,
        body: changePasswordBodySchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 409, 422, 429) },
      },
      onRequest: requireUser,
      preHandler: limits.passwordChangePerAccount.check,
    },
    async (request, reply) => {
      const result = await accounts.changePassword(currentUser(request), request.body);
      if (!result) {
        await limits.passwordChangePerAccount.hit(request, reply);
        throw wrongCurrentPassword();
      }
      return result;
    },
  );

  app.put(
    '/api/user/:email',
    {
      schema: {
        tags: ['accounts'],
        summary: 'A fresh token for your own account',
        description:
          'Only for the caller’s own email and a valid session (401 anonymous, 403 another email). The token ends ' +
          'with the session it was minted from: same expiry, and signing that one out signs this one out too.',
        security: bearerAuth,
        params: emailParamsSchema,
        body: tokenRequestBodySchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403) },
      },
      onRequest: requireUser,
    },
    async (request) => accounts.freshToken(currentUser(request), request.params.email, request.bearerToken),
  );

  app.get(
    '/api/admin/:email',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Is this user an admin?',
        description: 'For your own email, or any email when you are an admin (else 403).',
        security: bearerAuth,
        params: emailParamsSchema,
        response: { 200: adminCheckSchema, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: requireUser,
    },
    async (request) => accounts.adminCheck(currentUser(request), request.params.email),
  );

  app.get(
    '/api/user',
    {
      schema: {
        tags: ['accounts'],
        summary: 'All users (admin)',
        description:
          'Oldest account first; without parameters, every user. `q` keeps users whose email or name contains it ' +
          '(any case, trimmed); `limit` (at most 500) and `offset` page the list, or `after`/`before` a cursor ' +
          '(keyset paging: `X-Next-Cursor`, `X-Prev-Cursor` and `Link` name the pages beside this one); the total ' +
          'is in the `X-Total-Count` header.',
        security: bearerAuth,
        querystring: usersQuerySchema,
        response: { 200: z.array(userListItemSchema), ...errorResponses(400, 401, 403) },
      },
      onRequest: requireAdmin,
    },
    async (request, reply) => {
      const page = await accounts.listUsers(request.query);
      reply.header('x-total-count', String(page.total));
      pageLinks(reply, request.url, page);
      return page.items;
    },
  );

  app.put(
    '/api/user/admin/:email',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Make a user an admin (admin)',
        description:
          '`modifiedCount` is 1 when the role changed, 0 when the user already was an admin; 404 for an unknown email.',
        security: bearerAuth,
        params: emailParamsSchema,
        response: { 200: makeAdminResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: requireAdmin,
    },
    async (request) => accounts.makeAdmin(request.params.email),
  );

  app.delete(
    '/api/user/admin/:email',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Remove admin rights (admin)',
        description:
          '`modifiedCount` is 1 when the rights were removed, 0 when the user was not an admin; 404 for an unknown ' +
          'email; 409 `last_admin` when they are the last administrator.',
        security: bearerAuth,
        params: emailParamsSchema,
        response: { 200: makeAdminResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: requireAdmin,
    },
    async (request) => accounts.removeAdmin(request.params.email),
  );

  app.get(
    '/api/profile',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Your profile',
        description: 'Empty fields and `updatedAt: null` until you save one.',
        security: bearerAuth,
        response: { 200: profileSchema, ...errorResponses(401) },
      },
      onRequest: requireUser,
    },
    async (request) => profiles.get(currentUser(request).id),
  );

  app.post(
    '/api/profile',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Save your profile',
        description: 'Creates or replaces the signed-in user’s profile. `img` and `link` accept http(s) links only.',
        security: bearerAuth,
        body: profileBodySchema,
        response: { 200: profileSchema, ...errorResponses(400, 401) },
      },
      onRequest: requireUser,
    },
    async (request) => profiles.save(currentUser(request).id, request.body),
  );

  app.get(
    '/api/auth/providers',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Which sign-in providers are configured',
        response: { 200: providersSchema },
      },
    },
    async () => ({ google: google.configured }),
  );

  const callbackPath = '/api/auth/google/callback';
  // L8: Google's redirect address comes from PUBLIC_URL (http://localhost:PORT in development), never from Host.
  const redirectUri = new URL(callbackPath, `${publicUrl(config)}/`).href;
  // L4: only a fixed code travels in the fragment; the web maps it to its sentence.
  const failTo = (error: GoogleSignInError) => `/auth/callback#error=${error.code}`;

  app.get(
    '/api/auth/google',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Start Sign In With Google (browser navigation)',
        description:
          'Sets the HttpOnly cookie `rl_google` that binds the sign-in to this browser and redirects (302) to Google ' +
          'with state, nonce and a PKCE challenge. `returnTo` must be a path on this site. Problems redirect to ' +
          '`/auth/callback#error=<code>`.',
        querystring: z.object({ returnTo: z.string().max(512).optional() }),
        response: {
          302: z.null().describe('To the provider, or to /auth/callback#error=<code>'),
          ...errorResponses(400, 429),
        },
      },
      preHandler: limits.googlePerIp.hit,
    },
    async (request, reply) => {
      // The same browser keeps one binding, so two tabs starting a sign-in do not undo each other.
      const binding = readGoogleCookie(request) ?? crypto.randomBytes(32).toString('base64url');
      try {
        const url = await google.start(redirectUri, safeReturnTo(request.query.returnTo), binding);
        reply.header('set-cookie', `${GOOGLE_COOKIE}=${binding}; Max-Age=600; ${cookieAttributes}`);
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (error instanceof GoogleSignInError) return reply.redirect(failTo(error), 302);
        throw error;
      }
    },
  );

  app.get(
    callbackPath,
    {
      schema: {
        tags: ['accounts'],
        summary: 'Finish Sign In With Google (the provider redirects here)',
        description:
          'Needs the `rl_google` cookie of the browser that started the sign-in. Verifies state, PKCE and the ID ' +
          'token, links or creates the user and redirects to `/auth/callback#code=<one-time code>&returnTo=…` ' +
          '(never a token: the code is redeemed with POST /api/auth/google/redeem), or `#error=<code>`.',
        // Loose: Google adds parameters of its own (authuser, hd, prompt…); openid-client reads what it needs.
        querystring: z.looseObject({
          code: z.string().max(4096).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(256).optional(),
          iss: z.string().max(512).optional(),
        }),
        response: { 302: z.null().describe('To /auth/callback with a one-time code or an error code') },
      },
    },
    async (request, reply) => {
      const current = new URL(redirectUri);
      current.search = new URL(request.url, 'http://callback.invalid').search;
      try {
        const { code, returnTo } = await google.finish(current, readGoogleCookie(request));
        const fragment = new URLSearchParams({ code, returnTo });
        return reply.redirect(`/auth/callback#${fragment.toString()}`, 302);
      } catch (error) {
        if (error instanceof GoogleSignInError) return reply.redirect(failTo(error), 302);
        throw error;
      }
    },
  );

  app.post(
    '/api/auth/google/redeem',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Exchange the one-time code of a Google sign-in for a session',
        description:
          'Only from the browser that started the sign-in (its `rl_google` cookie); the code is single use and ' +
          'valid 60 s. Anything else: 400 `invalid_code`. Clears the cookie on success.',
        body: googleRedeemBodySchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 429) },
      },
      preHandler: limits.tokensPerIp.hit,
    },
    async (request, reply) => {
      const auth = await google.redeem(request.body.code, readGoogleCookie(request));
      if (!auth) throw new AppError(400, 'invalid_code', accountMessages.invalidGoogleCode);
      reply.header('set-cookie', `${GOOGLE_COOKIE}=; Max-Age=0; ${cookieAttributes}`);
      return auth;
    },
  );
};
