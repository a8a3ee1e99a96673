import fs from 'node:fs';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../config.ts';

type HttpConfig = Pick<
  AppConfig,
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
  | 'HTTP_IDLE_TIMEOUT_MS'
  | 'HTTP_MAX_REQUESTS_PER_SOCKET'
>;

/**
 * Fastify's server options that bound every wait on a client (README, configuration): the whole request, headers and
 * body, must arrive within HTTP_REQUEST_TIMEOUT_MS (a body sent one byte a second is cut off with 408), its headers
 * within HTTP_HEADERS_TIMEOUT_MS (a connection that sends nothing is closed then); an idle keep-alive connection
 * closes after HTTP_KEEP_ALIVE_TIMEOUT_MS and any silent one after HTTP_IDLE_TIMEOUT_MS.
 */
export function httpServerOptions(config: HttpConfig): Partial<FastifyServerOptions> & { http: ServerOptions } {
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS);
  return {
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    maxRequestsPerSocket: config.HTTP_MAX_REQUESTS_PER_SOCKET,
    http: {
      headersTimeout,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      // Node checks those two timeouts on this period (30 s by default, which would let them overrun by as much).
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
  };
}

/** The open-file limit of this process (Linux), or undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    return soft ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Caps on open connections, so that silent or slow clients cannot use up the open-file limit and shut out everyone
 * else, health checks included: MAX_CONNECTIONS in all (by default three quarters of the open-file limit, leaving
 * room for the database, files and the health check's own connection) and MAX_CONNECTIONS_PER_ADDRESS from one
 * client address. A connection past a cap is closed at once, before it costs more than its accept.
 */
export function limitConnections(
  server: Server,
  config: Pick<AppConfig, 'MAX_CONNECTIONS' | 'MAX_CONNECTIONS_PER_ADDRESS'>,
): { total: number; perAddress: number } {
  const total = config.MAX_CONNECTIONS || Math.max(64, Math.floor((openFileLimit() ?? 10_240) * 0.75));
  server.maxConnections = total;
  const perAddress = config.MAX_CONNECTIONS_PER_ADDRESS;
  if (perAddress > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = open.get(address) ?? 0;
      if (count >= perAddress) {
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return { total, perAddress };
}
