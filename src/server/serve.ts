import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig, publicUrl } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDemoData } from './db/seed.ts';
import { startIdleMemoryRelease } from './idle-memory.ts';
import { instanceIdentity } from './instance-identity.ts';
import { closeHealthListener, listenForHealth } from './plugins/health-listener.ts';
import { resolveSessionSecret } from './secrets.ts';
import { startWatchdog } from './watchdog.ts';

/** After the cap, how long the last 503s get to leave before the process exits. */
const FLUSH_MS = 300;
/** The watchdog's hard deadline is the cap plus this: time for the cap's own exit to run first. */
const WATCHDOG_GRACE_MS = 5000;
/**
 * Connections the kernel may hold for us while we are busy (Linux caps it at net.core.somaxconn). Node's 511 makes
 * a burst of clients wait for their SYN to be resent (1 s, 3 s, 7 s…); held, they are accepted a moment later and
 * served or answered 503 by the load shedding at once.
 */
const LISTEN_BACKLOG = 4096;

/** Production entry: read config, open the database, build, listen, and close everything on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { handle, release } = await openDatabase(config);
  const instance = instanceIdentity(config);
  const app = await buildApp({
    config,
    database: handle,
    sessionSecret: resolveSessionSecret(config),
    startJobs: 'by-caller',
    instanceId: instance.id,
  });
  if (!instance.persisted) {
    app.log.warn(
      `DATA_DIR/instance-id could not be written: after a crash, this instance's mail and imports are taken back ` +
        'only when their leases run out. Set INSTANCE_ID or make DATA_DIR writable.',
    );
  }
  // From here on the process stops by itself if its event loop stalls (a wedged database) or a stop overruns.
  const watchdog = startWatchdog(config.WATCHDOG_STALL_SECONDS);

  let healthServer: Awaited<ReturnType<typeof listenForHealth>> | undefined;
  let jobsStarting: Promise<void> | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const capMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    watchdog.stopping(capMs + WATCHDOG_GRACE_MS);
    // A stop that cannot finish in time (a database that never answers, a client that never reads) still answers
    // every request it holds, then exits 0: nothing was left unanswered, so it stopped as asked.
    const cap = setTimeout(() => {
      const answered = app.answerUnfinished();
      app.log.warn({ answered, capSeconds: config.SHUTDOWN_TIMEOUT_SECONDS }, 'graceful stop reached its time cap');
      setTimeout(() => {
        release();
        process.exit(0);
      }, FLUSH_MS);
    }, capMs);
    try {
      if (healthServer) await closeHealthListener(healthServer);
      // The jobs start after the server answers: a stop that comes meanwhile lets them finish starting first, or
      // pg-boss, stopped half-way, would fail the start and the process would exit 1 instead of 0.
      await jobsStarting?.catch(() => {});
      await app.close();
      await handle.close();
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
    } finally {
      clearTimeout(cap);
      release();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    if (config.SEED_DEMO_DATA === 'true') {
      // A plain line on stderr (the terminal, not the JSON log on stdout), whatever LOG_LEVEL says, written before
      // "serving" so whoever sees that has seen it.
      await seedDemoData(handle.db, config, app.log, {
        announceAdminSignIn: (line) => process.stderr.write(`${line}\n`),
      });
    }
    await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
    // The shop answers from here; mail and housekeeping join a moment later, and a failure to start them still
    // stops the process (the catch below), as it did when they started before listening.
    jobsStarting = app.services.jobs.start();
    await jobsStarting;
    if (closing) return;
    // A server at rest gives back the memory that starting (and the last busy spell) left behind.
    startIdleMemoryRelease({
      onCollected: (result) => app.log.debug(result, 'memory released after a quiet spell'),
    });
    if (config.HEALTH_PORT > 0) {
      healthServer = await listenForHealth(app, {
        port: config.HEALTH_PORT,
        host: config.HOST,
        headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      });
      app.log.info(`Health checks also answer on http://localhost:${config.HEALTH_PORT}/api/health`);
    }
    const where = handle.driver === 'pglite' ? `PGlite in ${path.resolve(config.DATA_DIR)}` : 'PostgreSQL';
    app.log.info(`Redline Parts is serving on http://localhost:${config.PORT} (database: ${where})`);
    if (config.NODE_ENV === 'production' && config.paymentProvider === 'test') {
      // Chosen by name (config.ts refuses a production start that merely lacks Stripe's keys), but still worth a
      // line at every start: no order paid here was paid with money.
      app.log.warn(
        'PAYMENT_PROVIDER=test in production: the test gateway takes the published test card numbers and charges ' +
          'nothing, and the payment page says so. Configure Stripe before selling.',
      );
    }
    if (config.NODE_ENV === 'production' && !config.PUBLIC_URL) {
      // Links in mails (verify email, reset password, pay an order) are built from PUBLIC_URL, never from a request's
      // Host header: without it they point at localhost, which no customer can open.
      app.log.warn(
        `PUBLIC_URL is not set: links in mails point to ${publicUrl(config)}. Set PUBLIC_URL to the shop's address.`,
      );
    }
  } catch (error) {
    // A stop under way owns the exit (a start it interrupted is not a failed start).
    if (closing) return;
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
