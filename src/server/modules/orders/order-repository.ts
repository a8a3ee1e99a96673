import { and, asc, count, eq, getTableColumns, ilike, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { CursorPayload } from '../../../shared/cursor.ts';
import type { OrderCancelReason, OrderStatus } from '../../../shared/enums.ts';
import { MAX_ORDER_TOTAL_CENTS, type OrderablePart } from '../../../shared/order-rules.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type KeyColumn, keysetBeyond, keysetOrder, keysetPage, type Page, withPage } from '../../db/paging.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { orders, parts } from '../../db/schema.ts';

export type OrderRow = typeof orders.$inferSelect;
type Executor = Database | Transaction;

interface NewOrder {
  /** Made by the caller, so the order-placed mail can be rendered (and link to the order) before the transaction. */
  id?: string;
  partId: string;
  userId: string;
  quantity: number;
  email: string;
  userName: string;
  address: string;
  phone: string;
  /** The checkout that places this order with others, if any. */
  checkoutId?: string | undefined;
}

/**
 * The most unpaid PCS of a part one customer may hold: `half` = half the part's stock as this customer
 * found it (on the shelf plus what they hold), a number of PCS, or `off`. Never below the part's minimum order.
 */
export type HoldLimit = 'half' | 'off' | number;

/** What the customer already holds of the part, and their limit (null: no limit), as the statement found them. */
export interface HoldState {
  held: number;
  limit: number | null;
}

/** Placed, or refused with the part as the statement found it (undefined: there is no such part). */
type PlaceResult =
  | { ok: true; order: OrderRow }
  | { ok: false; part: (OrderablePart & { hold: HoldState }) | undefined };

/** A checkout's orders: who places them, where they ship, and its cart lines (each part once). */
export interface NewCheckout {
  checkoutId: string;
  userId: string;
  email: string;
  userName: string;
  address: string;
  phone: string;
  lines: readonly { partId: string; quantity: number }[];
}

/** One cart line as the checkout's statement found it: its part (undefined: no such part) and whether it passed. */
export interface CheckoutLineState {
  partId: string;
  quantity: number;
  part: (OrderablePart & { hold: HoldState }) | undefined;
  /** The statement's guard held for this line. */
  passed: boolean;
}

/** Every line placed (its orders in line order), or none, with every line's state to explain why. */
export type PlaceAllResult = { ok: true; orders: OrderRow[] } | { ok: false; lines: CheckoutLineState[] };

/** Admin list filter: a status (or all) and a search over customer email/name and part name. */
export interface OrderListFilter {
  status?: OrderStatus | undefined;
  /** Without a status, cancelled orders are left out unless this is true. */
  includeCancelled?: boolean | undefined;
  search?: string | undefined;
}

/** A page of an order list: by offset, or after or before a cursor of the 'orders' order. */
export interface OrderPage extends Page {
  after?: CursorPayload | undefined;
  before?: CursorPayload | undefined;
}

/** A page of orders, the filter's total, and the positions of the pages beside it. */
export interface OrderListResult {
  rows: OrderRow[];
  total: number;
  next?: CursorPayload;
  prev?: CursorPayload;
}

/**
 * The order lists' order, newest first with the id as tie-breaker, exactly as the indexes ending in
 * (created_at DESC NULLS LAST, id DESC NULLS LAST) hold it (plain DESC would be NULLS FIRST and miss them).
 */
const newestFirst: KeyColumn[] = [
  { expr: sql`${orders.createdAt}`, dir: 'desc', nulls: 'last' },
  { expr: sql`${orders.id}`, dir: 'desc', nulls: 'last' },
];
/** `created_at` to the microsecond, as a cursor holds it (a Date has milliseconds only). */
const createdAtKey = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The part's state beside the placed order's columns (all null when nothing was placed). */
interface PlaceRow {
  id: string | null;
  part_minimum_order: number;
  part_available_quantity: number;
  part_price_cents: number;
  held_units: number;
  hold_limit: number | null;
}

interface LockedPartRow {
  id: string;
  minimum_order: number;
  available_quantity: number;
  price_cents: number;
  held_units: number;
}

const orderColumns = Object.entries(getTableColumns(orders));

/** An `orders` row as a raw statement answers it (column names, driver values) → the row Drizzle would answer. */
function toOrderRow(raw: Record<string, unknown>): OrderRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of orderColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as OrderRow;
}

/** The hold limit as `place` computes it in SQL (change them together): null when there is none. */
function holdState(holdLimit: HoldLimit, held: number, available: number, minimumOrder: number): HoldState {
  if (holdLimit === 'off') return { held, limit: null };
  if (typeof holdLimit === 'number') return { held, limit: Math.max(minimumOrder, holdLimit) };
  return { held, limit: Math.max(minimumOrder, Math.floor((available + held) / 2)) };
}

/** The guard of `place` (and of src/shared/order-rules.ts) for one line, against the part as locked. */
function lineAllowed(part: OrderablePart & { hold: HoldState }, quantity: number): boolean {
  return (
    part.availableQuantity >= quantity &&
    part.minimumOrder <= quantity &&
    part.priceCents * quantity <= MAX_ORDER_TOTAL_CENTS &&
    (part.hold.limit === null || part.hold.held + quantity <= part.hold.limit)
  );
}

/** `%`, `_` and `\` typed in a search box are searched for, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The orders table. It writes no other module's table, but for the one exception of `place` (ADR 006). */
export class OrderRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * THE documented exception to "each module writes only its own tables" (ADR 006): the catalogue's stock is
   * reserved and the order written in ONE statement (data-modifying CTEs, atomic like a transaction). The
   * conditional UPDATE takes the part's row lock and its WHERE is re-checked after any wait, so stock never goes
   * below zero; the row lock is taken by this one statement and held only until the caller commits (the order's
   * mail insert, then the commit: two round trips), so buyers of a popular part queue as briefly as possible. The WHERE is the atomic guard of the order rule in src/shared/order-rules.ts (change
   * both together); the same statement reads the part's state so that a refusal can be explained by that rule.
   *
   * The hold limit counts the customer's unpaid PCS of the part. A count in one statement cannot guard
   * against the same customer's concurrent order (both would count before either wrote), so the customer's orders
   * are serialised first by a transaction-scoped advisory lock on their id: one lock per customer (re-entrant), so a
   * checkout placing several lines in one transaction takes it once and cannot deadlock with itself. The statement
   * after it starts with a fresh snapshot that sees every order the customer committed.
   */
  async place(input: NewOrder, holdLimit: HoldLimit, tx: Transaction): Promise<PlaceResult> {
    // The caller's transaction, not one of its own (a savepoint and its release were two more round trips of every
    // order): the caller enqueues the order's mail in it and commits.
    if (holdLimit !== 'off') {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order-hold:${input.userId}`}::text, 0))`);
    }
    const q = input.quantity;
    const fixedLimit = typeof holdLimit === 'number' ? holdLimit : null;
    const limitMode = typeof holdLimit === 'number' ? 'fixed' : holdLimit;
    // The placed order comes back from the insert itself (`placed.*`, null when nothing was placed), not from one more
    // select; the part's columns are named so that none is also an `orders` column.
    const result = await tx.execute(sql`
      with part as (
        select minimum_order, available_quantity, price_cents from ${parts} where id = ${input.partId}::uuid
      ),
      held as (
        select coalesce(sum(quantity), 0)::int as units from ${orders}
        where user_id = ${input.userId}::uuid and part_id = ${input.partId}::uuid and status = 'unpaid'
      ),
      hold as (
        select held.units,
               case ${limitMode}::text
                 when 'off' then null
                 when 'fixed' then greatest(part.minimum_order, ${fixedLimit}::int)
                 else greatest(part.minimum_order, (part.available_quantity + held.units) / 2)
               end as hold_limit
        from part, held
      ),
      reserved as (
        update ${parts}
        set available_quantity = available_quantity - ${q}::int, updated_at = now()
        where id = ${input.partId}::uuid
          and available_quantity >= ${q}::int
          and minimum_order <= ${q}::int
          and price_cents::bigint * ${q}::int <= ${MAX_ORDER_TOTAL_CENTS}
          and (select hold_limit is null or units + ${q}::int <= hold_limit from hold)
        returning id, name, price_cents
      ),
      placed as (
        insert into ${orders} (id, part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name, address, phone, checkout_id)
        select coalesce(${input.id ?? null}::uuid, gen_random_uuid()), id, ${input.userId}::uuid, name, price_cents,
               ${q}::int, price_cents * ${q}::int, ${input.email}::text, ${input.userName}::text,
               ${input.address}::text, ${input.phone}::text, ${input.checkoutId ?? null}::uuid
        from reserved
        returning *
      )
      select placed.*, part.minimum_order as part_minimum_order, part.available_quantity as part_available_quantity,
             part.price_cents as part_price_cents,
             (select units from hold) as held_units, (select hold_limit from hold) as hold_limit
      from part left join placed on true`);
    const [row] = rowsOf<PlaceRow & Record<string, unknown>>(result);
    if (!row) return { ok: false, part: undefined };
    if (row.id) return { ok: true, order: toOrderRow(row) };
    const part = {
      minimumOrder: Number(row.part_minimum_order),
      availableQuantity: Number(row.part_available_quantity),
      priceCents: Number(row.part_price_cents),
      hold: { held: Number(row.held_units ?? 0), limit: row.hold_limit === null ? null : Number(row.hold_limit) },
    };
    return { ok: false, part };
  }

  /**
   * A checkout's lines, all or none, in TWO statements inside the checkout's transaction:
   *
   * 1. Lock every line's part in id order (`for no key update`, the lock an UPDATE of the stock takes anyway, so
   *    inserts that only reference a part are not held up) and read it as it is now, with the customer's unpaid
   *    units when there is a hold limit. Two checkouts sharing parts wait on each other in one direction only.
   * 2. Only when every line passes (the order rule of src/shared/order-rules.ts and the hold limit, checked here
   *    against what statement 1 read): reserve every line's stock and insert every order in one statement, the
   *    orders coming back from the insert. Its WHERE is the same atomic guard `place` applies (change them together);
   *    it touches only rows this transaction has locked, so it cannot wait on anyone.
   *
   * One statement doing both deadlocked under load (a locking CTE and an UPDATE of the same rows in one statement,
   * with buyers' cart inserts referencing the parts, as in a crash-test-like load),
   * so the lock comes first. When any line fails, nothing is written and each line's state is answered so that
   * each refusal can be explained. Like `place`, this is the documented exception of ADR 006 (the catalogue's stock
   * and the order written together). The caller rolls its transaction back unless every line came back placed.
   */
  async placeAll(input: NewCheckout, holdLimit: HoldLimit, tx: Transaction): Promise<PlaceAllResult> {
    if (input.lines.length === 0) return { ok: true, orders: [] };
    if (holdLimit !== 'off') {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order-hold:${input.userId}`}::text, 0))`);
    }
    const partIds = sql.join(
      input.lines.map((line) => sql`${line.partId}`),
      sql`, `,
    );
    // Without a hold limit the customer's unpaid units are not needed (and a busy buyer has many orders to sum).
    const heldUnits =
      holdLimit === 'off'
        ? sql`0`
        : sql`(select coalesce(sum(o.quantity), 0)::int from ${orders} o
               where o.user_id = ${input.userId}::uuid and o.part_id = p.id and o.status = 'unpaid')`;
    const locked = rowsOf<LockedPartRow>(
      await tx.execute(sql`
        select p.id, p.minimum_order, p.available_quantity, p.price_cents, ${heldUnits} as held_units
        from ${parts} p where p.id in (${partIds})
        order by p.id
        for no key update of p`),
    );
    const byId = new Map(locked.map((row) => [row.id, row]));
    const lines: CheckoutLineState[] = input.lines.map((line) => {
      const row = byId.get(line.partId);
      if (!row) return { ...line, part: undefined, passed: false };
      const part = {
        minimumOrder: Number(row.minimum_order),
        availableQuantity: Number(row.available_quantity),
        priceCents: Number(row.price_cents),
        hold: holdState(holdLimit, Number(row.held_units), Number(row.available_quantity), Number(row.minimum_order)),
      };
      return { ...line, part, passed: lineAllowed(part, line.quantity) };
    });
    if (!lines.every((line) => line.passed)) return { ok: false, lines };

    const quantities = sql.join(
      input.lines.map((line) => sql`${line.quantity}`),
      sql`, `,
    );
    const result = await tx.execute(sql`
      with line as (
        select part_id, quantity, ord
        from unnest(array[${partIds}]::uuid[], array[${quantities}]::int[]) with ordinality as l(part_id, quantity, ord)
      ),
      reserved as (
        update ${parts} stock
        set available_quantity = stock.available_quantity - line.quantity, updated_at = now()
        from line
        where stock.id = line.part_id
          and stock.available_quantity >= line.quantity
          and stock.minimum_order <= line.quantity
          and stock.price_cents::bigint * line.quantity <= ${MAX_ORDER_TOTAL_CENTS}
        returning stock.id as part_id, stock.name, stock.price_cents, line.quantity, line.ord
      )
      insert into ${orders} (part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name,
                             address, phone, checkout_id)
      select part_id, ${input.userId}::uuid, name, price_cents, quantity, price_cents * quantity, ${input.email}::text,
             ${input.userName}::text, ${input.address}::text, ${input.phone}::text, ${input.checkoutId}::uuid
      from reserved
      order by ord
      returning *`);
    const placed = rowsOf<Record<string, unknown>>(result).map(toOrderRow);
    // Every part was locked and checked above: a line the guard refused now means the rule and the guard differ.
    if (placed.length !== input.lines.length) throw new Error('checkout placed only some of its lines');
    const order = new Map(input.lines.map((line, index) => [line.partId, index]));
    placed.sort((a, b) => (order.get(a.partId ?? '') ?? 0) - (order.get(b.partId ?? '') ?? 0));
    return { ok: true, orders: placed };
  }

  async findById(id: string, db: Executor = this.#db): Promise<OrderRow | undefined> {
    const rows = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return rows[0];
  }

  /** Several orders by id (a group payment); unknown ids are missing from the answer. */
  async findManyByIds(ids: readonly string[], db: Executor = this.#db): Promise<OrderRow[]> {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(orders)
      .where(inArray(orders.id, [...ids]))
      .orderBy(asc(orders.id));
  }

  /** Gives an unpaid order its shipping address (before it is paid); undefined when it is not unpaid. */
  async setShippingAddress(
    tx: Transaction,
    id: string,
    destination: { address: string; phone: string },
  ): Promise<OrderRow | undefined> {
    const [row] = await tx
      .update(orders)
      .set({ address: destination.address, phone: destination.phone, updatedAt: new Date() })
      .where(and(eq(orders.id, id), eq(orders.status, 'unpaid')))
      .returning();
    return row;
  }

  /** One page of a buyer's orders, newest first, and how many they have in all (cancelled ones only if asked). */
  async listByUser(userId: string, page: OrderPage, filter: OrderListFilter = {}): Promise<OrderListResult> {
    return this.#listWhere(and(eq(orders.userId, userId), this.#filterWhere(filter)), page);
  }

  /** Orders placed under an email (admin view of one customer), whatever its case; paged like listByUser. */
  async listByEmail(email: string, page: OrderPage, filter: OrderListFilter = {}): Promise<OrderListResult> {
    return this.#listWhere(
      and(eq(sql`lower(${orders.email})`, email.trim().toLowerCase()), this.#filterWhere(filter)),
      page,
    );
  }

  #filterWhere(filter: OrderListFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [];
    if (filter.status) conditions.push(eq(orders.status, filter.status));
    else if (!filter.includeCancelled) conditions.push(ne(orders.status, 'cancelled'));
    const search = filter.search?.trim();
    if (search) {
      const pattern = likePattern(search);
      conditions.push(
        or(ilike(orders.email, pattern), ilike(orders.userName, pattern), ilike(orders.partName, pattern)),
      );
    }
    return and(...conditions);
  }

  /**
   * One page newest first, and the filter's count. After (or before) a cursor the page is an index range scan from
   * its position, so a deep page costs what the first does; one row more than the page is read to know if there is
   * a next one.
   */
  async #listWhere(where: SQL | undefined, page: OrderPage): Promise<OrderListResult> {
    const position = page.after ?? page.before;
    const direction = page.before ? 'backward' : 'forward';
    const beyond = position
      ? keysetBeyond(newestFirst, [sql`${position.k}::timestamptz`, sql`${position.i}::uuid`], direction)
      : undefined;
    const query = withPage(
      this.#db
        .select({ ...getTableColumns(orders), createdAtKey })
        .from(orders)
        .where(and(where, beyond))
        .orderBy(...keysetOrder(newestFirst, direction))
        .$dynamic(),
      { limit: page.limit === undefined ? undefined : page.limit + 1, offset: page.offset },
    );
    const [read, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(orders).where(where)]);
    const { rows, next, prev } = keysetPage(
      read,
      { limit: page.limit, direction, afterSomething: position !== undefined || (page.offset ?? 0) > 0 },
      (row): CursorPayload => ({ o: 'orders', k: row.createdAtKey, i: row.id }),
    );
    return {
      rows: rows.map(({ createdAtKey: _key, ...row }) => row),
      total: totals[0]?.total ?? 0,
      ...(next ? { next } : {}),
      ...(prev ? { prev } : {}),
    };
  }

  /** Manage Orders: every order matching the filter, newest first, one page and the count. */
  async listAll(page: OrderPage, filter: OrderListFilter = {}) {
    return this.#listWhere(this.#filterWhere(filter), page);
  }

  /** The orders one payment paid (a group payment pays several with one transaction id). */
  async listByTransaction(transactionId: string, db: Executor = this.#db): Promise<OrderRow[]> {
    return db.select().from(orders).where(eq(orders.transactionId, transactionId)).orderBy(asc(orders.createdAt));
  }

  /** Unpaid orders placed before `cutoff`, oldest first: what the expiry job cancels. */
  async listOverdueUnpaid(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.#db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, 'unpaid'), lt(orders.createdAt, cutoff)))
      .orderBy(asc(orders.createdAt))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /**
   * Locks the order's row until the caller's transaction ends and answers it as it is now. Every transaction that
   * pays, cancels, expires, ships or refunds an order takes this lock first, so two of them on one
   * order run one after the other and the second sees what the first did.
   */
  async lock(tx: Transaction, id: string): Promise<OrderRow | undefined> {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
    return row;
  }

  /** Locks several orders in one order of ids (so two transactions locking overlapping sets cannot deadlock). */
  async lockMany(tx: Transaction, ids: readonly string[]): Promise<OrderRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(orders)
      .where(inArray(orders.id, [...ids]))
      .orderBy(asc(orders.id))
      .for('update');
  }

  /** Unpaid → cancelled (the row stays; its payment records stay); undefined when it was not unpaid. */
  async cancel(
    tx: Transaction,
    id: string,
    reason: OrderCancelReason,
    now = new Date(),
  ): Promise<OrderRow | undefined> {
    const [row] = await tx
      .update(orders)
      .set({ status: 'cancelled', cancelledAt: now, cancelReason: reason, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.status, 'unpaid')))
      .returning();
    return row;
  }

  /**
   * Marks an order paid only while it is still unpaid (so two confirmations cannot both win, and a cancelled order
   * is never paid). Runs inside the caller's transaction so the webhook can record its event id in the same one.
   */
  async markPaid(tx: Executor, id: string, transactionId: string): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ paid: true, status: 'paid', transactionId, paidAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.status, 'unpaid')))
      .returning();
    return row;
  }

  /** Paid → shipped, with the carrier and tracking number. */
  async markShipped(
    tx: Transaction,
    id: string,
    shipment: { carrier: string | null; trackingNumber: string | null },
  ): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ status: 'shipped', shippedAt: now, updatedAt: now, ...shipment })
      .where(and(eq(orders.id, id), eq(orders.status, 'paid')))
      .returning();
    return row;
  }

  /** Shipped → delivered. */
  async markDelivered(tx: Transaction, id: string): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ status: 'delivered', deliveredAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.status, 'shipped')))
      .returning();
    return row;
  }

  /** Paid (not shipped) → refunded; `paid` stays true: its charge existed. */
  async markRefunded(
    tx: Transaction,
    id: string,
    from: readonly OrderStatus[] = ['paid'],
  ): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ status: 'refunded', refundedAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), inArray(orders.status, [...from])))
      .returning();
    return row;
  }

  /** The card holder disputes the payment: every order it paid is marked (once). */
  async markDisputed(tx: Transaction, transactionId: string): Promise<OrderRow[]> {
    const now = new Date();
    return tx
      .update(orders)
      .set({ disputedAt: now, updatedAt: now })
      .where(and(eq(orders.transactionId, transactionId), sql`${orders.disputedAt} is null`))
      .returning();
  }
}
