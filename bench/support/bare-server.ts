/**
 * A bare Fastify 5 server (no plugins, no hooks) answering fixed bytes: the ceiling a route of ours is compared with
 * (bench/catalog-cache.ts). Run as a child process so it does not share a core's event loop with autocannon:
 *
 *   BARE_PORT=… BARE_ROUTES='[{"path":"/list","file":"/tmp/…","contentType":"application/json; charset=utf-8"}]' \
 *     node bench/support/bare-server.ts
 *
 * Prints "listening" once it is.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

interface BareRoute {
  path: string;
  file: string;
  contentType: string;
}

const routes = JSON.parse(process.env.BARE_ROUTES ?? '[]') as BareRoute[];
const app = Fastify({ logger: false });
for (const route of routes) {
  const body = fs.readFileSync(route.file);
  app.get(route.path, (_request, reply) => {
    reply.header('content-type', route.contentType).send(body);
  });
}
await app.listen({ host: '127.0.0.1', port: Number(process.env.BARE_PORT) });
console.log('listening');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
