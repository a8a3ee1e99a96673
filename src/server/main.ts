import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDemoData } from './db/seed.ts';
import { resolveSessionSecret } from './secrets.ts';

/** Production entry: read config, open the database, build, listen, and close everything on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { handle, release } = await openDatabase(config);
  const app = await buildApp({ config, database: handle, sessionSecret: resolveSessionSecret(config) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    try {
      await app.close();
      await handle.close();
    } finally {
      release();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    if (config.SEED_DEMO_DATA === 'true') {
      // A plain stdout line, whatever LOG_LEVEL says, written before "serving" so whoever sees that has seen it.
      await seedDemoData(handle.db, config, app.log, {
        announceAdminSignIn: (line) => process.stdout.write(`${line}\n`),
      });
    }
    await app.listen({ port: config.PORT, host: config.HOST });
    const where = handle.driver === 'pglite' ? `PGlite in ${path.resolve(config.DATA_DIR)}` : 'PostgreSQL';
    app.log.info(`Redline Parts is serving on http://localhost:${config.PORT} (database: ${where})`);
  } catch (error) {
    app.log.error({ err: error }, 'start-up failed');
    await app.close().catch(() => {});
    await handle.close().catch(() => {});
    release();
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  // Config and lock errors come before the logger exists: say them plainly.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
