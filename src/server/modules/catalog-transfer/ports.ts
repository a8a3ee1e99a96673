import type { OrderStatus } from '../../../shared/enums.ts';
import type { Transaction } from '../../db/client.ts';

/**
 * What the catalog-transfer module needs of other modules (ADR 006 ports, ADR 013). Filled in by `services.ts` with
 * the catalogue's `PartBulkRepository`, the fitment module's `PartFitmentBulkRepository` and the orders module's
 * `OrderExportRepository`; this module never names their tables. Writes take the caller's transaction, so one batch
 * of an import (parts, their fitment, the import's progress) commits together.
 */

/**
 * One part as the import writes it (the catalogue's `PartBulkRepository` takes it as is). `mpn` is the key. Columns
 * left undefined are left as they are on a part that exists; a new part gets the table's default (or the import's,
 * for the required ones). `brand` is a brand name; null clears the part's brand.
 */
export interface ImportPart {
  mpn: string;
  name: string;
  priceCents: number;
  availableQuantity: number;
  description?: string | undefined;
  img?: string | undefined;
  minimumOrder?: number | undefined;
  oemNumbers?: string[] | undefined;
  universal?: boolean | undefined;
  brand?: string | null | undefined;
  categoryId?: string | null | undefined;
}

/** What an export row needs of a part: its own columns, its brand's name and its category's slug. */
export interface ExportPart {
  id: string;
  mpn: string | null;
  name: string;
  brandName: string | null;
  oemNumbers: string[];
  categorySlug: string | null;
  priceCents: number;
  availableQuantity: number;
  minimumOrder: number;
  description: string;
  img: string;
  universal: boolean;
}

export interface CatalogBulkPort {
  /** Category ids by lower-case slug and name. */
  categoryIds(): Promise<Map<string, string>>;
  /** Every part's id by its normalised MPN (read once per import). */
  idsByMpn(): Promise<Map<string, string>>;
  /** Updates the parts `existing` names (adding any deleted meanwhile) and adds the rest; ids by MPN key. */
  upsert(
    tx: Transaction,
    rows: readonly ImportPart[],
    existing: ReadonlyMap<string, string>,
    columns: ReadonlySet<keyof ImportPart>,
    createdByEmail: string,
  ): Promise<{ ids: Map<string, string>; created: number; updated: number }>;
  exportPage(afterId: string | undefined, limit: number): Promise<ExportPart[]>;
}

export interface FitmentBulkPort {
  /** Model ids by `modelKey(make, model)` (fitment/part-fitment-bulk-repository.ts). */
  modelIds(): Promise<Map<string, string>>;
  replaceForParts(
    tx: Transaction,
    partIds: readonly string[],
    rows: readonly { partId: string; modelId: string; yearFrom: number; yearTo: number; variant: string | null }[],
  ): Promise<void>;
  ofParts(
    partIds: readonly string[],
  ): Promise<
    { partId: string; make: string; model: string; yearFrom: number; yearTo: number; variant: string | null }[]
  >;
}

export interface ExportOrder {
  id: string;
  createdAt: Date;
  cursor: string;
  status: string;
  email: string;
  userName: string;
  partId: string | null;
  partName: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  address: string;
  phone: string;
  transactionId: string | null;
  carrier: string | null;
  trackingNumber: string | null;
}

export interface OrderExportPort {
  page(
    filter: { status?: OrderStatus | undefined; from?: Date | undefined; to?: Date | undefined },
    after: { cursor: string; id: string } | undefined,
    limit: number,
  ): Promise<ExportOrder[]>;
}
