import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCheckSchema,
  authResponseSchema,
  emailParamsSchema,
  loginBodySchema,
  makeAdminResponseSchema,
  meSchema,
  profileBodySchema,
  profileSchema,
  providersSchema,
  safeReturnTo,
  signupBodySchema,
  tokenRequestBodySchema,
  tokenResponseSchema,
  userListItemSchema,
} from '../../../shared/schemas/accounts.ts';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import { createAbuseLimits } from './abuse-limits.ts';
import { type AccountsService, badCredentials } from './accounts-service.ts';
import { type GoogleSignIn, GoogleSignInError } from './google-sign-in.ts';
import type { ProfileService } from './profile-service.ts';
import type { SessionRepository } from './session-repository.ts';

interface AccountsRoutesOptions {
  accounts: AccountsService;
  profiles: ProfileService;
  google: GoogleSignIn;
  sessions: SessionRepository;
}

/** Sign-up, sign-in, Google, tokens, roles, users admin and profile. */
export const accountsRoutes: FastifyPluginAsyncZod<AccountsRoutesOptions> = async (app, options) => {
  const { config } = app;
  const { accounts, profiles, google, sessions } = options;
  const limits = createAbuseLimits(app, config);

  // Housekeeping: sessions that can no longer be used and abandoned Google sign-ins, every few hours.
  const housekeeping = setInterval(() => {
    Promise.all([sessions.deleteExpired(), google.deleteExpiredStates()]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'accounts housekeeping failed'),
    );
  }, 6 * 3_600_000);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  app.post(
    '/api/signup',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign up with name, email and password',
        description: 'Creates a customer and signs them in. Rate limited per IP and per email (429 with Retry-After).',
        body: signupBodySchema,
        response: { 201: authResponseSchema, ...errorResponses(400, 409, 429) },
      },
      preHandler: [limits.signupPerIp.hit, limits.signupPerAccount.hit],
    },
    async (request, reply) => {
      const result = await accounts.signUp(request.body);
      return reply.status(201).send(result);
    },
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password',
        description:
          'Wrong password and unknown email answer the same 401. Rate limited per IP (every attempt) and per account ' +
          '(failed attempts), 429 with Retry-After.',
        body: loginBodySchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 429) },
      },
      preHandler: [limits.loginPerIp.hit, limits.loginPerAccount.check],
    },
    async (request, reply) => {
      const result = await accounts.logIn(request.body);
      if (!result) {
        await limits.loginPerAccount.hit(request, reply);
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
    async (request) => {
      const user = currentUser(request);
      return { email: user.email, displayName: user.displayName, isAdmin: user.isAdmin };
    },
  );

  app.put(
    '/api/user/:email',
    {
      schema: {
        tags: ['accounts'],
        summary: 'A fresh token for your own account',
        description: 'Only for the caller’s own email and a valid session (401 anonymous, 403 another email).',
        security: bearerAuth,
        params: emailParamsSchema,
        body: tokenRequestBodySchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403) },
      },
      onRequest: requireUser,
    },
    async (request) => accounts.freshToken(currentUser(request), request.params.email),
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
        security: bearerAuth,
        response: { 200: z.array(userListItemSchema), ...errorResponses(401, 403) },
      },
      onRequest: requireAdmin,
    },
    async () => accounts.listUsers(),
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
  const redirectUri = (request: FastifyRequest) =>
    new URL(callbackPath, config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).href;
  const failTo = (message: string) => `/auth/callback#error=${encodeURIComponent(message)}`;

  app.get(
    '/api/auth/google',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Start Sign In With Google (browser navigation)',
        description:
          'Redirects (302) to Google with state, nonce and a PKCE challenge. `returnTo` must be a path on this site. ' +
          'Problems redirect to `/auth/callback#error=…`.',
        querystring: z.object({ returnTo: z.string().max(512).optional() }),
        response: {
          302: z.null().describe('To the provider, or to /auth/callback#error=…'),
          ...errorResponses(400, 429),
        },
      },
      preHandler: limits.googlePerIp.hit,
    },
    async (request, reply) => {
      try {
        const url = await google.start(redirectUri(request), safeReturnTo(request.query.returnTo));
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (error instanceof GoogleSignInError) return reply.redirect(failTo(error.message), 302);
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
          'Verifies state, PKCE and the ID token, links or creates the user and redirects to ' +
          '`/auth/callback#token=…&returnTo=…` (a fragment is never sent to a server), or `#error=…`.',
        // Loose: Google adds parameters of its own (authuser, hd, prompt…); openid-client reads what it needs.
        querystring: z.looseObject({
          code: z.string().max(4096).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(256).optional(),
          iss: z.string().max(512).optional(),
        }),
        response: { 302: z.null().describe('To /auth/callback with the token or the error in the fragment') },
      },
    },
    async (request, reply) => {
      const current = new URL(redirectUri(request));
      current.search = new URL(request.url, 'http://callback.invalid').search;
      try {
        const { auth, returnTo } = await google.finish(current);
        const fragment = new URLSearchParams({ token: auth.token, returnTo });
        return reply.redirect(`/auth/callback#${fragment.toString()}`, 302);
      } catch (error) {
        if (error instanceof GoogleSignInError) return reply.redirect(failTo(error.message), 302);
        throw error;
      }
    },
  );
};
