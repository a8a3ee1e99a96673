import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { SessionRepository, type SessionUser } from '../modules/accounts/session-repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionRepository;
  }
  interface FastifyRequest {
    /** The signed-in caller, or null. Filled from `Authorization: Bearer …` on every request. */
    user: SessionUser | null;
    /** The raw bearer token the caller sent (valid or not), for sign-out. Never log it. */
    bearerToken: string | null;
  }
}

export interface AuthPluginOptions {
  sessionSecret: string;
  sessionTtlHours: number;
}

function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Reads the bearer token on every request. An invalid token on a public route is treated as anonymous
 * (a stale token must not break the home page); protected routes reject it with 401 via `requireUser`.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthPluginOptions) => {
    app.decorate('sessions', new SessionRepository(app.db, options.sessionSecret, options.sessionTtlHours));
    app.decorateRequest('user', null);
    app.decorateRequest('bearerToken', null);
    app.addHook('onRequest', async (request) => {
      const token = readBearer(request);
      request.bearerToken = token;
      request.user = token ? await app.sessions.findUser(token) : null;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

/** preHandler: the caller must be signed in with a valid, unexpired, unrevoked token. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) {
    throw request.bearerToken
      ? new UnauthorizedError('Your session has ended. Please sign in again.', 'invalid_token')
      : new UnauthorizedError();
  }
}

/** preHandler: the caller must be a signed-in administrator. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (!request.user?.isAdmin) throw new ForbiddenError('Only administrators can do this.');
}

/** The signed-in user inside a handler guarded by requireUser/requireAdmin. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new UnauthorizedError();
  return request.user;
}

/** Emails are compared without regard to case, as the database's unique index does. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
