import crypto from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a listener tells its owner. */
export interface NotificationEvents {
  /** A notification on the channel (never one of the listener's own catch-up markers). */
  onNotification(payload: string): void;
  /**
   * `true` once LISTEN is in place, again after every reconnect; `false` when the connection is lost. Whatever was
   * sent while it was down is lost, so the owner must treat every `true` as "anything may have changed". With
   * `false` comes why, for the log.
   */
  onListening(listening: boolean, reason?: string): void;
}

/** One LISTEN on one channel, on a connection of its own where the driver has several. */
export interface NotificationListener {
  readonly listening: boolean;
  /**
   * Resolves once every notification committed before this call has been handed to `onNotification` (true), or
   * false: at once when not listening, or when the check's marker was not heard within `timeoutMs`, in which case
   * the connection counts as lost (`onListening(false)`) before this resolves. A write's answer waits on this so the
   * writer's next read is fresh.
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
  /**
   * How often the connection is proved alive while nothing else has: a catch-up round of its own when no round was
   * heard from for this long. A connection whose peer vanished without a word (a dropped NAT or firewall flow, a
   * frozen backend) sends no 'end' and no error; only a marker that does not come back tells.
   */
  probeMs?: number;
  /** How long the probe's marker may take before the connection counts as lost. */
  probeTimeoutMs?: number;
  /** First wait before reconnecting; it doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

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

/** A caller of `caughtUp` waiting for the next marker round, and how long it may wait for it. */
interface Joiner {
  resolve(caughtUp: boolean): void;
  timeoutMs: number;
}

class PostgresListener implements NotificationListener {
  readonly #connectionString: string;
  readonly #channel: string;
  readonly #events: NotificationEvents;
  readonly #options: Required<PostgresListenerOptions>;
  readonly #markerPrefix = `${MARKER_PREFIX}${crypto.randomUUID()}:`;
  /** Markers on their way, each told whether it came back. */
  readonly #waiting = new Map<string, (heard: boolean) => void>();
  /** The listening connection: set once LISTEN is in place and a marker came back on it, unset while lost. */
  #client: pg.Client | undefined;
  /** Connections already given up: each is reported lost, and replaced, once. */
  readonly #dropped = new WeakSet<pg.Client>();
  #closed = false;
  #retryMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #probeTimer: NodeJS.Timeout | undefined;
  #markers = 0;
  /** When a marker last came back (performance.now()): no probe is sent while rounds prove the connection anyway. */
  #lastHeard = 0;
  /** Callers of caughtUp waiting for the next marker, and whether a marker round is under way. */
  #joiners: Joiner[] = [];
  #roundRunning = false;

  constructor(connectionString: string, channel: string, events: NotificationEvents, options: PostgresListenerOptions) {
    this.#connectionString = connectionString;
    this.#channel = channel;
    this.#events = events;
    this.#options = { probeMs: 2000, probeTimeoutMs: 1000, retryMs: 250, maxRetryMs: 5000, ...options };
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
    client.on('error', () => this.#lost(client, 'connection error'));
    client.on('end', () => this.#lost(client, 'connection closed'));
    client.on('notification', (message) => {
      if (message.channel !== this.#channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(MARKER_PREFIX)) {
        this.#waiting.get(payload)?.(true);
        return;
      }
      this.#events.onNotification(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.#channel)}`);
    } catch {
      this.#lost(client, 'could not connect');
      return;
    }
    // LISTEN answered, but what counts is that notifications come back on this connection: one marker must.
    if (!this.#closed && !this.#dropped.has(client) && !(await this.#marker(client, this.#options.connectTimeoutMs))) {
      this.#lost(client, `no marker back within ${this.#options.connectTimeoutMs} ms of connecting`);
      return;
    }
    if (this.#dropped.has(client)) return;
    if (this.#closed) {
      await this.#end(client);
      return;
    }
    this.#client = client;
    this.#retryMs = this.#options.retryMs;
    this.#events.onListening(true);
    this.#probe(client, this.#options.probeMs);
  }

  /**
   * A marker round when none was heard for `probeMs`, so an instance that only reads learns of a silently dead
   * connection too. It shares the one queue of rounds with the writers' (one query at a time on this connection).
   */
  #probe(client: pg.Client, delayMs: number): void {
    this.#probeTimer = setTimeout(() => {
      if (this.#client !== client) return;
      const quietMs = performance.now() - this.#lastHeard;
      if (quietMs < this.#options.probeMs) {
        this.#probe(client, this.#options.probeMs - quietMs);
        return;
      }
      void this.caughtUp(this.#options.probeTimeoutMs).then(() => {
        if (this.#client === client) this.#probe(client, this.#options.probeMs);
      });
    }, delayMs).unref();
  }

  /**
   * The connection is of no more use: the owner hears `false` at once (before any waiting caller is answered), the
   * socket is destroyed (a peer that vanished will never answer a goodbye), and a new connection is tried later.
   */
  #lost(client: pg.Client, why: string): void {
    // Once per connection: its error, its end and a check that went unanswered may all report the one loss.
    if (this.#dropped.has(client)) return;
    this.#dropped.add(client);
    if (this.#client === client) {
      this.#client = undefined;
      clearTimeout(this.#probeTimer);
      this.#events.onListening(false, why);
    }
    for (const wake of this.#waiting.values()) wake(false);
    client.connection.stream.destroy();
    if (this.#closed) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, this.#options.maxRetryMs);
    this.#retryTimer = setTimeout(() => void this.connect(), wait).unref();
  }

  /**
   * PostgreSQL delivers notifications in commit order, so once a marker sent now comes back on this connection,
   * every notification committed before it (the caller's own write's) has arrived. A marker that does not come back
   * within its round's timeout means the connection is dead, even if it said nothing: it is dropped at once. While
   * lost the answer is false at once (the owner serves nothing it kept meanwhile, so there is nothing to wait for).
   */
  caughtUp(timeoutMs: number): Promise<boolean> {
    if (!this.#client) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.#joiners.push({ resolve, timeoutMs });
      if (!this.#roundRunning) void this.#rounds();
    });
  }

  /**
   * One marker at a time on the listening connection (pg deprecates a query sent while another runs), shared by
   * every caller that arrived meanwhile: a marker already on its way may have left before a caller's write
   * committed, so those callers wait for the next one, which leaves after it.
   */
  async #rounds(): Promise<void> {
    this.#roundRunning = true;
    try {
      while (this.#joiners.length > 0) {
        const round = this.#joiners;
        this.#joiners = [];
        const client = this.#client;
        const timeoutMs = Math.min(...round.map((joiner) => joiner.timeoutMs));
        const heard = client !== undefined && (await this.#marker(client, timeoutMs));
        // Lost before anyone is answered: a write's answer leaves only once its instance serves nothing it kept.
        if (!heard && client && this.#client === client) this.#lost(client, `no marker back within ${timeoutMs} ms`);
        for (const joiner of round) joiner.resolve(heard);
      }
    } finally {
      this.#roundRunning = false;
    }
  }

  async #marker(client: pg.Client, timeoutMs: number): Promise<boolean> {
    this.#markers += 1;
    const marker = `${this.#markerPrefix}${this.#markers}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      const heard = await new Promise<boolean>((resolve) => {
        this.#waiting.set(marker, resolve);
        // After the timers, the loop reads the sockets: a marker that arrived while the event loop was blocked
        // (a long synchronous task, a GC pause) is heard before the timeout counts, not taken for a dead connection.
        timer = setTimeout(() => setImmediate(() => resolve(false)), timeoutMs);
        client.query('select pg_notify($1, $2)', [this.#channel, marker]).catch(() => resolve(false));
      });
      if (heard) this.#lastHeard = performance.now();
      return heard;
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(marker);
    }
  }

  /** A goodbye to a live server, bounded: one that does not answer it has its socket destroyed. */
  async #end(client: pg.Client): Promise<void> {
    const timer = setTimeout(() => client.connection.stream.destroy(), this.#options.connectTimeoutMs);
    await client.end().catch(() => {});
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#probeTimer);
    const client = this.#client;
    this.#client = undefined;
    for (const wake of this.#waiting.values()) wake(false);
    if (client) {
      this.#events.onListening(false);
      await this.#end(client);
    }
  }
}
