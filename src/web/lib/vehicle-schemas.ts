import { z } from 'zod';
import { vehicleMakeSchema, vehicleModelSchema, vehicleSchema, vehicleTypes } from '../../shared/schemas/fitment.ts';

/** The vehicle lists' answers, imported on demand by `vehicle-queries.ts` (`lazySchema`, ADR 018). */
export const vehicleAnswers = {
  types: z.array(z.enum(vehicleTypes)),
  years: z.array(z.number().int()),
  makes: z.array(vehicleMakeSchema),
  models: z.array(vehicleModelSchema),
  vehicles: z.array(vehicleSchema),
  vehicle: vehicleSchema,
};
