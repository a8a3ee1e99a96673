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

/** What the caps on unpaid holds need to know of the caller (the route and the session tell the service). */
export interface HoldCaller {
  userId: string;
  emailVerified: boolean;
  /** The client address as a keyed hash (never the address itself); null when unknown: no per-address cap. */
  placedFromKey: string | null;
}

interface NewOrder extends HoldCaller {
  /** Made by the caller, so the order-placed mail can be rendered (and link to the order) before the transaction. */
  id?: string;
  partId: string;
  quantity: number;
  email: string;
  userName: string;
  address: string;
  phone: string;
  /** The checkout that places this order with others, if any. */
  checkoutId?: string | undefined;
}

/**
 * The most unpaid PCS of a part one holder may hold: `half` = half the part's stock as this holder found it (on the
 * shelf plus what they hold), a number of PCS, or `off`. Never below the part's minimum order.
 */
export type HoldLimit = 'half' | 'off' | number;

/**
 * The caps on what unpaid orders may hold of a part (settings): per customer, per unverified account (not raised to
 * the minimum order), per client address (all accounts placing from it), and the share of the stock that new
 * accounts (no paid order yet) may hold together, in percent.
 */
export interface HoldLimits {
  perCustomer: HoldLimit;
  unverified: number | 'off';
  perAddress: HoldLimit;
  newAccountsPercent: number | 'off';
}

/** Each cap an order can be refused by, in the order a refusal is explained. */
export const holdChecks = ['unverified', 'customer', 'address', 'new_accounts'] as const;
export type HoldCheck = (typeof holdChecks)[number];

/**
 * The holds and caps as the statement found them (a null limit: no such cap for this order), and which caps it
 * refused: the statement decides; this only explains.
 */
export interface HoldState {
  /** This customer's unpaid PCS of the part, and the per-customer limit. */
  held: number;
  limit: number | null;
  /** The limit of an unverified account (null: verified, or no such limit). */
  unverifiedLimit: number | null;
  /** Unpaid PCS of the part held by orders from the caller's address, and that cap. */
  addressHeld: number;
  addressLimit: number | null;
  /** Unpaid PCS of the part held by new accounts, and their cap (null: the caller is not new, or no cap). */
  newAccountsHeld: number;
  newAccountsLimit: number | null;
  refused: HoldCheck[];
}

/** Placed, or refused with the part as the statement found it (undefined: there is no such part). */
type PlaceResult =
  | { ok: true; order: OrderRow }
  | { ok: false; part: (OrderablePart & { hold: HoldState }) | undefined };

/** A checkout's orders: who places them, where they ship, and its cart lines (each part once). */
export interface NewCheckout extends HoldCaller {
  checkoutId: string;
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

/** The part's state and the hold figures beside the placed order's columns (all null when nothing was placed). */
interface StateRow {
  part_minimum_order: number | null;
  part_available_quantity: number | null;
  part_price_cents: number | null;
  held_units: number;
  hold_limit: number | null;
  unverified_limit: number | null;
  address_held: number;
  address_limit: number | null;
  new_held: number;
  new_limit: number | null;
  customer_ok: boolean;
  unverified_ok: boolean;
  address_ok: boolean;
  new_accounts_ok: boolean;
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

/** The state columns a placing statement answers beside `placed.*` (see StateRow). */
const stateColumns = sql.raw(
  [
    'part_minimum_order',
    'part_available_quantity',
    'part_price_cents',
    'held_units',
    'hold_limit',
    'unverified_limit',
    'address_held',
    'address_limit',
    'new_held',
    'new_limit',
    'customer_ok',
    'unverified_ok',
    'address_ok',
    'new_accounts_ok',
  ]
    .map((column) => `verdict.${column}`)
    .join(', '),
);

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
/** A driver's boolean (PGlite and pg answer true/false; kept strict so a null never reads as passed). */
const isTrue = (value: unknown) => value === true || value === 't';

/** The statement's hold figures and verdicts → HoldState. */
function holdStateOf(row: StateRow): HoldState {
  const verdicts: Record<HoldCheck, unknown> = {
    unverified: row.unverified_ok,
    customer: row.customer_ok,
    address: row.address_ok,
    new_accounts: row.new_accounts_ok,
  };
  return {
    held: Number(row.held_units ?? 0),
    limit: numberOrNull(row.hold_limit),
    unverifiedLimit: numberOrNull(row.unverified_limit),
    addressHeld: Number(row.address_held ?? 0),
    addressLimit: numberOrNull(row.address_limit),
    newAccountsHeld: Number(row.new_held ?? 0),
    newAccountsLimit: numberOrNull(row.new_limit),
    refused: holdChecks.filter((check) => !isTrue(verdicts[check])),
  };
}

function partStateOf(row: StateRow): OrderablePart & { hold: HoldState } {
  return {
    minimumOrder: Number(row.part_minimum_order),
    availableQuantity: Number(row.part_available_quantity),
    priceCents: Number(row.part_price_cents),
    hold: holdStateOf(row),
  };
}

/** Whether any cap needs this caller's holds counted (without one, placing needs neither the counts nor the lock). */
function anyHoldCap(limits: HoldLimits, caller: HoldCaller): boolean {
  return (
    limits.perCustomer !== 'off' ||
    (limits.unverified !== 'off' && !caller.emailVerified) ||
    (limits.perAddress !== 'off' && caller.placedFromKey !== null) ||
    limits.newAccountsPercent !== 'off'
  );
}

/**
 * THE hold caps, once, as SQL over one row per order line of `source` (part columns `part_id`, `part_minimum_order`,
 * `part_available_quantity`, `part_price_cents` (null: no such part) and `line_quantity`): it adds the holds as
 * they are now (`held_units`, `address_held`, `new_held`), whether the caller is a new account (`is_new`), each cap
 * (`…_limit`, null: none) and each verdict (`…_ok`), plus `rule_ok` (the order rule of src/shared/order-rules.ts)
 * and `passed`. Run it only after the parts are locked, so that no other order of them can change the counts.
 *
 * An account is new until one of its orders has been paid (refunded ones included: a card was charged): making
 * accounts costs nothing, paying does. Each order records whether its buyer was new when placed, so the shop-wide
 * cap sums what new accounts hold without reading the accounts' table.
 */
function holdVerdicts(source: SQL, limits: HoldLimits, caller: HoldCaller): SQL {
  const unpaidOf = (where: SQL) =>
    sql`(select coalesce(sum(o.quantity), 0)::int from ${orders} o
         where o.part_id = s.part_id and o.status = 'unpaid' and ${where})`;
  const unverifiedLimit = caller.emailVerified || limits.unverified === 'off' ? null : limits.unverified;
  const counted = {
    customer: limits.perCustomer !== 'off' || unverifiedLimit !== null,
    address: limits.perAddress !== 'off' && caller.placedFromKey !== null,
    newAccounts: limits.newAccountsPercent !== 'off',
  };
  const cap = (limit: HoldLimit, held: SQL) => {
    if (limit === 'off') return sql`null::int`;
    if (limit === 'half') return sql`greatest(part_minimum_order, (part_available_quantity + ${held}) / 2)`;
    return sql`greatest(part_minimum_order, ${limit}::int)`;
  };
  const percent = limits.newAccountsPercent === 'off' ? null : limits.newAccountsPercent;
  return sql`
    select v.*, (v.rule_ok and v.customer_ok and v.unverified_ok and v.address_ok and v.new_accounts_ok) as passed
    from (
      select c.*,
             coalesce(c.part_available_quantity >= c.line_quantity and c.part_minimum_order <= c.line_quantity
                      and c.part_price_cents::bigint * c.line_quantity <= ${MAX_ORDER_TOTAL_CENTS}, false) as rule_ok,
             coalesce(c.hold_limit is null or c.held_units + c.line_quantity <= c.hold_limit, false) as customer_ok,
             coalesce(c.unverified_limit is null or c.held_units + c.line_quantity <= c.unverified_limit, false)
               as unverified_ok,
             coalesce(c.address_limit is null or c.address_held + c.line_quantity <= c.address_limit, false)
               as address_ok,
             coalesce(c.new_limit is null or c.new_held + c.line_quantity <= c.new_limit, false) as new_accounts_ok
      from (
        select h.*,
               ${cap(limits.perCustomer, sql`h.held_units`)} as hold_limit,
               ${unverifiedLimit}::int as unverified_limit,
               ${counted.address ? cap(limits.perAddress, sql`h.address_held`) : sql`null::int`} as address_limit,
               case when h.is_new and ${percent}::int is not null
                    then greatest(h.part_minimum_order,
                                  ((h.part_available_quantity + h.new_held)::bigint * ${percent}::int / 100)::int)
               end as new_limit
        from (
          select s.*,
                 ${counted.customer ? unpaidOf(sql`o.user_id = ${caller.userId}::uuid`) : sql`0`} as held_units,
                 ${counted.address ? unpaidOf(sql`o.placed_from_key = ${caller.placedFromKey}::text`) : sql`0`}
                   as address_held,
                 ${counted.newAccounts ? unpaidOf(sql`o.held_by_new_account`) : sql`0`} as new_held,
                 not exists (select 1 from ${orders} o where o.user_id = ${caller.userId}::uuid and o.paid) as is_new
          from (${source}) s
        ) h
      ) c
    ) v`;
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
   * below zero. The WHERE is the atomic guard of the order rule in src/shared/order-rules.ts (change both together)
   * and of the hold caps (`holdVerdicts`); the same statement reads the part's state and the holds so that a refusal
   * can be explained.
   *
   * The hold caps count unpaid orders: the customer's, those from the caller's address, those of new accounts. A
   * count in one statement cannot guard against a concurrent order (both would count before either wrote), so the
   * part's row is locked first, by its own statement, and the statement after it starts with a fresh snapshot that
   * sees every order of the part committed before. Every order of the part queues on that lock (as it would on the
   * stock's UPDATE anyway), from the lock to the commit (the order's mail insert, then the commit).
   */
  async place(input: NewOrder, limits: HoldLimits, tx: Transaction): Promise<PlaceResult> {
    // The caller's transaction, not one of its own (a savepoint and its release were two more round trips of every
    // order): the caller enqueues the order's mail in it and commits.
    if (anyHoldCap(limits, input)) {
      await tx.execute(sql`select 1 from ${parts} where id = ${input.partId}::uuid for no key update`);
    }
    const q = input.quantity;
    const source = sql`select id as part_id, minimum_order as part_minimum_order,
                              available_quantity as part_available_quantity, price_cents as part_price_cents,
                              ${q}::int as line_quantity
                       from ${parts} where id = ${input.partId}::uuid`;
    // The placed order comes back from the insert itself (`placed.*`, null when nothing was placed), not from one more
    // select; the state's columns are named so that none is also an `orders` column.
    const result = await tx.execute(sql`
      with verdict as (${holdVerdicts(source, limits, input)}),
      reserved as (
        update ${parts}
        set available_quantity = available_quantity - ${q}::int, updated_at = now()
        where id = ${input.partId}::uuid
          and available_quantity >= ${q}::int
          and minimum_order <= ${q}::int
          and price_cents::bigint * ${q}::int <= ${MAX_ORDER_TOTAL_CENTS}
          and (select customer_ok and unverified_ok and address_ok and new_accounts_ok from verdict)
        returning id, name, price_cents
      ),
      placed as (
        insert into ${orders} (id, part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name,
                               address, phone, checkout_id, placed_from_key, held_by_new_account)
        select coalesce(${input.id ?? null}::uuid, gen_random_uuid()), id, ${input.userId}::uuid, name, price_cents,
               ${q}::int, price_cents * ${q}::int, ${input.email}::text, ${input.userName}::text,
               ${input.address}::text, ${input.phone}::text, ${input.checkoutId ?? null}::uuid,
               ${input.placedFromKey}::text, (select is_new from verdict)
        from reserved
        returning *
      )
      select placed.*, ${stateColumns}
      from verdict left join placed on true`);
    const [row] = rowsOf<StateRow & Record<string, unknown>>(result);
    if (!row) return { ok: false, part: undefined };
    if (row.id) return { ok: true, order: toOrderRow(row) };
    return { ok: false, part: partStateOf(row) };
  }

  /**
   * A checkout's lines, all or none, in TWO statements inside the checkout's transaction:
   *
   * 1. Lock every line's part in id order (`for no key update`, the lock an UPDATE of the stock takes anyway, so
   *    inserts that only reference a part are not held up). Two checkouts sharing parts wait on each other in one
   *    direction only.
   * 2. With a fresh snapshot that sees every order of those parts committed before the locks: check every line (the
   *    order rule of src/shared/order-rules.ts and the hold caps, `holdVerdicts`), and only when every line passes,
   *    reserve every line's stock and insert every order, the orders coming back from the insert beside each line's
   *    state. It touches only rows this transaction has locked, so it cannot wait on anyone.
   *
   * One statement doing both deadlocked under load (a locking CTE and an UPDATE of the same rows in one statement,
   * with buyers' cart inserts referencing the parts, as in a crash-test-like load),
   * so the lock comes first. When any line fails, nothing is written and each line's state is answered so that
   * each refusal can be explained. Like `place`, this is the documented exception of ADR 006 (the catalogue's stock
   * and the order written together). The caller rolls its transaction back unless every line came back placed.
   */
  async placeAll(input: NewCheckout, limits: HoldLimits, tx: Transaction): Promise<PlaceAllResult> {
    if (input.lines.length === 0) return { ok: true, orders: [] };
    const partIds = sql.join(
      input.lines.map((line) => sql`${line.partId}`),
      sql`, `,
    );
    await tx.execute(sql`select p.id from ${parts} p where p.id in (${partIds}) order by p.id for no key update of p`);

    const quantities = sql.join(
      input.lines.map((line) => sql`${line.quantity}`),
      sql`, `,
    );
    const source = sql`
      select l.part_id, l.quantity as line_quantity, l.ord as line_ord, p.minimum_order as part_minimum_order,
             p.available_quantity as part_available_quantity, p.price_cents as part_price_cents
      from unnest(array[${partIds}]::uuid[], array[${quantities}]::int[]) with ordinality as l(part_id, quantity, ord)
      left join ${parts} p on p.id = l.part_id`;
    const result = await tx.execute(sql`
      with verdict as (${holdVerdicts(source, limits, input)}),
      reserved as (
        update ${parts} stock
        set available_quantity = stock.available_quantity - verdict.line_quantity, updated_at = now()
        from verdict
        where stock.id = verdict.part_id
          and stock.available_quantity >= verdict.line_quantity
          and stock.minimum_order <= verdict.line_quantity
          and stock.price_cents::bigint * verdict.line_quantity <= ${MAX_ORDER_TOTAL_CENTS}
          and (select bool_and(passed) from verdict)
        returning stock.id as part_id, stock.name, stock.price_cents, verdict.line_quantity, verdict.line_ord,
                  verdict.is_new
      ),
      placed as (
        insert into ${orders} (part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name,
                               address, phone, checkout_id, placed_from_key, held_by_new_account)
        select part_id, ${input.userId}::uuid, name, price_cents, line_quantity, price_cents * line_quantity,
               ${input.email}::text, ${input.userName}::text, ${input.address}::text, ${input.phone}::text,
               ${input.checkoutId}::uuid, ${input.placedFromKey}::text, is_new
        from reserved
        order by line_ord
        returning *
      )
      select placed.*, verdict.part_id as line_part_id, verdict.line_quantity, verdict.passed, ${stateColumns}
      from verdict left join placed on placed.part_id = verdict.part_id
      order by verdict.line_ord`);
    const rows = rowsOf<StateRow & Record<string, unknown>>(result);
    if (rows.every((row) => row.id)) {
      // Lines and placed orders come back side by side, in line order.
      if (rows.length !== input.lines.length) throw new Error('checkout placed only some of its lines');
      return { ok: true, orders: rows.map(toOrderRow) };
    }
    // Every part was locked and checked in the same statement: a line that passed but was not placed while others
    // were means the checks and the guard differ.
    if (rows.some((row) => row.id)) throw new Error('checkout placed only some of its lines');
    const lines: CheckoutLineState[] = rows.map((row) => ({
      partId: String(row.line_part_id),
      quantity: Number(row.line_quantity),
      part: row.part_minimum_order === null ? undefined : partStateOf(row),
      passed: isTrue(row.passed),
    }));
    return { ok: false, lines };
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
