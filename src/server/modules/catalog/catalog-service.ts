import type { Part, PartListQuery } from '../../../shared/schemas/parts.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import type { Database } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { toWirePart } from './part-mapper.ts';
import { PartRepository } from './part-repository.ts';

export class CatalogService {
  readonly #parts: PartRepository;
  constructor(db: Database) {
    this.#parts = new PartRepository(db);
  }

  async list(query: PartListQuery): Promise<{ items: Part[]; total: number }> {
    const { rows, total } = await this.#parts.list(query);
    return { items: rows.map(toWirePart), total };
  }

  async get(id: string): Promise<Part> {
    const row = isUuid(id) ? await this.#parts.findById(id) : undefined;
    if (!row) throw new NotFoundError('This part does not exist.');
    return toWirePart(row);
  }
}
