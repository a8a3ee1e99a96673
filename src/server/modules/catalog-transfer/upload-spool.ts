import crypto from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { ImportError } from '../../../shared/schemas/catalog-transfer.ts';
import { type CsvDelimiter, detectDelimiter } from '../../csv-delimiter.ts';
import { AppError, InvalidError } from '../../errors.ts';

/** 413: the upload is larger than the import takes. */
export class PayloadTooLargeError extends AppError {
  constructor(maxBytes: number) {
    super(413, 'payload_too_large', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  }
}

/** What an accepted upload is: a file on this instance's disk, its records counted and its header read. */
export interface SpooledUpload {
  file: string;
  /** Records after the header. */
  rows: number;
  header: string[];
  /** The file's separator, found in its header row (a comma or a semicolon as spreadsheets save them, or tab). */
  delimiter: CsvDelimiter;
}

/**
 * Spool files are named for what they are, so that a sweep can tell what may go: an upload still being received
 * and checked carries the instance receiving it; once its import exists, the file carries the import's id.
 */
export function uploadFileName(instanceId: string): string {
  return `catalog-upload-${crypto.randomUUID()}.${instanceId}.csv`;
}

export function importFileName(importId: string): string {
  return `catalog-import-${importId}.csv`;
}

/** What a file in the spool directory is, by its name; undefined: not a spool file (left alone). */
export function spoolFileOf(
  name: string,
): { kind: 'upload'; instanceId: string } | { kind: 'import'; importId: string } | undefined {
  const upload = /^catalog-upload-[0-9a-f-]{36}\.([A-Za-z0-9._-]{1,64})\.csv$/.exec(name);
  if (upload?.[1]) return { kind: 'upload', instanceId: upload[1] };
  const spooled = /^catalog-import-([0-9a-f-]{36})\.csv$/.exec(name);
  if (spooled?.[1]) return { kind: 'import', importId: spooled[1] };
  return undefined;
}

/** csv-parse's settings, the same for the check at upload and for the import's run (with the file's delimiter). */
export const CSV_OPTIONS = {
  bom: true,
  skip_empty_lines: true,
  relax_column_count: true,
  // One cell larger than this is not a product field; it would only grow the parser's buffer.
  max_record_size: 1024 * 1024,
} as const;

/** csv-parse's refusal → the line it names and a message for people. */
export function csvProblem(error: unknown): ImportError | undefined {
  if (!(error instanceof CsvError)) return undefined;
  const line = (error as CsvError & { lines?: number }).lines ?? 0;
  const messages: Record<string, string> = {
    CSV_QUOTE_NOT_CLOSED: 'A quoted cell is never closed',
    CSV_INVALID_CLOSING_QUOTE: 'A quote inside a cell must be doubled ("")',
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'Text follows a closing quote',
    CSV_MAX_RECORD_SIZE: 'A row is larger than 1 MB',
  };
  return { line, column: null, message: messages[error.code] ?? 'The file is not valid CSV' };
}

/**
 * Streams an upload to a file under `dir`, refusing it as soon as it is known to be wrong: past `maxBytes` (413,
 * whatever Content-Length said), not UTF-8 (400), not CSV (400 with the line). The whole file is never in memory:
 * each chunk is decoded (to check it) and parsed (to count records and find syntax errors) as it passes. On any
 * refusal the file is removed.
 */
export async function spoolUpload(
  source: Readable,
  dir: string,
  maxBytes: number,
  name = uploadFileName('unnamed'),
): Promise<SpooledUpload> {
  const file = path.join(dir, name);
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // Listened to from the start: a write still queued when a refusal destroys the stream (the file may not even be
  // open yet) fails with ERR_STREAM_DESTROYED, which without a listener is an uncaught exception that ends the
  // process. A real write failure (a full disk) is kept and refuses the upload.
  let writeError: Error | undefined;
  out.on('error', (error) => {
    writeError ??= error;
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let records = 0;
  let header: string[] | undefined;
  let parseError: unknown;
  // The parser starts once the header row is in (or the file ended, or a header this long is no header): its
  // delimiter is the file's own.
  let parser: ReturnType<typeof parse> | undefined;
  let delimiter: CsvDelimiter = ',';
  let before = '';
  const startParser = () => {
    delimiter = detectDelimiter(before);
    const started = parse({ ...CSV_OPTIONS, delimiter });
    parser = started;
    started.on('data', (record: string[]) => {
      if (header === undefined) header = record;
      else records += 1;
    });
    started.on('error', (error) => {
      parseError = error;
    });
    started.write(before);
    before = '';
    return started;
  };
  const feed = (text: string) => {
    if (parser) {
      parser.write(text);
      return;
    }
    before += text;
    if (/[\r\n]/.test(before) || before.length > 64 * 1024) startParser();
  };
  let bytes = 0;
  let newlines = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new PayloadTooLargeError(maxBytes);
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw new InvalidError(
          `The file is not UTF-8 text (near line ${newlines + 1}). Save it as "CSV UTF-8" and upload it again.`,
          [{ line: newlines + 1, column: null, message: 'Not UTF-8' }],
        );
      }
      newlines += countNewlines(chunk);
      if (writeError) throw writeError;
      // `once` rejects on 'error', so a failing disk cannot leave the upload waiting for a drain that never comes.
      if (!out.write(chunk)) await once(out, 'drain');
      if (parseError === undefined) feed(text);
      if (parseError !== undefined) throw refusal(parseError);
    }
    try {
      decoder.decode();
    } catch {
      throw new InvalidError('The file is not UTF-8 text (it ends inside a character).');
    }
    const ended = parser ?? startParser();
    ended.end();
    await finished(ended).catch(() => undefined);
    if (parseError !== undefined) throw refusal(parseError);
    out.end();
    await finished(out);
    if (header === undefined) throw new InvalidError('The file is empty: it needs a header row and product rows.');
    return { file, rows: records, header, delimiter };
  } catch (error) {
    out.destroy();
    parser?.destroy();
    await rm(file, { force: true });
    throw error;
  }
}

function refusal(error: unknown): Error {
  const problem = csvProblem(error);
  if (!problem) return error instanceof Error ? error : new Error(String(error));
  return new InvalidError(`The file is not valid CSV: ${problem.message} (line ${problem.line}).`, [problem]);
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n += 1;
  return n;
}
