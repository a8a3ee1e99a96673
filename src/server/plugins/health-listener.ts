import http from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Marks a request that came in on the health port: there the readiness report is given in full (the port is meant for
 * the orchestrator's probes, on a private network), while the shop's own port says only up or down.
 */
export const CAME_IN_ON_HEALTH_PORT = Symbol('came in on the health port');

/** True for a request the health listener handed to the app. */
export function cameInOnHealthPort(raw: http.IncomingMessage): boolean {
  return (raw as http.IncomingMessage & { [CAME_IN_ON_HEALTH_PORT]?: boolean })[CAME_IN_ON_HEALTH_PORT] === true;
}

/** The paths the health listener answers; anything else there is a 404 (it is no second door into the shop). */
const HEALTH_PATHS = new Set(['/api/health', '/api/health/live']);

/**
 * A second listening socket (HEALTH_PORT) that answers only the health checks, through the same Fastify routes.
 *
 * Why: Node's event loop (libuv 1.52) takes one new connection per listening socket per turn of the loop. When a
 * flood keeps each turn long, the kernel's accept queue of the shop's port holds a thousand connections or more, and
 * a health check waits behind all of them, unanswered for seconds while the process itself is fine
 * (docs/operations.md, "Health, timeouts, load shedding"). A port of its own has its own queue, so the
 * checker's connection is taken on the next turn. Point the orchestrator's probes here; the same routes on PORT stay
 * as they were.
 */
export async function listenForHealth(
  app: FastifyInstance,
  options: { port: number; host: string; headersTimeoutMs: number },
): Promise<http.Server> {
  const server = http.createServer(
    { headersTimeout: options.headersTimeoutMs, requestTimeout: options.headersTimeoutMs },
    (request, response) => {
      const pathName = (request.url ?? '').split('?')[0] ?? '';
      if ((request.method === 'GET' || request.method === 'HEAD') && HEALTH_PATHS.has(pathName)) {
        (request as http.IncomingMessage & { [CAME_IN_ON_HEALTH_PORT]?: boolean })[CAME_IN_ON_HEALTH_PORT] = true;
        app.routing(request, response);
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(
        JSON.stringify({
          error: { code: 'not_found', message: 'Only the health checks are answered on this port.' },
        }),
      );
    },
  );
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Stops the health listener: no new checks, open ones closed. */
export function closeHealthListener(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
