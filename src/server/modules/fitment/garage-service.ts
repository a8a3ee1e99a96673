import { isUuid } from '../../../shared/schemas/common.ts';
import { GARAGE_CAPACITY, type Garage, type GarageAdd, type GarageMerge } from '../../../shared/schemas/fitment.ts';
import type { Transaction } from '../../db/client.ts';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../errors.ts';
import type { GarageRepository, GarageRow } from './garage-repository.ts';
import { FOREIGN_KEY_VIOLATION, sqlState } from './sql-state.ts';
import type { VehicleRepository } from './vehicle-repository.ts';
import { toWireVehicle, VEHICLE_NOT_FOUND } from './vehicles-service.ts';

const ENTRY_NOT_FOUND = 'This vehicle is not in your garage.';

function toWireGarage(rows: GarageRow[]): Garage {
  const current = rows.find((row) => row.isCurrent);
  return {
    vehicles: rows.map((row) => ({
      id: row.id,
      vehicle: toWireVehicle(row.vehicle),
      name: row.name,
      current: row.isCurrent,
      addedAt: row.createdAt.toISOString(),
    })),
    currentId: current?.id ?? null,
  };
}

/** "" and blanks clear a nickname. */
const nameOf = (name: string | null | undefined): string | null => (name?.trim() ? name.trim() : null);

/**
 * My Garage: each signed-in customer's own vehicles (no one else's, admins included: a garage entry of another user
 * is answered 404 like one that does not exist). Every write answers the whole garage.
 */
export class GarageService {
  readonly #garage: GarageRepository;
  readonly #vehicles: VehicleRepository;
  constructor(garage: GarageRepository, vehicles: VehicleRepository) {
    this.#garage = garage;
    this.#vehicles = vehicles;
  }

  async get(userId: string): Promise<Garage> {
    return toWireGarage(await this.#garage.list(userId));
  }

  async add(userId: string, input: GarageAdd): Promise<Garage> {
    if (!isUuid(input.vehicleId) || !(await this.#vehicles.find(input.vehicleId))) {
      throw new NotFoundError(VEHICLE_NOT_FOUND);
    }
    return this.#write(userId, async (tx) => {
      if (await this.#garage.findByVehicle(tx, userId, input.vehicleId)) {
        throw new ConflictError('This vehicle is already in your garage.', 'already_in_garage');
      }
      if ((await this.#garage.size(tx, userId)) >= GARAGE_CAPACITY) {
        throw new BusinessRuleError(
          'garage_full',
          `Your garage holds at most ${GARAGE_CAPACITY} vehicles. Remove one to add another.`,
        );
      }
      const id = await this.#garage.insert(tx, userId, input.vehicleId, nameOf(input.name));
      if (input.current !== false) await this.#garage.setCurrent(tx, userId, id);
    });
  }

  async rename(userId: string, entryId: string, name: string | null): Promise<Garage> {
    return this.#write(userId, async (tx) => {
      if (!(await this.#garage.rename(tx, userId, entryId, nameOf(name)))) throw new NotFoundError(ENTRY_NOT_FOUND);
    });
  }

  async remove(userId: string, entryId: string): Promise<Garage> {
    return this.#write(userId, async (tx) => {
      if (!(await this.#garage.remove(tx, userId, entryId))) throw new NotFoundError(ENTRY_NOT_FOUND);
    });
  }

  async setCurrent(userId: string, entryId: string | null): Promise<Garage> {
    if (entryId !== null && !isUuid(entryId)) throw new NotFoundError(ENTRY_NOT_FOUND);
    return this.#write(userId, async (tx) => {
      if (!(await this.#garage.setCurrent(tx, userId, entryId))) throw new NotFoundError(ENTRY_NOT_FOUND);
    });
  }

  /**
   * The visitor's browser garage joins the account's: new vehicles are added (up to the capacity), vehicles already
   * there keep their server name, vehicles that no longer exist are skipped, and the browser's current vehicle
   * becomes the current one. Merging the same list twice changes nothing the second time.
   */
  async merge(userId: string, input: GarageMerge): Promise<Garage> {
    const wanted = input.vehicles.filter((entry) => isUuid(entry.vehicleId));
    const known = new Set((await this.#vehicles.findMany(wanted.map((e) => e.vehicleId))).map((v) => v.id));
    const currentVehicleId = input.currentVehicleId;
    return this.#write(userId, async (tx) => {
      let size = await this.#garage.size(tx, userId);
      const seen = new Set<string>();
      for (const entry of wanted) {
        if (!known.has(entry.vehicleId) || seen.has(entry.vehicleId)) continue;
        seen.add(entry.vehicleId);
        if (await this.#garage.findByVehicle(tx, userId, entry.vehicleId)) continue;
        if (size >= GARAGE_CAPACITY) break;
        await this.#garage.insert(tx, userId, entry.vehicleId, nameOf(entry.name));
        size += 1;
      }
      if (currentVehicleId && isUuid(currentVehicleId)) {
        const current = await this.#garage.findByVehicle(tx, userId, currentVehicleId);
        if (current) await this.#garage.setCurrent(tx, userId, current.id);
      }
    });
  }

  /** One serialised transaction per write, then the garage as it now is. */
  async #write(userId: string, work: (tx: Transaction) => Promise<void>): Promise<Garage> {
    try {
      return toWireGarage(
        await this.#garage.write(userId, async (tx) => {
          await work(tx);
          return this.#garage.list(userId, tx);
        }),
      );
    } catch (error) {
      // The vehicle was deleted by an admin between the check and the insert.
      if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw new NotFoundError(VEHICLE_NOT_FOUND);
      throw error;
    }
  }
}
