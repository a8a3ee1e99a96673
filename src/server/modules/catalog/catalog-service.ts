import { isUuid } from '../../../shared/schemas/common.ts';
import type { Part, PartInput, PartListQuery, PartPatch } from '../../../shared/schemas/parts.ts';
import type { Database } from '../../db/client.ts';
import { InvalidError, NotFoundError } from '../../errors.ts';
import { fromPartInput, fromPartPatch, toWirePart } from './part-mapper.ts';
import { PartRepository } from './part-repository.ts';

const notFound = () => new NotFoundError('This part does not exist.');

export class CatalogService {
  readonly #parts: PartRepository;
  constructor(db: Database) {
    this.#parts = new PartRepository(db);
  }

  async list(query: PartListQuery): Promise<{ items: Part[]; total: number }> {
    const { rows, total } = await this.#parts.list({ ...query, q: query.q || undefined });
    return { items: rows.map(toWirePart), total };
  }

  async get(id: string): Promise<Part> {
    const row = isUuid(id) ? await this.#parts.findById(id) : undefined;
    if (!row) throw notFound();
    return toWirePart(row);
  }

  /** The adder is the signed-in admin: the body's `email` is never trusted. */
  async create(input: PartInput, adminEmail: string): Promise<Part> {
    const row = await this.#parts.insert({ ...fromPartInput(input), createdByEmail: adminEmail });
    return toWirePart(row);
  }

  async update(id: string, patch: PartPatch): Promise<Part> {
    if (!isUuid(id)) throw notFound();
    const changes = fromPartPatch(patch);
    if (Object.keys(changes).length === 0) {
      throw new InvalidError('Send at least one field to change.');
    }
    const row = await this.#parts.update(id, changes);
    if (!row) throw notFound();
    return toWirePart(row);
  }

  async remove(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.#parts.delete(id))) throw notFound();
  }
}
