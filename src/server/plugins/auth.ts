/**
 * Who is calling. Every request's bearer token is looked up through the `SessionLookup` port it is given (the
 * accounts module's session store, wired in `services.ts`); this plugin knows no table and no module.
 *
 * Guard convention: a guarded route names its guard as `onRequest: requireUser` or `onRequest: requireAdmin`, always
 * onRequest and never preHandler. onRequest runs before the body is parsed and before params, query and body are
 * validated, so a caller who may not use the route is refused (401/403) whatever it sent, and learns nothing about
 * what the route would have said of its input. Routes with other preHandlers (rate limits) keep those separate.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';

/** The signed-in caller, as every module sees it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  isAdmin: boolean;
  /** The owner proved the address (mailed link, password reset, or Google's verified claim). */
  emailVerified: boolean;
  /** False for an account that signs in only with Google. */
  hasPassword: boolean;
}

/** The one thing the auth plugin needs: the user behind a token, or null when it is unknown, expired or revoked. */
export interface SessionLookup {
  findUser(token: string): Promise<SessionUser | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, or null. Filled from `Authorization: Bearer …` on every request. */
    user: SessionUser | null;
    /** The raw bearer token the caller sent (valid or not), for sign-out. Never log it. */
    bearerToken: string | null;
  }
}

interface AuthPluginOptions {
  sessions: SessionLookup;
}

function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Reads the bearer token on every request. An invalid token on a public route is treated as anonymous
 * (a stale token must not break the home page); guarded routes reject it with 401 via `requireUser`.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthPluginOptions) => {
    const { sessions } = options;
    app.decorateRequest('user', null);
    app.decorateRequest('bearerToken', null);
    // Callback style: an anonymous request (most catalogue reads) then costs no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const token = readBearer(request);
      request.bearerToken = token;
      if (!token) {
        request.user = null;
        done();
        return;
      }
      sessions.findUser(token).then((user) => {
        request.user = user;
        done();
      }, done);
    });
  },
  { name: 'auth' },
);

/** onRequest guard: the caller must be signed in with a valid, unexpired, unrevoked token. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) {
    throw request.bearerToken
      ? new UnauthorizedError('Your session has ended. Please sign in again.', 'invalid_token')
      : new UnauthorizedError();
  }
}

/** onRequest guard: the caller must be a signed-in administrator. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (!request.user?.isAdmin) throw new ForbiddenError('Only administrators can do this.');
}

/** The signed-in user inside a handler guarded by requireUser/requireAdmin. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new UnauthorizedError();
  return request.user;
}
