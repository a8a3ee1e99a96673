import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { garageVehicles, vehicleMakes, vehicleModels, vehicles } from '../../db/schema.ts';
import { type VehicleRow, vehicleColumns } from './vehicle-repository.ts';

export interface GarageRow {
  id: string;
  name: string | null;
  isCurrent: boolean;
  createdAt: Date;
  vehicle: VehicleRow;
}

/** The advisory-lock class of garage writes (two-key form, so it cannot meet the one-key seed lock). */
const GARAGE_LOCK_CLASS = 13;

/** Customers' saved vehicles (`garage_vehicles`, fitment module). Every method is about one user's garage. */
export class GarageRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * A write to one user's garage, serialised with that user's other garage writes: the capacity check, the one
   * current vehicle and a merge racing an add stay consistent without a unique-index failure reaching the caller.
   */
  async write<T>(userId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${GARAGE_LOCK_CLASS}, hashtext(${userId}))`);
      return work(tx);
    });
  }

  /** The garage, oldest entry first (the id only breaks exact ties, see `insert`). */
  async list(userId: string, tx: Database | Transaction = this.#db): Promise<GarageRow[]> {
    const rows = await tx
      .select({
        id: garageVehicles.id,
        name: garageVehicles.name,
        isCurrent: garageVehicles.isCurrent,
        createdAt: garageVehicles.createdAt,
        vehicle: vehicleColumns,
      })
      .from(garageVehicles)
      .innerJoin(vehicles, eq(vehicles.id, garageVehicles.vehicleId))
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(eq(garageVehicles.userId, userId))
      .orderBy(asc(garageVehicles.createdAt), asc(garageVehicles.id));
    return rows;
  }

  async size(tx: Transaction, userId: string): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(garageVehicles).where(eq(garageVehicles.userId, userId));
    return row?.n ?? 0;
  }

  /** The entry of this user holding the vehicle, if any. */
  async findByVehicle(tx: Transaction, userId: string, vehicleId: string): Promise<{ id: string } | undefined> {
    const [row] = await tx
      .select({ id: garageVehicles.id })
      .from(garageVehicles)
      .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.vehicleId, vehicleId)))
      .limit(1);
    return row;
  }

  /**
   * The entry's time is the clock's, not the transaction's: a merge inserts several vehicles in one transaction,
   * where now() is one moment for all of them and their order came back at random (by id). With clock_timestamp()
   * they keep the order the visitor had them in — and at least a microsecond after the user's latest entry, since
   * PGlite's clock can read the same value for two inserts in a row (a CI run saw two entries swap).
   */
  async insert(tx: Transaction, userId: string, vehicleId: string, name: string | null): Promise<string> {
    const after = sql`(select max(latest.created_at) + interval '1 microsecond' from ${garageVehicles} latest
      where latest.user_id = ${userId}::uuid)`;
    const [row] = await tx
      .insert(garageVehicles)
      .values({ userId, vehicleId, name, createdAt: sql`greatest(clock_timestamp(), ${after})` })
      .returning({ id: garageVehicles.id });
    if (!row) throw new Error('garage insert returned no row');
    return row.id;
  }

  /** False: no such entry in this user's garage. */
  async rename(tx: Transaction, userId: string, entryId: string, name: string | null): Promise<boolean> {
    const rows = await tx
      .update(garageVehicles)
      .set({ name })
      .where(and(eq(garageVehicles.id, entryId), eq(garageVehicles.userId, userId)))
      .returning({ id: garageVehicles.id });
    return rows.length > 0;
  }

  async remove(tx: Transaction, userId: string, entryId: string): Promise<boolean> {
    const rows = await tx
      .delete(garageVehicles)
      .where(and(eq(garageVehicles.id, entryId), eq(garageVehicles.userId, userId)))
      .returning({ id: garageVehicles.id });
    return rows.length > 0;
  }

  /**
   * Makes the entry the current one (null: none). Two statements, clear then set: one UPDATE flipping both rows
   * could meet the one-current index half way. False: no such entry in this user's garage (nothing changed).
   */
  async setCurrent(tx: Transaction, userId: string, entryId: string | null): Promise<boolean> {
    if (entryId !== null) {
      const [entry] = await tx
        .select({ id: garageVehicles.id })
        .from(garageVehicles)
        .where(and(eq(garageVehicles.id, entryId), eq(garageVehicles.userId, userId)))
        .limit(1);
      if (!entry) return false;
    }
    await tx
      .update(garageVehicles)
      .set({ isCurrent: false })
      .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.isCurrent, true)));
    if (entryId !== null) {
      await tx.update(garageVehicles).set({ isCurrent: true }).where(eq(garageVehicles.id, entryId));
    }
    return true;
  }
}
