import crypto from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a listener tells its owner. */
export interface NotificationEvents {
  /** A notification on the channel (never one of the listener's own catch-up markers). */
  onNotification(payload: string): void;
  /**
   * `true` once LISTEN is in place, again after every reconnect; `false` when the connection is lost. Whatever was
   * sent while it was down is lost, so the owner must treat every `true` as "anything may have changed".
   */
  onListening(listening: boolean): void;
}

/** One LISTEN on one channel, on a connection of its own where the driver has several. */
export interface NotificationListener {
  readonly listening: boolean;
  /**
   * Resolves once every notification committed before this call has been handed to `onNotification` (true), or
   * after `timeoutMs` / when not listening (false). A write's answer waits on this so the writer's next read is fresh.
   */
  caughtUp(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export const LISTENER_APPLICATION_NAME = 'redline-listener';

/**
 * What one catalogue notification says changed (migrations 0014 and 0016): some parts by id (a statement on `parts`
 * that changed at most 100 rows), or anything (any other table, a bulk write to `parts`, a truncate).
 */
export interface CatalogChange {
  parts: readonly string[] | 'all';
}

const PARTS_PREFIX = 'parts:';

export function catalogChange(payload: string): CatalogChange {
  if (!payload.startsWith(PARTS_PREFIX)) return { parts: 'all' };
  const ids = payload.slice(PARTS_PREFIX.length).split(',').filter(Boolean);
  return { parts: ids.length > 0 ? ids : 'all' };
}

/** Payloads of the listener's own catch-up markers: never a table name (the triggers send those). */
const MARKER_PREFIX = 'caught-up:';

/**
 * PGlite hands notifications to its listeners while the committing statement returns (one process, one session),
 * so by the time a write's transaction has resolved its notification has been seen: catching up is immediate.
 */
export async function listenPglite(
  client: PGlite,
  channel: string,
  events: NotificationEvents,
): Promise<NotificationListener> {
  const unlisten = await client.listen(channel, (payload) => events.onNotification(payload));
  events.onListening(true);
  let listening = true;
  return {
    get listening() {
      return listening;
    },
    caughtUp: async () => listening,
    close: async () => {
      if (!listening) return;
      listening = false;
      events.onListening(false);
      await unlisten().catch(() => {});
    },
  };
}

export interface PostgresListenerOptions {
  connectTimeoutMs: number;
  /** How often the idle connection is checked with `select 1` (a silently dropped connection sends no 'end'). */
  heartbeatMs?: number;
  /** First wait before reconnecting; it doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * A dedicated PostgreSQL connection that LISTENs on `channel`, reconnecting (with backoff) whenever it is lost. The
 * first attempt is awaited, so an app that starts with the database up is listening before it answers anything.
 */
export async function listenPostgres(
  connectionString: string,
  channel: string,
  events: NotificationEvents,
  options: PostgresListenerOptions,
): Promise<NotificationListener> {
  const listener = new PostgresListener(connectionString, channel, events, options);
  await listener.connect();
  return listener;
}

/**
 * The connection string with this connection's name, so an operator (and a test) can tell it from the pool's in
 * pg_stat_activity (pg takes `application_name` from the string over its own option).
 */
function named(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    url.searchParams.set('application_name', LISTENER_APPLICATION_NAME);
    return url.toString();
  } catch {
    return connectionString;
  }
}

class PostgresListener implements NotificationListener {
  readonly #connectionString: string;
  readonly #channel: string;
  readonly #events: NotificationEvents;
  readonly #options: Required<PostgresListenerOptions>;
  readonly #markerPrefix = `${MARKER_PREFIX}${crypto.randomUUID()}:`;
  readonly #waiting = new Map<string, () => void>();
  #client: pg.Client | undefined;
  #closed = false;
  #retryMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #markers = 0;
  /** Callers of caughtUp waiting for the next marker, and whether a marker round is under way. */
  #joiners: ((caughtUp: boolean) => void)[] = [];
  #roundRunning = false;

  constructor(connectionString: string, channel: string, events: NotificationEvents, options: PostgresListenerOptions) {
    this.#connectionString = connectionString;
    this.#channel = channel;
    this.#events = events;
    this.#options = { heartbeatMs: 10_000, retryMs: 250, maxRetryMs: 5000, ...options };
    this.#retryMs = this.#options.retryMs;
  }

  get listening(): boolean {
    return this.#client !== undefined;
  }

  async connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: named(this.#connectionString),
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
      keepAlive: true,
      query_timeout: this.#options.connectTimeoutMs,
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      this.#lost(client);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.channel !== this.#channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(MARKER_PREFIX)) {
        this.#waiting.get(payload)?.();
        return;
      }
      this.#events.onNotification(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.#channel)}`);
    } catch {
      onLost();
      return;
    }
    if (this.#closed || lost) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = this.#options.retryMs;
    this.#events.onListening(true);
    // The heartbeat is a catch-up round too: every query on this connection goes through one queue.
    this.#heartbeat = setInterval(() => {
      void this.caughtUp(this.#options.connectTimeoutMs).then((ok) => {
        if (!ok && this.#client === client) onLost();
      });
    }, this.#options.heartbeatMs).unref();
  }

  #lost(client: pg.Client): void {
    if (this.#client === client) {
      this.#client = undefined;
      clearInterval(this.#heartbeat);
      this.#events.onListening(false);
    }
    for (const wake of this.#waiting.values()) wake();
    client.end().catch(() => {});
    if (this.#closed) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, this.#options.maxRetryMs);
    this.#retryTimer = setTimeout(() => void this.connect(), wait).unref();
  }

  /**
   * PostgreSQL delivers notifications in commit order, so once a marker sent now comes back on this connection,
   * every notification committed before it (the caller's own write's) has arrived.
   */
  caughtUp(timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.#joiners.push(resolve);
      if (!this.#roundRunning) void this.#rounds(timeoutMs);
    });
  }

  /**
   * One marker at a time on the listening connection (pg deprecates a query sent while another runs), shared by
   * every caller that arrived meanwhile: a marker already on its way may have left before a caller's write
   * committed, so those callers wait for the next one, which leaves after it.
   */
  async #rounds(timeoutMs: number): Promise<void> {
    this.#roundRunning = true;
    try {
      while (this.#joiners.length > 0) {
        const round = this.#joiners;
        this.#joiners = [];
        const ok = await this.#marker(timeoutMs);
        for (const resolve of round) resolve(ok);
      }
    } finally {
      this.#roundRunning = false;
    }
  }

  async #marker(timeoutMs: number): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    this.#markers += 1;
    const marker = `${this.#markerPrefix}${this.#markers}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<boolean>((resolve) => {
        this.#waiting.set(marker, () => resolve(this.#client === client));
        timer = setTimeout(() => resolve(false), timeoutMs);
        client.query('select pg_notify($1, $2)', [this.#channel, marker]).catch(() => resolve(false));
      });
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(marker);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    for (const wake of this.#waiting.values()) wake();
    if (client) {
      this.#events.onListening(false);
      await client.end().catch(() => {});
    }
  }
}
