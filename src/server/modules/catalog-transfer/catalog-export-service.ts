import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { centsToDollars } from '../../../shared/money.ts';
import { type OrderExportQuery, orderCsvColumns, productCsvColumns } from '../../../shared/schemas/catalog-transfer.ts';
import { phoneCell } from './phone-cell.ts';
import type { CatalogBulkPort, ExportOrder, FitmentBulkPort, OrderExportPort } from './ports.ts';
import { exportRecord, neutralize } from './product-csv.ts';

/** Rows read per statement: memory stays at one page whatever the catalogue's size. */
const PAGE_SIZE = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

const csv = (records: string[][]) => stringify(records, { record_delimiter: '\r\n' });

/**
 * CSV export of products (with fitment) and orders (ADR 014): read in keyset pages and written as they come,
 * so the response streams and the server never holds the whole table. Products use the columns import reads; every
 * cell that a spreadsheet would run as a formula is neutralised.
 */
export class CatalogExportService {
  readonly #catalog: CatalogBulkPort;
  readonly #fitment: FitmentBulkPort;
  readonly #orders: OrderExportPort;
  constructor(catalog: CatalogBulkPort, fitment: FitmentBulkPort, orders: OrderExportPort) {
    this.#catalog = catalog;
    this.#fitment = fitment;
    this.#orders = orders;
  }

  products(): Readable {
    const catalog = this.#catalog;
    const fitment = this.#fitment;
    async function* lines() {
      yield csv([[...productCsvColumns]]);
      let after: string | undefined;
      for (;;) {
        const page = await catalog.exportPage(after, PAGE_SIZE);
        if (page.length === 0) return;
        const rows = await fitment.ofParts(page.map((part) => part.id));
        const byPart = Map.groupBy(rows, (row) => row.partId);
        yield csv(page.map((part) => exportRecord(part, byPart.get(part.id) ?? [])));
        after = page.at(-1)?.id;
        if (page.length < PAGE_SIZE) return;
      }
    }
    return Readable.from(lines(), { objectMode: false });
  }

  orders(query: OrderExportQuery): Readable {
    const orders = this.#orders;
    const filter = {
      status: query.status,
      from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
      // `to` is a whole day: orders placed before the next midnight (UTC).
      to: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    };
    async function* lines() {
      yield csv([[...orderCsvColumns]]);
      let after: { cursor: string; id: string } | undefined;
      for (;;) {
        const page = await orders.page(filter, after, PAGE_SIZE);
        if (page.length === 0) return;
        yield csv(page.map(orderRecord));
        const last = page.at(-1);
        after = last && { cursor: last.cursor, id: last.id };
        if (page.length < PAGE_SIZE) return;
      }
    }
    return Readable.from(lines(), { objectMode: false });
  }
}

function orderRecord(order: ExportOrder): string[] {
  const cells: Record<(typeof orderCsvColumns)[number], string> = {
    order_id: order.id,
    created_at: order.createdAt.toISOString(),
    status: order.status,
    email: order.email,
    user_name: order.userName,
    part_id: order.partId ?? '',
    part_name: order.partName,
    quantity: String(order.quantity),
    unit_price: centsToDollars(order.unitPriceCents).toFixed(2),
    total: centsToDollars(order.totalCents).toFixed(2),
    address: order.address,
    phone: phoneCell(order.phone),
    transaction_id: order.transactionId ?? '',
    carrier: order.carrier ?? '',
    tracking_number: order.trackingNumber ?? '',
  };
  return orderCsvColumns.map((column) => neutralize(cells[column]));
}
