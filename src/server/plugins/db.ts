import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, DatabaseHandle } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    dbDriver: DatabaseHandle['driver'];
  }
}

/** Exposes the database to routes. The handle's owner (main.ts or a test) opens and closes it. */
export const dbPlugin = fp(
  async (app: FastifyInstance, options: { handle: DatabaseHandle }) => {
    app.decorate('db', options.handle.db);
    app.decorate('dbDriver', options.handle.driver);
  },
  { name: 'db' },
);
