import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { FastifyBaseLogger } from 'fastify';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import type {
  CatalogImport,
  CatalogImportHistory,
  CatalogImportHistoryQuery,
  CatalogImportSummary,
  ImportError,
  ProductCsvColumn,
} from '../../../shared/schemas/catalog-transfer.ts';
import type { CsvDelimiter } from '../../csv-delimiter.ts';
import type { Database } from '../../db/client.ts';
import { InvalidError, NotFoundError } from '../../errors.ts';
import type { ImportRecord, ImportRepository, ImportSummaryRecord } from './import-repository.ts';
import type { CatalogBulkPort, FitmentBulkPort, ImportPart } from './ports.ts';
import { type ImportRow, importedFields, type RowContext, readHeader, readRow } from './product-csv.ts';
import { CSV_OPTIONS, csvProblem, importFileName, spoolFileOf, spoolUpload, uploadFileName } from './upload-spool.ts';

export interface CatalogImportSettings {
  /** Where uploads wait while they are imported (removed after). */
  spoolDir: string;
  maxBytes: number;
  /** Rows per transaction. */
  batchSize: number;
  /** This instance's name across restarts: its imports are marked with it, and its next start fails those left. */
  instanceId: string;
}

interface Collaborators {
  db: Database;
  imports: ImportRepository;
  catalog: CatalogBulkPort;
  fitment: FitmentBulkPort;
  /** `modelKey` of the fitment module: how a make and model name a model. */
  modelKey: (make: string, model: string) => string;
  log: FastifyBaseLogger;
  settings: CatalogImportSettings;
}

const notFound = () => new NotFoundError('This import does not exist.');
/** A running import moves on with every batch (seconds); one still for this long died with its server. */
const STALE_MS = 2 * 60 * 1000;
/** The spool directory is swept this often for files of imports no longer running (a crash leaves them). */
const SWEEP_MS = 60 * 60 * 1000;
/** Another instance's upload file untouched this long is no upload under way (each chunk written touches it). */
const ABANDONED_UPLOAD_MS = 60 * 60 * 1000;
const STOPPED =
  'The import stopped: its server stopped or restarted. Upload the file again (rows already imported are updated).';

/** The record as the page shows it, with the time left estimated from the pace so far. */
export function toWireImport(record: ImportRecord, now = Date.now()): CatalogImport {
  let secondsLeft: number | null = null;
  if (record.status === 'running' && record.rowsDone > 0) {
    const elapsed = (now - record.createdAt.getTime()) / 1000;
    secondsLeft = Math.max(0, Math.round((elapsed / record.rowsDone) * (record.totalRows - record.rowsDone)));
  } else if (record.status !== 'running') secondsLeft = 0;
  return { ...wireCommon(record), errors: record.errors as ImportError[], secondsLeft };
}

/** A past import as the history lists it. */
export function toWireSummary(record: ImportSummaryRecord): CatalogImportSummary {
  return {
    ...wireCommon(record),
    // Every row read is added, updated (an unchanged part counts as updated) or refused.
    refused: Math.max(0, record.rowsDone - record.created - record.updated),
  };
}

/** What the page shows of every import, running or past. */
function wireCommon(record: ImportSummaryRecord) {
  return {
    id: record.id,
    status: record.status,
    dryRun: record.dryRun,
    fileName: record.fileName,
    createdBy: record.createdByEmail,
    totalRows: record.totalRows,
    rowsDone: record.rowsDone,
    created: record.created,
    updated: record.updated,
    errorCount: record.errorCount,
    message: record.message,
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
  };
}

/**
 * CSV import of products (ADR 014). The upload is streamed to a spool file and checked on the way
 * (size, encoding, CSV syntax, header), so a refused file changes nothing; then the import runs in the background on
 * this instance, a batch per transaction (parts, their fitment and the import's progress commit together), reading
 * Cancel between batches. A dry run reads and checks every row the same way and writes only its report.
 */
export class CatalogImportService {
  readonly #c: Collaborators;
  readonly #running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  /** Upload files this process is receiving or checking (not an import's yet): the sweep leaves them. */
  readonly #uploads = new Set<string>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(collaborators: Collaborators) {
    this.#c = collaborators;
  }

  async start(
    body: Readable,
    options: { dryRun: boolean; fileName: string; adminEmail: string },
  ): Promise<CatalogImport> {
    const { settings } = this.#c;
    await mkdir(settings.spoolDir, { recursive: true, mode: 0o700 });
    const uploadFile = path.join(settings.spoolDir, uploadFileName(settings.instanceId));
    this.#uploads.add(uploadFile);
    let record: ImportRecord;
    let file: string;
    let delimiter: CsvDelimiter;
    try {
      const upload = await spoolUpload(body, settings.spoolDir, settings.maxBytes, path.basename(uploadFile));
      delimiter = upload.delimiter;
      const { problems } = readHeader(upload.header);
      const [first] = problems;
      if (first) throw new InvalidError(`The header row is not valid: ${first.message}.`, problems);
      if (upload.rows === 0) throw new InvalidError('The file has a header row but no products.');
      record = await this.#c.imports.create({
        dryRun: options.dryRun,
        fileName: options.fileName,
        createdByEmail: options.adminEmail,
        totalRows: upload.rows,
        owner: settings.instanceId,
      });
      // From here the file is the import's: a sweep keeps it while the import runs, and removes it once it does not.
      file = path.join(settings.spoolDir, importFileName(record.id));
      await rename(upload.file, file);
    } catch (error) {
      await rm(uploadFile, { force: true });
      throw error;
    } finally {
      this.#uploads.delete(uploadFile);
    }
    const abort = new AbortController();
    const done = this.#run(record, file, delimiter, abort.signal)
      .catch(async (error: unknown) => {
        const problem = csvProblem(error);
        this.#c.log.error({ importId: record.id, error: (error as Error).message }, 'catalog import failed');
        await this.#c.imports
          .finish(record.id, 'failed', problem ? `${problem.message} (line ${problem.line})` : 'The import failed.')
          .catch(() => undefined);
      })
      .finally(async () => {
        this.#running.delete(record.id);
        await rm(file, { force: true });
      });
    this.#running.set(record.id, { done, abort });
    return toWireImport(record);
  }

  async get(id: string): Promise<CatalogImport> {
    const record = await this.#c.imports.find(id);
    if (!record) throw notFound();
    return toWireImport(await this.#unlessStale(record));
  }

  async recent(): Promise<CatalogImport[]> {
    const records = await this.#c.imports.recent(10);
    return Promise.all(records.map(async (record) => toWireImport(await this.#unlessStale(record))));
  }

  /** Past imports, newest first: when, who, which file, what they added, updated and refused, how they ended. */
  async history(query: CatalogImportHistoryQuery): Promise<CatalogImportHistory> {
    const { rows, total } = await this.#c.imports.history({ limit: query.limit ?? 20, offset: query.offset ?? 0 });
    const items = await Promise.all(rows.map(async (row) => toWireSummary(await this.#unlessStale(row))));
    return { items, total };
  }

  /** Stops a running import after its current batch (batches already written stay); a finished one is as it was. */
  async cancel(id: string): Promise<CatalogImport> {
    if (!(await this.#c.imports.requestCancel(id))) throw notFound();
    return this.get(id);
  }

  /**
   * An import shown as running whose run is gone (its server was killed: a stop marks its runs itself) would
   * show a moving bar forever; once it has not moved for STALE_MS it is marked failed. Another instance's live
   * run moves on with every batch, so it is never taken for dead.
   */
  async #unlessStale<T extends ImportSummaryRecord>(record: T): Promise<T | ImportRecord> {
    if (record.status !== 'running' || this.#running.has(record.id)) return record;
    if (Date.now() - record.updatedAt.getTime() < STALE_MS) return record;
    await this.#c.imports.finish(record.id, 'failed', STOPPED);
    return (await this.#c.imports.find(record.id)) ?? record;
  }

  /**
   * At start, before the first request: this instance's imports still marked running died with its previous life
   * and are failed now (not 2 minutes later, when someone reads them), as are other instances' that stopped moving;
   * then spool files that belong to no running import are removed, and again every hour. Another live instance's
   * import moves on with every batch and is never taken. A failure here is logged, not fatal: reads still fail a
   * stale import, and the next sweep removes its file.
   */
  async recover(now = new Date()): Promise<void> {
    try {
      const failed = await this.#c.imports.failAbandoned({
        owner: this.#c.settings.instanceId,
        staleBefore: new Date(now.getTime() - STALE_MS),
        keep: [...this.#running.keys()],
        message: STOPPED,
      });
      if (failed.length > 0) this.#c.log.warn({ imports: failed }, 'imports left running by a stopped server failed');
      await this.sweepSpool(now);
    } catch (error) {
      this.#c.log.error({ error: (error as Error).message }, 'catalog import recovery failed');
    }
    if (!this.#sweeper) {
      this.#sweeper = setInterval(() => {
        this.sweepSpool().catch((error: unknown) =>
          this.#c.log.warn({ error: (error as Error).message }, 'catalog import spool sweep failed'),
        );
      }, SWEEP_MS);
      this.#sweeper.unref();
    }
  }

  /**
   * Removes the spool files nothing will read again: an import's file once the import is not running (finished, or
   * failed after a crash), an upload of this instance that this process is not receiving (its previous life's), and
   * another instance's upload untouched for an hour. Files of imports another database knows are left for an hour
   * too (the temporary directory may be shared). Answers how many went.
   */
  async sweepSpool(now = new Date()): Promise<number> {
    const dir = this.#c.settings.spoolDir;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const spool = spoolFileOf(name);
      if (!spool) continue;
      const file = path.join(dir, name);
      let remove: boolean;
      if (spool.kind === 'import') {
        if (this.#running.has(spool.importId)) continue;
        const record = await this.#c.imports.find(spool.importId);
        remove = record
          ? record.status !== 'running' || now.getTime() - record.updatedAt.getTime() >= STALE_MS
          : await this.#untouchedFor(file, now, ABANDONED_UPLOAD_MS);
      } else if (this.#uploads.has(file)) {
        continue;
      } else {
        remove =
          spool.instanceId === this.#c.settings.instanceId ||
          (await this.#untouchedFor(file, now, ABANDONED_UPLOAD_MS));
      }
      if (remove) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    if (removed > 0) this.#c.log.info({ files: removed }, 'catalog import spool files removed');
    return removed;
  }

  async #untouchedFor(file: string, now: Date, ms: number): Promise<boolean> {
    try {
      return now.getTime() - (await stat(file)).mtimeMs >= ms;
    } catch {
      return false;
    }
  }

  /** Until every import under way has ended (tests; a stop). */
  async settled(): Promise<void> {
    await Promise.all([...this.#running.values()].map((run) => run.done));
  }

  /** On shutdown: each run stops after its current row and is marked failed (its committed batches stay). */
  async stop(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const run of this.#running.values()) run.abort.abort();
    await this.settled();
  }

  async #run(record: ImportRecord, file: string, delimiter: CsvDelimiter, signal: AbortSignal): Promise<void> {
    const { catalog, fitment, imports, settings } = this.#c;
    const [categoryIds, modelIds, existing] = await Promise.all([
      catalog.categoryIds(),
      fitment.modelIds(),
      catalog.idsByMpn(),
    ]);
    const records = createReadStream(file).pipe(parse({ ...CSV_OPTIONS, delimiter, info: true }));
    let context: RowContext | undefined;
    let fields = new Set<keyof ImportPart>();
    let hasFitment = false;
    const firstLineOf = new Map<string, number>();
    let batch: ImportRow[] = [];
    let errors: ImportError[] = [];
    let rows = 0;
    const flush = async (): Promise<boolean> => {
      const cancelled = await this.#write(record, batch, { rows, errors }, { fields, hasFitment, modelIds, existing });
      batch = [];
      errors = [];
      rows = 0;
      return cancelled;
    };
    try {
      for await (const { record: cells, info } of records as AsyncIterable<{
        record: string[];
        info: { lines: number };
      }>) {
        if (signal.aborted) {
          await imports.finish(record.id, 'failed', STOPPED);
          return;
        }
        if (!context) {
          const columns = readHeader(cells).columns;
          fields = importedFields(columns);
          hasFitment = columns.includes('fitment' satisfies ProductCsvColumn);
          context = {
            columns,
            categoryIds,
            modelIds,
            modelKey: this.#c.modelKey,
            normalize: normalizePartNumber,
            // A file separated by semicolons comes from a spreadsheet that writes decimals with a comma.
            decimalComma: delimiter === ';',
          };
          continue;
        }
        rows += 1;
        const result = readRow(cells, info.lines, context);
        if (result.row) {
          const first = firstLineOf.get(result.row.key);
          if (first === undefined) {
            firstLineOf.set(result.row.key, info.lines);
            batch.push(result.row);
          } else {
            errors.push({ line: info.lines, column: 'mpn', message: `Part Number Already On Line ${first}` });
          }
        } else {
          errors.push(...result.errors);
        }
        if (rows >= settings.batchSize && (await flush())) {
          await imports.finish(record.id, 'cancelled');
          return;
        }
      }
      if (rows > 0 && (await flush())) {
        await imports.finish(record.id, 'cancelled');
        return;
      }
      await imports.finish(record.id, 'done');
    } finally {
      records.destroy();
    }
  }

  /** One batch: checked rows written (not on a dry run) with the progress; true when Cancel was pressed. */
  async #write(
    record: ImportRecord,
    batch: readonly ImportRow[],
    counts: { rows: number; errors: ImportError[] },
    file: {
      fields: ReadonlySet<keyof ImportPart>;
      hasFitment: boolean;
      modelIds: ReadonlyMap<string, string>;
      /** Part ids by MPN key: read at the start, and the parts this import adds are added to it. */
      existing: Map<string, string>;
    },
  ): Promise<boolean> {
    const { catalog, fitment, imports, db, modelKey } = this.#c;
    const { fields, hasFitment, modelIds, existing } = file;
    const keys = batch.map((row) => row.key);
    if (record.dryRun) {
      const updated = keys.filter((key) => existing.has(key)).length;
      const progress = { rows: counts.rows, created: keys.length - updated, updated, errors: counts.errors };
      return (await imports.progress(record.id, progress)).cancelRequested;
    }
    const outcome = await db.transaction(async (tx) => {
      const parts = batch.map((row) => row.part);
      const written = await catalog.upsert(tx, parts, existing, fields, record.createdByEmail);
      if (hasFitment) {
        const fitmentRows = batch.flatMap((row) => {
          const partId = written.ids.get(row.key);
          if (!partId) return [];
          return (row.fitment ?? []).flatMap((cell) => {
            const modelId = modelIds.get(modelKey(cell.make, cell.model));
            return modelId
              ? [{ partId, modelId, yearFrom: cell.yearFrom, yearTo: cell.yearTo, variant: cell.variant }]
              : [];
          });
        });
        await fitment.replaceForParts(tx, [...written.ids.values()], fitmentRows);
      }
      const progress = { rows: counts.rows, created: written.created, updated: written.updated, errors: counts.errors };
      return { ids: written.ids, cancelled: (await imports.progress(record.id, progress, tx)).cancelRequested };
    });
    // Only once committed: a batch rolled back added nothing.
    for (const [key, id] of outcome.ids) existing.set(key, id);
    return outcome.cancelled;
  }
}
