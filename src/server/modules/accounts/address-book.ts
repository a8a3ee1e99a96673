import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { NewAddressBody, SavedAddress, ShipTo } from '../../../shared/schemas/addresses.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { addresses } from '../../db/schema.ts';
import { NotFoundError } from '../../errors.ts';

type Executor = Database | Transaction;
type AddressRow = typeof addresses.$inferSelect;

/** The most entries one address book keeps: the least recently used goes when a new one arrives. */
export const MAX_SAVED_ADDRESSES = 20;

/** A shipping address and phone, resolved from a new entry or a saved one. */
export interface Destination {
  address: string;
  phone: string;
}

/**
 * Where orders ship, as the orders module sees the address book (a port, ADR 006): resolve what a request named,
 * and remember it in the caller's transaction, so the address is saved with the orders that use it or not at all.
 */
export interface AddressBookPort {
  /** A saved entry of this user (404 for anyone else's or an unknown id), or the new entry as given. */
  resolve(userId: string, shipTo: ShipTo, db?: Executor): Promise<Destination>;
  remember(tx: Executor, userId: string, destination: Destination): Promise<void>;
}

function toWire(row: AddressRow): SavedAddress {
  return { _id: row.id, address: row.address, phone: row.phone, lastUsedAt: row.lastUsedAt.toISOString() };
}

const addressColumns = Object.entries(getTableColumns(addresses));

/** A raw `addresses` row (snake_case, driver values) as Drizzle's select would give it. */
function toAddressRow(raw: Record<string, unknown>): AddressRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of addressColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as AddressRow;
}

const addressNotFound = () => new NotFoundError('This saved address does not exist.');

/** The accounts module's address book: its one table, `addresses`. */
export class AddressBook implements AddressBookPort {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Most recently used first: the one checkout offers first. */
  async list(userId: string): Promise<SavedAddress[]> {
    const rows = await this.#db
      .select()
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .orderBy(desc(addresses.lastUsedAt), desc(addresses.id));
    return rows.map(toWire);
  }

  async add(userId: string, body: NewAddressBody): Promise<SavedAddress> {
    const row = await this.#db.transaction(async (tx) => this.#upsert(tx, userId, body));
    return toWire(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    const deleted = await this.#db
      .delete(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ id: addresses.id });
    if (deleted.length === 0) throw addressNotFound();
  }

  async resolve(userId: string, shipTo: ShipTo, db: Executor = this.#db): Promise<Destination> {
    if (!('addressId' in shipTo)) return { address: shipTo.address, phone: shipTo.phone };
    const [row] = await db
      .select()
      .from(addresses)
      .where(and(eq(addresses.id, shipTo.addressId), eq(addresses.userId, userId)));
    if (!row) throw addressNotFound();
    return { address: row.address, phone: row.phone };
  }

  async remember(tx: Executor, userId: string, destination: Destination): Promise<void> {
    await this.#upsert(tx, userId, destination);
  }

  /**
   * The same address and phone again is the same entry, used now; past the limit the least recently used entry goes.
   * One statement (a round trip fewer on every checkout): the delete's subquery sees the book as it was before the
   * upsert (one snapshot), so it keeps the upserted entry and the MAX - 1 most recently used others.
   */
  async #upsert(tx: Executor, userId: string, destination: Destination): Promise<AddressRow> {
    const result = await tx.execute(sql`
      with saved as (
        insert into ${addresses} (user_id, address, phone)
        values (${userId}::uuid, ${destination.address}::text, ${destination.phone}::text)
        on conflict (user_id, address, phone) do update set last_used_at = now()
        returning *
      ), pruned as (
        delete from ${addresses}
        where user_id = ${userId}::uuid and id <> (select id from saved) and id not in (
          select id from ${addresses} where user_id = ${userId}::uuid and id <> (select id from saved)
          order by last_used_at desc, id desc limit ${MAX_SAVED_ADDRESSES - 1}::int)
      )
      select * from saved`);
    const [raw] = rowsOf<Record<string, unknown>>(result);
    if (!raw) throw new Error('address not saved');
    return toAddressRow(raw);
  }
}
