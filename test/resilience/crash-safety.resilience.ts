import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  allOrders,
  type Customer,
  call,
  cents,
  crashHarness,
  createPart,
  logInAdmin,
  SESSION_SECRET,
  scratchDatabase,
  signUp,
  sleep,
  stockOf,
  type WireOrder,
  type WirePart,
} from './support.ts';

/*
 * Crash safety: the production server takes orders from a load generator and is killed with SIGKILL mid-load,
 * then restarted on the same data. Whatever it acknowledged must be there; whatever it did not acknowledge is
 * either there whole or not at all; and stock plus ordered quantities still equals the starting stock. Some of the
 * load deletes unpaid orders (which gives their stock back), so both stock-changing transactions are interrupted.
 * A last round stops the server with SIGTERM mid-load instead: a graceful stop may refuse (503) or drop requests it
 * has not started, but must answer every one it carried out.
 */

const KILLS = 3;
const CONCURRENCY = 12;
const CUSTOMERS = 6;
const PLENTY_STOCK = 1_000_000;
/** Runs out during the first round or two, so refusals for stock are part of the load too. */
const SCARCE_STOCK = 150;

interface Attempt {
  partId: string;
  quantity: number;
  customer: Customer;
  address: string;
  phone: string;
  outcome: 'pending' | 'acknowledged' | 'refused' | 'unknown';
  orderId?: string;
  /** Set once the load tried to delete this (acknowledged) order. */
  deletion?: 'pending' | 'acknowledged' | 'refused' | 'unknown';
}

interface RoundFigures {
  round: number;
  signal: 'SIGKILL' | 'SIGTERM';
  killAfterMs: number;
  sent: number;
  acknowledged: number;
  refused: number;
  unknown: number;
  committedUnacknowledged: number;
  closing: number;
  notConnected: number;
  deletesAcknowledged: number;
  deletesUnknown: number;
  lost: number;
  restartMs: number;
}

/**
 * Places orders with bounded concurrency until stopped (every attempt carries a unique address to find it again);
 * one request in five deletes an order acknowledged earlier instead.
 */
class LoadGenerator {
  readonly attempts = new Map<string, Attempt>();
  readonly deletes: Attempt[] = [];
  readonly unexpected: string[] = [];
  /** 503 answers of a server that is shutting down gracefully (allowed only in the SIGTERM round). */
  closing = 0;
  /** Attempts made after the server was gone (connection refused): never sent, so refused. */
  notConnected = 0;
  #stopped = false;
  #next = 0;
  #workers: Promise<void>[] = [];
  #acknowledgedOnce: () => void = () => {};
  /** Resolves at the first order the server acknowledges in this round. */
  readonly firstAcknowledged = new Promise<void>((resolve) => {
    this.#acknowledgedOnce = resolve;
  });
  readonly #round: number;
  readonly #deletable: Attempt[];
  readonly #closingAllowed: boolean;

  constructor(round: number, deletable: Attempt[], closingAllowed: boolean) {
    this.#round = round;
    this.#deletable = deletable;
    this.#closingAllowed = closingAllowed;
  }

  #isClosing(status: number): boolean {
    if (status !== 503 || !this.#closingAllowed) return false;
    this.closing++;
    return true;
  }

  start(baseUrl: string, customers: Customer[], parts: WirePart[]): void {
    for (let w = 0; w < CONCURRENCY; w++) this.#workers.push(this.#work(baseUrl, customers, parts));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#workers);
  }

  async #work(baseUrl: string, customers: Customer[], parts: WirePart[]): Promise<void> {
    while (!this.#stopped) {
      const n = this.#next++;
      const victim = n % 5 === 4 ? this.#deletable.shift() : undefined;
      if (victim) {
        await this.#delete(baseUrl, victim);
        continue;
      }
      const part = parts[n % parts.length] as WirePart;
      const attempt: Attempt = {
        partId: part._id,
        quantity: 1 + (n % 4),
        customer: customers[n % customers.length] as Customer,
        address: `round ${this.#round} attempt ${n}`,
        phone: `+1 555 ${this.#round} ${n}`,
        outcome: 'pending',
      };
      this.attempts.set(attempt.address, attempt);
      try {
        const res = await call<{ _id?: string; error?: { code: string } }>(baseUrl, 'POST', '/api/myorder', {
          token: attempt.customer.token,
          body: { partId: attempt.partId, quantity: attempt.quantity, address: attempt.address, phone: attempt.phone },
        });
        if (res.status === 201 && res.body._id) {
          attempt.outcome = 'acknowledged';
          attempt.orderId = res.body._id;
          this.#acknowledgedOnce();
          this.#deletable.push(attempt);
        } else if ((res.status === 422 && res.body.error?.code === 'stock_out') || this.#isClosing(res.status)) {
          attempt.outcome = 'refused';
        } else {
          attempt.outcome = 'refused';
          this.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
        }
      } catch (error) {
        // Refused: no server was listening, nothing was sent. Otherwise the connection died with the server, and
        // the order may or may not have been written.
        if (connectionRefused(error)) {
          attempt.outcome = 'refused';
          this.notConnected++;
        } else {
          attempt.outcome = 'unknown';
        }
        if (!this.#stopped) await sleep(20);
      }
    }
  }

  async #delete(baseUrl: string, attempt: Attempt): Promise<void> {
    attempt.deletion = 'pending';
    this.deletes.push(attempt);
    try {
      const res = await call(baseUrl, 'DELETE', `/api/myorder/${attempt.orderId}`, { token: attempt.customer.token });
      if (res.status === 200) attempt.deletion = 'acknowledged';
      else if (this.#isClosing(res.status)) attempt.deletion = 'refused';
      else this.unexpected.push(`delete: ${res.status} ${JSON.stringify(res.body)}`);
    } catch (error) {
      attempt.deletion = connectionRefused(error) ? 'refused' : 'unknown';
      if (!this.#stopped) await sleep(20);
    }
  }
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code === 'ECONNREFUSED' || (cause?.errors ?? []).some((e) => e.code === 'ECONNREFUSED');
}

function serverEnv(database: { url?: string; dataDir: string }): Record<string, string> {
  return {
    DATABASE_URL: database.url ?? '',
    DATA_DIR: database.dataDir,
    SESSION_SECRET,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO_DATA: 'true',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(database.dataDir, 'no-web-build'),
  };
}

/** Checks every promise of the test against what the restarted server holds; returns the round's figures. */
async function verify(
  baseUrl: string,
  adminToken: string,
  parts: WirePart[],
  startingStock: Map<string, number>,
  attempts: Map<string, Attempt>,
): Promise<{ committedUnacknowledged: Set<string>; deletedUnacknowledged: Set<string>; lost: number }> {
  const orders = await allOrders(baseUrl, adminToken);
  const byId = new Map(orders.map((o) => [o._id, o]));
  const partById = new Map(parts.map((p) => [p._id, p]));

  // Nothing the server acknowledged is lost (an order, or its deletion), and it holds what was acknowledged.
  let lost = 0;
  const deletedUnacknowledged = new Set<string>();
  for (const attempt of attempts.values()) {
    if (attempt.outcome !== 'acknowledged') continue;
    const order = byId.get(attempt.orderId as string);
    if (attempt.deletion === 'acknowledged') {
      if (order) lost++;
      continue;
    }
    if (!order) {
      if (attempt.deletion === 'unknown') deletedUnacknowledged.add(attempt.address);
      else lost++;
      continue;
    }
    expect(order).toMatchObject({
      partId: attempt.partId,
      quantity: attempt.quantity,
      email: attempt.customer.email,
      address: attempt.address,
    });
  }
  expect(lost, 'acknowledged orders missing, or acknowledged deletions undone, after the restart').toBe(0);

  // Every order row is one of ours, whole and consistent; refused attempts left nothing behind.
  const committedUnacknowledged = new Set<string>();
  for (const order of orders) {
    const attempt = attempts.get(order.address);
    expect(attempt, `order ${order._id} matches no attempt: ${JSON.stringify(order)}`).toBeDefined();
    if (!attempt) continue;
    expect(attempt.outcome, `a refused attempt was written: ${JSON.stringify(order)}`).not.toBe('refused');
    if (attempt.outcome === 'unknown') committedUnacknowledged.add(attempt.address);
    const part = partById.get(attempt.partId) as WirePart;
    expect(order).toMatchObject({
      partId: part._id,
      name: part.name,
      price: part.price,
      quantity: attempt.quantity,
      email: attempt.customer.email,
      phone: attempt.phone,
      paid: false,
      status: 'unpaid',
    } satisfies Partial<WireOrder>);
    expect(cents(order.total)).toBe(cents(part.price) * order.quantity);
  }

  // Stock plus every ordered quantity is the starting stock, part by part.
  for (const part of parts) {
    const stock = await stockOf(baseUrl, part._id);
    const ordered = orders.filter((o) => o.partId === part._id).reduce((sum, o) => sum + o.quantity, 0);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock + ordered, `stock of ${part.name}: ${stock} left + ${ordered} ordered`).toBe(
      startingStock.get(part._id),
    );
  }
  return { committedUnacknowledged, deletedUnacknowledged, lost };
}

const harness = crashHarness('redline-crash-');

/**
 * A fresh database for one crash run (a PGlite directory, or a scratch PostgreSQL database dropped at the end) and a
 * way to start the server on it again after each kill. The per-customer hold limit (its own tests) is off:
 * these loads pile up unpaid orders, and a 422 hold_limit on the scarce part's last units is not a refusal for stock.
 */
async function crashRunServer(driver: 'pglite' | 'postgres', run: 'crash' | 'checkout') {
  const dataDir = harness.directory(run === 'crash' ? `${driver}-` : `${driver}-${run}-`);
  let url: string | undefined;
  if (driver === 'postgres') {
    const database = await scratchDatabase(run);
    harness.cleanups.push(database.drop);
    url = database.url;
  }
  const env = { ...serverEnv({ url, dataDir }), ORDER_HOLD_LIMIT: 'off' };
  const launch = () => harness.launch(env, { healthyWithinMs: 60_000 });
  return { dataDir, launch };
}

/**
 * What a crash run loads on a fresh server: the admin's token, the parts (each name stamped, so runs never share a
 * part), their stock at the start, and `customerCount` signed-up customers labelled `<label>-<i>`.
 */
async function stockShop(
  baseUrl: string,
  partSpecs: readonly { name: string; price: number; stock: number }[],
  customerCount: number,
  label: string,
) {
  const adminToken = await logInAdmin(baseUrl);
  const stamp = Date.now().toString(36).slice(-5);
  const parts: Awaited<ReturnType<typeof createPart>>[] = [];
  for (const spec of partSpecs)
    parts.push(await createPart(baseUrl, adminToken, { ...spec, name: `${spec.name} ${stamp}` }));
  const startingStock = new Map(parts.map((p) => [p._id, p.availablequantity]));
  const customers: Customer[] = [];
  for (let i = 0; i < customerCount; i++) customers.push(await signUp(baseUrl, `${label}-${i}`));
  return { adminToken, parts, startingStock, customers };
}

async function crashRepeatedly(driver: 'pglite' | 'postgres'): Promise<void> {
  const { dataDir, launch } = await crashRunServer(driver, 'crash');

  let server = await launch();
  let baseUrl = server.url;
  const { adminToken, parts, startingStock, customers } = await stockShop(
    baseUrl,
    [
      { name: 'Crash plenty', price: 12.34, stock: PLENTY_STOCK },
      { name: 'Crash scarce', price: 99.99, stock: SCARCE_STOCK },
    ],
    CUSTOMERS,
    `crash-${driver}`,
  );

  const attempts = new Map<string, Attempt>();
  const deletable: Attempt[] = [];
  const figures: RoundFigures[] = [];
  const signals = [...Array.from({ length: KILLS }, () => 'SIGKILL' as const), 'SIGTERM' as const];
  for (const [index, signal] of signals.entries()) {
    const round = index + 1;
    const load = new LoadGenerator(round, deletable, signal === 'SIGTERM');
    load.start(baseUrl, customers, parts);
    // Killed mid-load: once the load has placed an order (a slow machine's first answers can take more than the
    // random wait alone; the round then proved nothing), then at a random moment up to 1.5 s later.
    await Promise.race([load.firstAcknowledged, sleep(15_000)]);
    const killAfterMs = Math.floor(Math.random() * 1500);
    await sleep(killAfterMs);
    server.child.kill(signal);
    const exitCode = await server.exited;
    await load.stop();
    if (signal === 'SIGKILL') {
      expect(exitCode).toBeNull();
      expect(server.child.signalCode).toBe('SIGKILL');
    } else {
      expect(exitCode, server.output()).toBe(0);
    }
    expect(load.unexpected, 'answers other than 201, 422 stock_out or a deletion’s 200 during the load').toEqual([]);
    for (const [key, attempt] of load.attempts) attempts.set(key, attempt);

    const lock = path.join(dataDir, 'server.lock');
    if (driver === 'pglite' && signal === 'SIGKILL') {
      // The killed process could not remove its lock; the next start must take it over (its pid is dead).
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(server.child.pid));
    } else if (driver === 'pglite') {
      expect(fs.existsSync(lock), 'a graceful stop releases the data directory').toBe(false);
    }

    const restartedAt = Date.now();
    server = await launch();
    baseUrl = server.url;
    const restartMs = Date.now() - restartedAt;
    if (driver === 'pglite') {
      expect(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(server.child.pid));
    }

    const result = await verify(baseUrl, adminToken, parts, startingStock, attempts);
    const mine = [...load.attempts.values()];
    const count = (outcome: Attempt['outcome']) => mine.filter((a) => a.outcome === outcome).length;
    const writtenSilently = mine.filter((a) => result.committedUnacknowledged.has(a.address)).length;
    const deletedSilently = load.deletes.filter((a) => result.deletedUnacknowledged.has(a.address)).length;
    if (signal === 'SIGTERM') {
      // A graceful stop finishes and answers what it started: nothing may change without the client being told.
      expect(writtenSilently, 'orders written without an answer during a graceful stop').toBe(0);
      expect(deletedSilently, 'orders deleted without an answer during a graceful stop').toBe(0);
    }
    figures.push({
      round,
      signal,
      killAfterMs,
      sent: mine.length,
      acknowledged: count('acknowledged'),
      refused: count('refused'),
      unknown: count('unknown'),
      committedUnacknowledged: writtenSilently,
      closing: load.closing,
      notConnected: load.notConnected,
      deletesAcknowledged: load.deletes.filter((a) => a.deletion === 'acknowledged').length,
      deletesUnknown: load.deletes.filter((a) => a.deletion === 'unknown').length,
      lost: result.lost,
      restartMs,
    });
    expect(count('acknowledged'), 'the load placed orders before the kill').toBeGreaterThan(0);
  }

  expect(await server.stop('SIGTERM')).toBe(0);
  for (const f of figures) {
    console.log(
      `[crash-safety ${driver}] round ${f.round}, ${f.signal} ${f.killAfterMs} ms after the first acknowledged ` +
        `order: orders sent ${f.sent}, ` +
        `acknowledged ${f.acknowledged}, refused ${f.refused} (503 closing ${f.closing}, not connected ` +
        `${f.notConnected}, the rest stock), ` +
        `no answer ${f.unknown} (written anyway ` +
        `${f.committedUnacknowledged}); deletions acknowledged ${f.deletesAcknowledged}, in flight ` +
        `${f.deletesUnknown}; lost ${f.lost}; restart ${f.restartMs} ms`,
    );
  }
}

describe('crash safety: SIGKILL (and a last SIGTERM) mid-load, restart on the same data', () => {
  it('PGlite: acknowledged orders survive, nothing is half-written, stock adds up', async () => {
    await crashRepeatedly('pglite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: acknowledged orders survive, nothing is half-written, stock adds up',
    async () => {
      await crashRepeatedly('postgres');
    },
  );
});

/*
 * Issue 12: the same for checkouts. Each customer fills its cart with three parts and checks out in a loop (one
 * worker per customer, so a cart is never shared), with a unique address per attempt; the server is killed with
 * SIGKILL mid-load and restarted. Every acknowledged checkout must be there whole (all three orders); any other
 * attempt is there whole or not at all (never one or two of its lines), a refused one not at all; and stock plus
 * ordered quantities is still the starting stock. One of the parts is scarce, so all-or-none refusals are part of
 * the load.
 */

const CHECKOUT_CUSTOMERS = 8;
const CHECKOUT_LINES = 3;
const CHECKOUT_SCARCE_STOCK = 120;

interface CheckoutAttempt {
  address: string;
  customer: Customer;
  /** Part id → quantity, as the cart held it when the checkout was sent. */
  lines: Map<string, number>;
  outcome: 'pending' | 'acknowledged' | 'refused' | 'unknown';
  orderIds?: string[];
}

class CheckoutLoad {
  readonly attempts = new Map<string, CheckoutAttempt>();
  readonly unexpected: string[] = [];
  #stopped = false;
  #workers: Promise<void>[] = [];
  readonly #round: number;

  constructor(round: number) {
    this.#round = round;
  }

  start(baseUrl: string, customers: Customer[], parts: WirePart[]): void {
    for (const [index, customer] of customers.entries()) {
      this.#workers.push(this.#work(baseUrl, index, customer, parts));
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#workers);
  }

  async #work(baseUrl: string, worker: number, customer: Customer, parts: WirePart[]): Promise<void> {
    let n = 0;
    // What a killed round left in this cart goes first: every attempt checks out exactly the lines it sent.
    let clean = false;
    while (!this.#stopped) {
      n++;
      try {
        if (!clean) {
          for (const part of parts) {
            await call(baseUrl, 'DELETE', `/api/cart/items/${part._id}`, { token: customer.token });
          }
          clean = true;
        }
        // Two plentiful parts and, every other attempt, the scarce one (else the third plentiful one).
        const chosen = [parts[0], parts[1], n % 2 === 0 ? parts[3] : parts[2]] as WirePart[];
        const lines = new Map(chosen.map((part, i) => [part._id, 1 + ((n + i) % 3)]));
        for (const [partId, quantity] of lines) {
          const put = await call(baseUrl, 'PUT', `/api/cart/items/${partId}`, {
            token: customer.token,
            body: { quantity },
          });
          if (put.status !== 200) throw new Error(`cart refused: ${put.status}`);
        }
        const attempt: CheckoutAttempt = {
          address: `checkout round ${this.#round} worker ${worker} attempt ${n}`,
          customer,
          lines,
          outcome: 'pending',
        };
        this.attempts.set(attempt.address, attempt);
        try {
          const res = await call<{ orders?: { _id: string }[]; error?: { code: string } }>(
            baseUrl,
            'POST',
            '/api/checkout',
            { token: customer.token, body: { address: attempt.address, phone: '+1 555 0123' } },
          );
          if (res.status === 201 && res.body.orders) {
            attempt.outcome = 'acknowledged';
            attempt.orderIds = res.body.orders.map((order) => order._id);
          } else {
            attempt.outcome = 'refused';
            clean = false;
            if (!(res.status === 422 && res.body.error?.code === 'checkout_refused')) {
              this.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
            }
          }
        } catch (error) {
          attempt.outcome = connectionRefused(error) ? 'refused' : 'unknown';
          clean = false;
          if (!this.#stopped) await sleep(20);
        }
      } catch {
        // The cart could not be filled (the server went away): nothing was checked out; start clean next time.
        clean = false;
        if (!this.#stopped) await sleep(20);
      }
    }
  }
}

async function verifyCheckouts(
  baseUrl: string,
  adminToken: string,
  parts: WirePart[],
  startingStock: Map<string, number>,
  attempts: Map<string, CheckoutAttempt>,
): Promise<{ lost: number; partial: number; writtenUnacknowledged: number }> {
  const orders = await allOrders(baseUrl, adminToken);
  const byAddress = new Map<string, WireOrder[]>();
  for (const order of orders) byAddress.set(order.address, [...(byAddress.get(order.address) ?? []), order]);

  let lost = 0;
  let partial = 0;
  let writtenUnacknowledged = 0;
  for (const [address, written] of byAddress) {
    const attempt = attempts.get(address);
    expect(attempt, `orders ${written.map((o) => o._id)} match no checkout attempt`).toBeDefined();
    if (!attempt) continue;
    expect(attempt.outcome, `a refused checkout was written: ${address}`).not.toBe('refused');
    // All of a checkout's lines or none: never part of one.
    if (written.length !== attempt.lines.size) partial++;
    for (const order of written) {
      expect(order).toMatchObject({
        email: attempt.customer.email,
        quantity: attempt.lines.get(order.partId ?? ''),
        status: 'unpaid',
      });
    }
    if (attempt.outcome === 'unknown') writtenUnacknowledged++;
  }
  for (const attempt of attempts.values()) {
    if (attempt.outcome !== 'acknowledged') continue;
    const written = byAddress.get(attempt.address) ?? [];
    const ids = new Set(written.map((o) => o._id));
    if (!(attempt.orderIds ?? []).every((id) => ids.has(id)) || written.length !== CHECKOUT_LINES) lost++;
  }
  expect(partial, 'checkouts written in part').toBe(0);
  expect(lost, 'acknowledged checkouts missing (or missing orders) after the restart').toBe(0);

  for (const part of parts) {
    const stock = await stockOf(baseUrl, part._id);
    const ordered = orders.filter((o) => o.partId === part._id).reduce((sum, o) => sum + o.quantity, 0);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock + ordered, `stock of ${part.name}: ${stock} left + ${ordered} ordered`).toBe(
      startingStock.get(part._id),
    );
  }
  return { lost, partial, writtenUnacknowledged };
}

async function crashDuringCheckouts(driver: 'pglite' | 'postgres'): Promise<void> {
  const { launch } = await crashRunServer(driver, 'checkout');

  let server = await launch();
  let baseUrl = server.url;
  const { adminToken, parts, startingStock, customers } = await stockShop(
    baseUrl,
    [
      { name: 'Cart A', price: 10.5, stock: PLENTY_STOCK },
      { name: 'Cart B', price: 3.99, stock: PLENTY_STOCK },
      { name: 'Cart C', price: 42, stock: PLENTY_STOCK },
      { name: 'Cart scarce', price: 99.99, stock: CHECKOUT_SCARCE_STOCK },
    ],
    CHECKOUT_CUSTOMERS,
    `checkout-${driver}`,
  );

  const attempts = new Map<string, CheckoutAttempt>();
  for (let round = 1; round <= KILLS; round++) {
    const load = new CheckoutLoad(round);
    load.start(baseUrl, customers, parts);
    // A checkout is eight requests (clean, fill, check out) on a freshly started server: give the load time to
    // acknowledge some before the kill.
    const killAfterMs = 3000 + Math.floor(Math.random() * 2000);
    await sleep(killAfterMs);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();
    await load.stop();
    expect(load.unexpected, 'answers other than 201 or 422 checkout_refused during the load').toEqual([]);
    for (const [key, attempt] of load.attempts) attempts.set(key, attempt);

    server = await launch();
    baseUrl = server.url;
    const result = await verifyCheckouts(baseUrl, adminToken, parts, startingStock, attempts);
    const mine = [...load.attempts.values()];
    const count = (outcome: CheckoutAttempt['outcome']) => mine.filter((a) => a.outcome === outcome).length;
    console.log(
      `[crash-safety ${driver} checkout] round ${round}, SIGKILL after ${killAfterMs} ms: checkouts sent ` +
        `${mine.length}, acknowledged ${count('acknowledged')}, refused ${count('refused')}, no answer ` +
        `${count('unknown')} (written whole anyway, so far: ${result.writtenUnacknowledged}); partial ` +
        `${result.partial}; lost ${result.lost}`,
    );
  }
  // The load must have got somewhere (on a busy machine a round may end before its first checkout is answered).
  const acknowledged = [...attempts.values()].filter((a) => a.outcome === 'acknowledged').length;
  expect(acknowledged, 'checkouts acknowledged over all rounds').toBeGreaterThan(0);
  expect(await server.stop('SIGTERM')).toBe(0);
}

describe('crash safety of checkout (issue 12): SIGKILL mid-load, restart on the same data', () => {
  it('PGlite: acknowledged checkouts survive whole, none is written in part, stock adds up', async () => {
    await crashDuringCheckouts('pglite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: acknowledged checkouts survive whole, none is written in part, stock adds up',
    async () => {
      await crashDuringCheckouts('postgres');
    },
  );
});
