import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { vehicleTypes } from '../../../shared/schemas/fitment.ts';
import { createdAt, sqlList } from '../../db/columns.ts';
import { users } from '../accounts/schema.ts';
import { parts } from '../catalog/schema.ts';

export const vehicleMakes = pgTable(
  'vehicle_makes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vehicle_makes_name_unique').on(sql`lower(${t.name})`)],
);

export const vehicleModels = pgTable(
  'vehicle_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    makeId: uuid('make_id')
      .notNull()
      .references(() => vehicleMakes.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    type: text('type', { enum: vehicleTypes }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('vehicle_models_make_name_unique').on(t.makeId, sql`lower(${t.name})`),
    check('vehicle_models_type_valid', sql`${t.type} in ${sqlList(vehicleTypes)}`),
  ],
);

/** One model year of a model, per variant ('' = the base model): what a garage and `?vehicle=` name. */
export const vehicles = pgTable(
  'vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => vehicleModels.id, { onDelete: 'restrict' }),
    year: integer('year').notNull(),
    variant: text('variant').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('vehicles_model_year_variant_unique').on(t.modelId, t.year, t.variant),
    index('vehicles_year_idx').on(t.year),
    check('vehicles_year_range', sql`${t.year} between 1950 and 2030`),
  ],
);

/**
 * A part fits a model over a year range, for one variant or (null) all of them. "Parts that fit vehicle V" reads
 * the model's rows from `part_fitments_model_idx` (the index holds every column the match needs); "vehicles part P
 * fits" reads `part_fitments_part_idx`.
 */
export const partFitments = pgTable(
  'part_fitments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => vehicleModels.id, { onDelete: 'restrict' }),
    yearFrom: integer('year_from').notNull(),
    yearTo: integer('year_to').notNull(),
    variant: text('variant'),
  },
  (t) => [
    index('part_fitments_model_idx').on(t.modelId, t.yearFrom, t.yearTo, t.variant, t.partId),
    index('part_fitments_part_idx').on(t.partId),
    check('part_fitments_years_ordered', sql`${t.yearFrom} <= ${t.yearTo}`),
  ],
);

/** A customer's saved vehicles; at most one per user is current (partial unique index). */
export const garageVehicles = pgTable(
  'garage_vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'restrict' }),
    name: text('name'),
    isCurrent: boolean('is_current').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('garage_vehicles_user_vehicle_unique').on(t.userId, t.vehicleId),
    uniqueIndex('garage_vehicles_one_current').on(t.userId).where(sql`${t.isCurrent}`),
    index('garage_vehicles_vehicle_idx').on(t.vehicleId),
  ],
);
