import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { DatabaseDriver } from '../../shared/enums.ts';
import { InsufficientStorageError } from '../errors.ts';
import { type DiskFloor, isReadOnlyStatement } from './disk-floor.ts';
import { listenPglite, listenPostgres, type NotificationEvents, type NotificationListener } from './notifications.ts';
import * as schema from './schema.ts';

/** The one database type the app codes against, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle inside `db.transaction(async (tx) => …)`: always use it there, never the outer `db`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Which driver a handle runs on; the list itself is shared with the health check's schema. */
export type { DatabaseDriver };

/** What the readiness check learns from the database itself. */
export interface DatabaseProbe {
  reachable: boolean;
  /** A one-row write in `health_probe` was committed. */
  writable: boolean;
  /** Why not, in a few words (never a value from a row). */
  problem?: string;
}

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseDriver;
  close(): Promise<void>;
  /**
   * Reachable and writable, asked on a connection of its own where the driver has several (so a pool full of slow
   * requests does not make the instance look dead). The caller bounds the time it waits.
   */
  probe(): Promise<DatabaseProbe>;
  /** PGlite in a directory: the disk it lives on, whose floor refuses writes. */
  disk?: DiskFloor;
  /**
   * LISTEN on a channel (on PostgreSQL a connection of its own, reconnecting when lost). Optional so hand-built
   * handles in tests need not offer it; without it the catalogue cache stays off (ADR 016).
   */
  listen?(channel: string, events: NotificationEvents): Promise<NotificationListener>;
}

/** The probe's write: one row, updated in place, so it never grows (HOT updates even without autovacuum). */
const probeWrite = sql`insert into health_probe (id, checked_at) values (1, now())
  on conflict (id) do update set checked_at = excluded.checked_at`;

async function runProbe(
  read: () => Promise<unknown>,
  write: () => Promise<unknown>,
  disk?: DiskFloor,
): Promise<DatabaseProbe> {
  try {
    await read();
  } catch (error) {
    return { reachable: false, writable: false, problem: describeFailure(error) };
  }
  if (disk?.belowFloor()) return { reachable: true, writable: false, problem: 'disk below its free-space floor' };
  try {
    await write();
    return { reachable: true, writable: true };
  } catch (error) {
    return { reachable: true, writable: false, problem: describeFailure(error) };
  }
}

/** An error's code and first line: driver messages name the failure, not row values. */
function describeFailure(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const text =
    String(cause?.message ?? message ?? error)
      .split('\n')[0]
      ?.slice(0, 200) ?? '';
  const shownCode = cause?.code ?? code;
  return typeof shownCode === 'string' ? `${shownCode}: ${text}` : text;
}

/** PostgreSQL's and PGlite's words for a write that found no space. */
const DISK_FULL = /No space left on device|could not (write to|extend) file/i;

function isDiskFull(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '53100' || (typeof message === 'string' && DISK_FULL.test(message));
}

/** How much PGlite work may run back to back before the event loop gets a turn. */
const PGLITE_SLICE_MS = 50;
let sliceStartedAt = performance.now();
let turnPending = false;

/**
 * Lets the event loop turn (timers, I/O, signals) when PGlite work has held it for a slice: once per slice rather
 * than before every statement, so under a flood (when a turn means answering thousands of sockets) the database
 * still gets most of the time. The slice is checked again after every wait: statements released by the same turn
 * share one slice, so a turn of the loop holds about one slice of database work, however many requests queued for
 * it (Node takes one new connection per turn: long turns leave new clients, health checks too, in the kernel's
 * accept queue).
 */
async function yieldToEventLoop(): Promise<void> {
  while (performance.now() - sliceStartedAt >= PGLITE_SLICE_MS) {
    if (!turnPending) {
      turnPending = true;
      setImmediate(() => {
        turnPending = false;
        sliceStartedAt = performance.now();
      });
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * What the app asks of PGlite goes through here:
 * - The event loop gets a turn at least every PGLITE_SLICE_MS of database work. PGlite runs a statement
 *   synchronously and hands over to the next one in a microtask, so a queue of statements (many requests at once)
 *   never yields: no connection is accepted, no answer written, no timer run until the queue is empty (measured:
 *   a queue of 100 statements ran for seconds without one turn). With the turns, health checks, load shedding's
 *   503s and the watchdog's heartbeat get through.
 * - With a `disk`: PGlite does not survive a full disk: after a write-ahead-log segment could not be written, its
 *   next statement spins at 100% CPU and never returns (measured with PGlite 0.5 on a full tmpfs). Below the disk
 *   floor, every statement that could need new space is refused before PGlite sees it (reads, and ending a
 *   transaction, still run). Once a statement has failed for want of space anyway (the floor is off, or something
 *   else filled the disk), PGlite is never called again: every statement is refused and `close()` skips PGlite's
 *   own (its shutdown checkpoint would be the statement that spins). What was committed is in its log; a restart
 *   after freeing space replays it.
 */
class PgliteGuard {
  readonly disk: DiskFloor | undefined;
  /** Set once PGlite has hit a full disk: from then on it is not safe to call. */
  wedgedBy: string | undefined;

  constructor(disk: DiskFloor | undefined) {
    this.disk = disk;
  }

  install(client: PGlite): void {
    const guardTarget = <T extends Pick<PgliteTransaction, 'query' | 'exec'>>(target: T): T => {
      target.query = this.#guarded(target.query.bind(target)) as T['query'];
      target.exec = this.#guarded(target.exec.bind(target)) as T['exec'];
      return target;
    };
    guardTarget(client);
    const transaction = client.transaction.bind(client);
    client.transaction = (async (callback: (tx: PgliteTransaction) => Promise<unknown>) => {
      if (this.wedgedBy) throw new InsufficientStorageError();
      await yieldToEventLoop();
      return transaction((tx) => callback(guardTarget(tx)));
    }) as PGlite['transaction'];
  }

  #check(statement: unknown): void {
    if (this.wedgedBy) throw new InsufficientStorageError();
    if (this.disk && typeof statement === 'string' && !isReadOnlyStatement(statement) && this.disk.belowFloor()) {
      throw new InsufficientStorageError();
    }
  }

  #guarded<F extends (...args: never[]) => Promise<unknown>>(run: F): F {
    return (async (...args: Parameters<F>) => {
      await yieldToEventLoop();
      this.#check(args[0]);
      try {
        return await run(...args);
      } catch (error) {
        if (this.disk && isDiskFull(error)) this.wedgedBy = 'a write found the disk full';
        throw error;
      }
    }) as F;
  }
}

function wrapPglite(client: PGlite, disk?: DiskFloor): DatabaseHandle {
  const guard = new PgliteGuard(disk);
  guard.install(client);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    close: async () => {
      // Below the floor its shutdown checkpoint may need the very space that is missing: the log is replayed instead.
      if (guard.wedgedBy || guard.disk?.belowFloor()) return;
      await client.close();
    },
    probe: async () => {
      if (guard.wedgedBy) {
        return { reachable: false, writable: false, problem: `embedded database stopped: ${guard.wedgedBy}` };
      }
      return runProbe(
        () => client.query('select 1'),
        () => db.execute(probeWrite),
        disk,
      );
    },
    listen: (channel, events) => listenPglite(client, channel, events),
    ...(disk ? { disk } : {}),
  };
}

/**
 * The extensions the migrations create (search's trigrams, ADR 012). PGlite builds them in but loads one only when
 * it is named here; a data directory whose catalogue has the extension fails to open without it.
 */
export const pgliteExtensions = { pg_trgm };

/**
 * Search's typo tolerance (ADR 012): a word matches a name from this trigram word similarity. pg_trgm's default,
 * 0.6, misses one wrong letter in a six-letter word ("exaust", "iridum": 0.5); the indexed operator `<%` reads the
 * setting, so it is set for every session rather than written into the query.
 */
const WORD_SIMILARITY_THRESHOLD = 0.5;

/**
 * PGlite persisted in a directory (the embedded default), or in memory when `dataDir` is undefined. With `disk`,
 * writes are refused below its floor (see DiskFloor).
 */
export async function openPglite(dataDir?: string, loadDataDir?: Blob, disk?: DiskFloor): Promise<DatabaseHandle> {
  const client = await PGlite.create({ dataDir, loadDataDir, extensions: pgliteExtensions });
  await client.exec(`set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`);
  return wrapPglite(client, disk);
}

/** The server's bounds on every wait on PostgreSQL (README, configuration). */
export interface PostgresTimeouts {
  /** Waiting for a connection, from the pool or a new one. */
  connectMs: number;
  /** One statement: the server cancels it (57014); the client gives up 1 s later if the server says nothing. */
  statementMs: number;
  /** A transaction left open and idle is ended by the server (25P03), releasing its locks. */
  idleInTransactionMs: number;
}

export const defaultPostgresTimeouts: PostgresTimeouts = {
  connectMs: 5000,
  statementMs: 15_000,
  idleInTransactionMs: 30_000,
};

/** A frozen server answers nothing, not even the cancel: the client's own wait is the statement's plus this. */
const CLIENT_GRACE_MS = 1000;
/** The readiness probe's own statements: short, whatever the app's bound. */
const PROBE_STATEMENT_MS = 2000;

/** See createPool: a lost connection is reported to whoever waits on it, not to the process. */
function ignoreLostConnection(): void {}

/** Without `timeouts` (migrations, scripts, tests) nothing is cut short: a migration may legitimately take long. */
function createPool(connectionString: string, max: number, timeouts?: PostgresTimeouts): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD}`,
    ...(timeouts
      ? {
          connectionTimeoutMillis: timeouts.connectMs,
          statement_timeout: timeouts.statementMs,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
          query_timeout: timeouts.statementMs + CLIENT_GRACE_MS,
        }
      : {}),
  });
  // A client that loses its server (a crash, a failover, `idle_in_transaction_session_timeout` ending a transaction)
  // emits 'error', and an 'error' nobody hears ends the process. pg-pool listens on its idle clients only (the
  // pool's 'error' below) and takes that listener off a client it hands out, so a transaction's client would be
  // unheard: every client gets a listener of its own for its whole life. Nothing else to do there: the statement in
  // flight rejects with the same error (answered 503, errors.ts), a later one with "not queryable", and the pool
  // drops the dead client on release and connects anew for the next request.
  pool.on('connect', (client) => {
    client.on('error', ignoreLostConnection);
  });
  pool.on('error', ignoreLostConnection);
  // A client handed back while a statement on it never answered (the client gave up waiting: a frozen server) is
  // closed, not reused: anything sent on it would queue behind the lost answer.
  pool.on('release', (error, client) => {
    const stuck = (client as unknown as { _getActiveQuery?: () => unknown })._getActiveQuery?.();
    if (!error && stuck) client.end().catch(() => {});
  });
  return pool;
}

/**
 * A pool of `maxConnections` on PostgreSQL. The server passes its `timeouts` (every wait bounded); scripts, the
 * migrator and tests leave them out.
 */
export function openPostgres(
  connectionString: string,
  maxConnections = 10,
  timeouts?: PostgresTimeouts,
): DatabaseHandle {
  const pool = createPool(connectionString, maxConnections, timeouts);
  // The probe's own connection: a pool busy with slow requests, or waiting for connections, does not hold it up.
  let probePool: pg.Pool | undefined;
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return {
    db,
    driver: 'postgres',
    close: async () => {
      await Promise.all([pool.end(), probePool?.end()]);
    },
    probe: () => {
      probePool ??= createPool(connectionString, 1, {
        ...(timeouts ?? defaultPostgresTimeouts),
        statementMs: Math.min(timeouts?.statementMs ?? PROBE_STATEMENT_MS, PROBE_STATEMENT_MS),
      });
      const probeDb = drizzlePostgres({ client: probePool });
      return runProbe(
        () => probeDb.execute(sql`select 1`),
        () => probeDb.execute(probeWrite),
      );
    },
    listen: (channel, events) =>
      listenPostgres(connectionString, channel, events, {
        connectTimeoutMs: (timeouts ?? defaultPostgresTimeouts).connectMs,
      }),
  };
}
