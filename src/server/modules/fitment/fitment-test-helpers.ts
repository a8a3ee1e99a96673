import type { FastifyInstance } from 'fastify';
import type { Vehicle, VehicleType } from '../../../shared/schemas/fitment.ts';

/**
 * Makes, models and vehicles built through the admin API, so the tests also prove that API. A short random suffix
 * keeps the names of one test file apart from another's on a shared database.
 */
export class VehicleBuilder {
  readonly #app: FastifyInstance;
  readonly #admin: { authorization: string };
  readonly #makes = new Map<string, string>();
  readonly #models = new Map<string, string>();

  constructor(app: FastifyInstance, adminHeaders: { authorization: string }) {
    this.#app = app;
    this.#admin = adminHeaders;
  }

  async make(name: string): Promise<string> {
    const known = this.#makes.get(name);
    if (known) return known;
    const res = await this.#app.inject({
      method: 'POST',
      url: '/api/vehicle/make',
      headers: this.#admin,
      payload: { name },
    });
    if (res.statusCode !== 201) throw new Error(`make not added: ${res.statusCode} ${res.body}`);
    const id = res.json().id as string;
    this.#makes.set(name, id);
    return id;
  }

  async model(make: string, name: string, type: VehicleType = 'motorcycle'): Promise<string> {
    const key = `${make}|${name}`;
    const known = this.#models.get(key);
    if (known) return known;
    const res = await this.#app.inject({
      method: 'POST',
      url: '/api/vehicle/model',
      headers: this.#admin,
      payload: { makeId: await this.make(make), name, type },
    });
    if (res.statusCode !== 201) throw new Error(`model not added: ${res.statusCode} ${res.body}`);
    const id = res.json().id as string;
    this.#models.set(key, id);
    return id;
  }

  /** The vehicles of a year range (newest first). */
  async years(
    make: string,
    model: string,
    yearFrom: number,
    yearTo: number,
    options: { variant?: string; type?: VehicleType } = {},
  ): Promise<Vehicle[]> {
    const res = await this.#app.inject({
      method: 'POST',
      url: '/api/vehicle',
      headers: this.#admin,
      payload: { modelId: await this.model(make, model, options.type), yearFrom, yearTo, variant: options.variant },
    });
    if (res.statusCode !== 201) throw new Error(`vehicles not added: ${res.statusCode} ${res.body}`);
    return res.json() as Vehicle[];
  }

  async vehicle(make: string, model: string, year: number, options: { variant?: string; type?: VehicleType } = {}) {
    const [vehicle] = await this.years(make, model, year, year, options);
    if (!vehicle) throw new Error('no vehicle');
    return vehicle;
  }
}

export const uniqueSuffix = () => Math.random().toString(36).slice(2, 7);
