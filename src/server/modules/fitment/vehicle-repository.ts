import { and, asc, count, desc, eq, exists, inArray, type SQL, sql } from 'drizzle-orm';
import type { VehicleType } from '../../../shared/schemas/fitment.ts';
import type { Database } from '../../db/client.ts';
import { type Page, withPage } from '../../db/paging.ts';
import { garageVehicles, partFitments, vehicleMakes, vehicleModels, vehicles } from '../../db/schema.ts';

/** A vehicle with its model and make, as every list and garage shows it. */
export interface VehicleRow {
  id: string;
  year: number;
  variant: string;
  modelId: string;
  model: string;
  type: VehicleType;
  makeId: string;
  make: string;
}

export type MakeRow = typeof vehicleMakes.$inferSelect;
export interface ModelRow {
  id: string;
  makeId: string;
  make: string;
  name: string;
  type: VehicleType;
}

/** What the selector narrows by; each list answers only values that have at least one vehicle under the filter. */
export interface VehicleFilter {
  type?: VehicleType | undefined;
  makeId?: string | undefined;
  modelId?: string | undefined;
  year?: number | undefined;
}

export const vehicleColumns = {
  id: vehicles.id,
  year: vehicles.year,
  variant: vehicles.variant,
  modelId: vehicleModels.id,
  model: vehicleModels.name,
  type: vehicleModels.type,
  makeId: vehicleMakes.id,
  make: vehicleMakes.name,
};

const modelColumns = {
  id: vehicleModels.id,
  makeId: vehicleModels.makeId,
  make: vehicleMakes.name,
  name: vehicleModels.name,
  type: vehicleModels.type,
};

/** The filter as conditions over vehicles ⋈ models (makes are reached through models' make_id). */
function conditionsOf(filter: VehicleFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.type !== undefined) conditions.push(eq(vehicleModels.type, filter.type));
  if (filter.makeId !== undefined) conditions.push(eq(vehicleModels.makeId, filter.makeId));
  if (filter.modelId !== undefined) conditions.push(eq(vehicles.modelId, filter.modelId));
  if (filter.year !== undefined) conditions.push(eq(vehicles.year, filter.year));
  return conditions;
}

/** Makes, models and vehicles (the fitment module's tables, ADR 010). Ids reach it already checked as UUIDs. */
export class VehicleRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async types(): Promise<VehicleType[]> {
    const rows = await this.#db
      .selectDistinct({ type: vehicleModels.type })
      .from(vehicleModels)
      .where(exists(this.#db.select({ one: sql`1` }).from(vehicles).where(eq(vehicles.modelId, vehicleModels.id))))
      .orderBy(asc(vehicleModels.type));
    return rows.map((row) => row.type);
  }

  async years(filter: VehicleFilter): Promise<number[]> {
    const rows = await this.#db
      .selectDistinct({ year: vehicles.year })
      .from(vehicles)
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .where(and(...conditionsOf(filter)))
      .orderBy(desc(vehicles.year));
    return rows.map((row) => row.year);
  }

  /** Without type or year every make (the admin's list, empty makes included); with them, makes that have vehicles. */
  async makes(filter: Pick<VehicleFilter, 'type' | 'year'>): Promise<MakeRow[]> {
    const narrowed = conditionsOf(filter);
    const query = this.#db.select().from(vehicleMakes);
    if (narrowed.length === 0) return query.orderBy(asc(vehicleMakes.name), asc(vehicleMakes.id));
    const hasVehicles = this.#db
      .select({ one: sql`1` })
      .from(vehicles)
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .where(and(eq(vehicleModels.makeId, vehicleMakes.id), ...narrowed));
    return query.where(exists(hasVehicles)).orderBy(asc(vehicleMakes.name), asc(vehicleMakes.id));
  }

  /** Without type or year every model (of the make); with them, models that have vehicles. */
  async models(filter: Pick<VehicleFilter, 'makeId' | 'type' | 'year'>): Promise<ModelRow[]> {
    const own: SQL[] = [];
    if (filter.makeId !== undefined) own.push(eq(vehicleModels.makeId, filter.makeId));
    if (filter.type !== undefined) own.push(eq(vehicleModels.type, filter.type));
    if (filter.year !== undefined) {
      own.push(
        exists(
          this.#db
            .select({ one: sql`1` })
            .from(vehicles)
            .where(and(eq(vehicles.modelId, vehicleModels.id), eq(vehicles.year, filter.year))),
        ),
      );
    } else if (filter.type !== undefined) {
      own.push(exists(this.#db.select({ one: sql`1` }).from(vehicles).where(eq(vehicles.modelId, vehicleModels.id))));
    }
    return this.#db
      .select(modelColumns)
      .from(vehicleModels)
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(and(...own))
      .orderBy(asc(vehicleMakes.name), asc(vehicleModels.name), asc(vehicleModels.id));
  }

  async list(filter: VehicleFilter, page: Page): Promise<{ rows: VehicleRow[]; total: number }> {
    const where = and(...conditionsOf(filter));
    const rows = await withPage(
      this.#joined()
        .where(where)
        .orderBy(
          asc(vehicleMakes.name),
          asc(vehicleModels.name),
          desc(vehicles.year),
          asc(vehicles.variant),
          asc(vehicles.id),
        )
        .$dynamic(),
      page,
    );
    const offset = page.offset ?? 0;
    if (page.limit === undefined || (rows.length < page.limit && (rows.length > 0 || offset === 0))) {
      return { rows, total: offset + rows.length };
    }
    const [counted] = await this.#db
      .select({ total: count() })
      .from(vehicles)
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .where(where);
    return { rows, total: counted?.total ?? 0 };
  }

  async find(id: string): Promise<VehicleRow | undefined> {
    const [row] = await this.#joined().where(eq(vehicles.id, id)).limit(1);
    return row;
  }

  async findMany(ids: string[]): Promise<VehicleRow[]> {
    if (ids.length === 0) return [];
    return this.#joined().where(inArray(vehicles.id, ids));
  }

  #joined() {
    return this.#db
      .select(vehicleColumns)
      .from(vehicles)
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId));
  }

  // ---- Admin writes. A duplicate name is "no row" (ON CONFLICT DO NOTHING), which the service answers 409.

  async insertMake(name: string): Promise<MakeRow | undefined> {
    const [row] = await this.#db.insert(vehicleMakes).values({ name }).onConflictDoNothing().returning();
    return row;
  }

  async findMake(id: string): Promise<MakeRow | undefined> {
    const [row] = await this.#db.select().from(vehicleMakes).where(eq(vehicleMakes.id, id)).limit(1);
    return row;
  }

  /** Undefined: no such make. Throws the driver's unique violation on a duplicate name (the service maps it). */
  async renameMake(id: string, name: string): Promise<MakeRow | undefined> {
    const [row] = await this.#db.update(vehicleMakes).set({ name }).where(eq(vehicleMakes.id, id)).returning();
    return row;
  }

  /** 'deleted', 'missing', or 'in use' (it still has models). */
  async deleteMake(id: string): Promise<'deleted' | 'missing' | 'in use'> {
    return this.#db.transaction(async (tx) => {
      const [make] = await tx
        .select({ id: vehicleMakes.id })
        .from(vehicleMakes)
        .where(eq(vehicleMakes.id, id))
        .for('update');
      if (!make) return 'missing';
      const [model] = await tx
        .select({ id: vehicleModels.id })
        .from(vehicleModels)
        .where(eq(vehicleModels.makeId, id))
        .limit(1);
      if (model) return 'in use';
      await tx.delete(vehicleMakes).where(eq(vehicleMakes.id, id));
      return 'deleted';
    });
  }

  async insertModel(values: { makeId: string; name: string; type: VehicleType }): Promise<ModelRow | undefined> {
    const [row] = await this.#db.insert(vehicleModels).values(values).onConflictDoNothing().returning();
    return row ? this.findModel(row.id) : undefined;
  }

  async findModel(id: string): Promise<ModelRow | undefined> {
    const [row] = await this.#db
      .select(modelColumns)
      .from(vehicleModels)
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(eq(vehicleModels.id, id))
      .limit(1);
    return row;
  }

  /** Undefined: no such model. Throws the driver's unique violation on a duplicate name (the service maps it). */
  async updateModel(id: string, changes: { name?: string; type?: VehicleType }): Promise<ModelRow | undefined> {
    const [row] = await this.#db
      .update(vehicleModels)
      .set(changes)
      .where(eq(vehicleModels.id, id))
      .returning({ id: vehicleModels.id });
    return row ? this.findModel(row.id) : undefined;
  }

  /** 'in use': it still has vehicles or parts fitted to it. */
  async deleteModel(id: string): Promise<'deleted' | 'missing' | 'in use'> {
    return this.#db.transaction(async (tx) => {
      const [model] = await tx
        .select({ id: vehicleModels.id })
        .from(vehicleModels)
        .where(eq(vehicleModels.id, id))
        .for('update');
      if (!model) return 'missing';
      const [vehicle] = await tx.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.modelId, id)).limit(1);
      const [fitment] = await tx
        .select({ id: partFitments.id })
        .from(partFitments)
        .where(eq(partFitments.modelId, id))
        .limit(1);
      if (vehicle || fitment) return 'in use';
      await tx.delete(vehicleModels).where(eq(vehicleModels.id, id));
      return 'deleted';
    });
  }

  /** One vehicle per year; years that exist already are kept. Answers every vehicle of the range, newest first. */
  async insertYears(modelId: string, years: number[], variant: string): Promise<VehicleRow[]> {
    await this.#db
      .insert(vehicles)
      .values(years.map((year) => ({ modelId, year, variant })))
      .onConflictDoNothing();
    return this.#joined()
      .where(and(eq(vehicles.modelId, modelId), eq(vehicles.variant, variant), inArray(vehicles.year, years)))
      .orderBy(desc(vehicles.year));
  }

  /** 'in use': it is in someone's garage. */
  async deleteVehicle(id: string): Promise<'deleted' | 'missing' | 'in use'> {
    return this.#db.transaction(async (tx) => {
      const [vehicle] = await tx.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.id, id)).for('update');
      if (!vehicle) return 'missing';
      const [parked] = await tx
        .select({ id: garageVehicles.id })
        .from(garageVehicles)
        .where(eq(garageVehicles.vehicleId, id))
        .limit(1);
      if (parked) return 'in use';
      await tx.delete(vehicles).where(eq(vehicles.id, id));
      return 'deleted';
    });
  }
}
