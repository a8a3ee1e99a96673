import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { orderStatuses } from '../../../shared/enums.ts';
import {
  CATALOG_IMPORT_MAX_BYTES,
  type CatalogImport,
  type CatalogImportSummary,
  type ImportError,
  productCsvColumns,
  requiredProductCsvColumns,
  requiredVehicleCsvColumns,
  VEHICLE_IMPORT_MAX_BYTES,
  VEHICLE_IMPORT_MAX_ROWS,
  vehicleCsvColumns,
} from '../../../shared/schemas/catalog-transfer.ts';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  downloadCsv,
  exportPaths,
  HISTORY_PAGE,
  importHistoryQuery,
  recentImportsQuery,
} from './catalog-transfer-api.ts';
import {
  useCancelImport,
  useForgetParts,
  useImportVehicles,
  useRefreshHistory,
  useStartImport,
} from './use-catalog-import.ts';

const numberFormat = new Intl.NumberFormat();
const MAX_MB = CATALOG_IMPORT_MAX_BYTES / 1024 / 1024;

function timeLeft(seconds: number): string {
  if (seconds < 60) return `about ${seconds} s left`;
  return `about ${Math.ceil(seconds / 60)} min left`;
}

/**
 * Import Products (admin): upload a CSV, check it (dry run) or import it, watch its progress (which a
 * reload finds again: the latest import is the server's), cancel it; and download the products or orders as CSV.
 */
export function Component() {
  usePageTitle('Import Products');
  const recent = useQuery(recentImportsQuery);
  const latest = recent.data?.[0];
  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title" className="h2 mb-3">
        Import Products
      </h1>
      <UploadForm />
      {recent.isError && !recent.data ? (
        <LoadError error={recent.error} onRetry={() => void recent.refetch()} what="the imports" />
      ) : recent.isPending ? (
        <LoadingSpinner label="Loading the imports…" />
      ) : latest ? (
        <ImportProgress key={latest.id} item={latest} />
      ) : null}
      <ImportHistory />
      <VehicleImportCard />
      <ExportCard />
    </section>
  );
}

function UploadForm() {
  const start = useStartImport();
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <CsvUploadForm
          label="CSV file"
          maxBytes={CATALOG_IMPORT_MAX_BYTES}
          tooLarge={`The file is larger than ${MAX_MB} MB.`}
          busy={start.isPending}
          submitLabel={(dryRun) => (dryRun ? 'Check File' : 'Import')}
          onUpload={(upload) => start.mutate(upload)}
          help={
            <>
              UTF-8, at most {MAX_MB} MB, with a header row; columns separated by commas or by semicolons (found from
              the header row; with semicolons a price may be written 24,50). Columns: {productCsvColumns.join(', ')}{' '}
              (required: {requiredProductCsvColumns.join(', ')}). Rows update the part with the same part number (mpn),
              or add one. OEM numbers are separated by <code>|</code>; fitment rows by <code>;</code>, each{' '}
              <code>make|model|years|variant</code>, e.g. <code>Yamaha|YZ250F|2019-2023</code>. The products export
              below is a file in this form.
            </>
          }
        >
          {start.isError ? (
            <Alert variant="danger" className="py-2">
              <p className="mb-0">{errorMessage(start.error)}</p>
            </Alert>
          ) : null}
        </CsvUploadForm>
      </Card.Body>
    </Card>
  );
}

/**
 * A CSV file to check (dry run, the default) or import: the file's size is checked before it is sent, the rest is
 * the server's. `children` (the upload's own refusal) stands above the submit button.
 */
function CsvUploadForm({
  label,
  maxBytes,
  tooLarge,
  help,
  busy,
  submitLabel,
  onUpload,
  children,
}: {
  label: string;
  maxBytes: number;
  tooLarge: string;
  help: ReactNode;
  busy: boolean;
  submitLabel: (dryRun: boolean) => string;
  onUpload: (upload: { file: File; dryRun: boolean }) => void;
  children?: ReactNode;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!file) {
      setProblem('Choose A CSV File');
      return;
    }
    if (file.size > maxBytes) {
      setProblem(tooLarge);
      return;
    }
    onUpload({ file, dryRun });
  }

  return (
    <Form noValidate onSubmit={submit}>
      <Form.Group className="mb-3" controlId={`${id}-file`}>
        <Form.Label>{label}</Form.Label>
        <Form.Control
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${id}-help`}
          isInvalid={problem !== null}
          onChange={(event) => setFile((event.target as HTMLInputElement).files?.[0] ?? null)}
        />
        {problem ? <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback> : null}
        <Form.Text id={`${id}-help`} className="d-block">
          {help}
        </Form.Text>
      </Form.Group>
      <Form.Check
        className="mb-3"
        id={`${id}-dry-run`}
        type="checkbox"
        label="Dry run: check every row and report, change nothing"
        checked={dryRun}
        onChange={(event) => setDryRun(event.target.checked)}
      />
      {children}
      <SubmitButton busy={busy} busyLabel="Uploading…" className="btn-brand">
        {submitLabel(dryRun)}
      </SubmitButton>
    </Form>
  );
}

function ImportProgress({ item }: { item: CatalogImport }) {
  const cancel = useCancelImport();
  const forgetParts = useForgetParts();
  const refreshHistory = useRefreshHistory();
  const running = item.status === 'running';
  const wasRunning = useRef(running);
  useEffect(() => {
    // A real import that just ended changed the catalogue the other pages have cached.
    if (wasRunning.current && !running && !item.dryRun) void forgetParts();
    if (wasRunning.current && !running) void refreshHistory();
    wasRunning.current = running;
  }, [running, item.dryRun, forgetParts, refreshHistory]);
  const percent = item.totalRows === 0 ? 100 : Math.round((item.rowsDone / item.totalRows) * 100);
  const title = item.dryRun ? 'Check' : 'Import';
  const statusText = {
    running: item.dryRun ? 'Checking…' : 'Importing…',
    done: item.dryRun ? 'Check finished' : 'Import finished',
    failed: 'Failed',
    cancelled: 'Cancelled',
  }[item.status];
  const rowsText = `${numberFormat.format(item.rowsDone)} of ${numberFormat.format(item.totalRows)} rows`;
  return (
    <Card className="shadow-sm mb-4" aria-labelledby="import-progress-title">
      <Card.Body>
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
          <h2 id="import-progress-title" className="h5 mb-0 text-break">
            {title} of {item.fileName || 'the file'}
          </h2>
          {running ? (
            <Button
              variant="outline-danger"
              size="sm"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(item.id)}
            >
              Cancel
            </Button>
          ) : null}
        </div>
        <div
          className="progress mb-2"
          role="progressbar"
          aria-label={`${title} progress`}
          aria-valuemin={0}
          aria-valuemax={item.totalRows}
          aria-valuenow={item.rowsDone}
          aria-valuetext={rowsText}
        >
          <div
            className={`progress-bar ${running ? 'progress-bar-striped progress-bar-animated' : ''} ${item.status === 'done' ? 'bg-success' : ''}`}
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="mb-1" aria-live="polite">
          <span className="fw-semibold">{statusText}</span>: {rowsText}, {numberFormat.format(item.errorCount)}{' '}
          {item.errorCount === 1 ? 'error' : 'errors'}
          {running && item.secondsLeft !== null ? `, ${timeLeft(item.secondsLeft)}` : ''}.
        </p>
        <p className="mb-0 small text-body-secondary">
          {item.dryRun ? 'Would add' : 'Added'} {numberFormat.format(item.created)},{' '}
          {item.dryRun ? 'would update' : 'updated'} {numberFormat.format(item.updated)} parts.
          {item.status === 'cancelled' && !item.dryRun ? ' Rows imported before the cancel stay.' : ''}
        </p>
        {item.message ? <p className="mb-0 text-danger">{item.message}</p> : null}
        {cancel.isError ? <p className="mb-0 text-danger">{errorMessage(cancel.error)}</p> : null}
        {item.errors.length > 0 ? <ErrorTable item={item} /> : null}
      </Card.Body>
    </Card>
  );
}

function ErrorTable({ item }: { item: CatalogImport }) {
  return (
    <RowErrors
      errors={item.errors}
      caption={`Rows with errors${item.dryRun ? '' : ' (not imported)'}${
        item.errorCount > item.errors.length ? `: the first ${item.errors.length} of ${item.errorCount}` : ''
      }`}
    />
  );
}

function RowErrors({ errors, caption }: { errors: readonly ImportError[]; caption: string }) {
  return (
    <div className="table-responsive mt-3">
      <Table size="sm" striped className="mb-0 align-middle">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((error, index) => (
            // Errors have no id; their order in the file is fixed.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
            <tr key={index}>
              <td>{error.line}</td>
              <td>{error.column ?? '(row)'}</td>
              <td className="text-break">{error.message}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

const VEHICLE_MAX_KB = VEHICLE_IMPORT_MAX_BYTES / 1024;
const counted = (n: number, noun: string) => `${numberFormat.format(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The row errors a refused vehicle import sent as details (each `{line, column, message}`). */
function refusedRows(error: unknown): ImportError[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return error.details.filter(
    (detail): detail is ImportError =>
      typeof detail === 'object' && detail !== null && 'line' in detail && 'message' in detail,
  );
}

/** Vehicles by CSV: makes, models, model years and variants; a check first, then all rows at once or none. */
function VehicleImportCard() {
  const run = useImportVehicles();
  const id = useId();
  const result = run.data;
  const refused = run.isError ? refusedRows(run.error) : [];

  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={`${id}-title`}>
      <Card.Body>
        <h2 id={`${id}-title`} className="h5">
          Import Vehicles
        </h2>
        <CsvUploadForm
          label="Vehicles CSV file"
          maxBytes={VEHICLE_IMPORT_MAX_BYTES}
          tooLarge={`The file is larger than ${VEHICLE_MAX_KB} KB.`}
          busy={run.isPending}
          submitLabel={(dryRun) => (dryRun ? 'Check Vehicles' : 'Import Vehicles')}
          onUpload={(upload) => run.mutate(upload)}
          help={
            <>
              UTF-8, at most {VEHICLE_MAX_KB} KB and {numberFormat.format(VEHICLE_IMPORT_MAX_ROWS)} rows, commas or
              semicolons. Columns: {vehicleCsvColumns.join(', ')} (required: {requiredVehicleCsvColumns.join(', ')}, and
              type for a new model: motorcycle, car, atv or scooter). Years are <code>2019</code> or{' '}
              <code>2019-2023</code>. Makes, models and years that exist are kept. An import writes every row or, when
              any row has an error, none.
            </>
          }
        />
        <div aria-live="polite">
          {run.isError ? (
            <Alert variant="danger" className="mt-3 mb-0 py-2">
              {errorMessage(run.error)}
            </Alert>
          ) : null}
          {refused.length > 0 ? <RowErrors errors={refused} caption="Rows with errors (nothing imported)" /> : null}
          {result && !run.isError ? (
            <>
              <Alert variant={result.errors.length > 0 ? 'warning' : 'success'} className="mt-3 mb-0 py-2">
                {result.errors.length > 0
                  ? `${numberFormat.format(result.errors.length)} ${result.errors.length === 1 ? 'error' : 'errors'} in ${numberFormat.format(result.rows)} rows: fix them before importing.`
                  : `${result.dryRun ? 'Check finished: would add' : 'Imported: added'} ${counted(result.makesAdded, 'make')}, ${counted(result.modelsAdded, 'model')} and ${counted(result.vehiclesAdded, 'model year')} (${numberFormat.format(result.vehiclesExisting)} already there).`}
              </Alert>
              {result.errors.length > 0 ? <RowErrors errors={result.errors} caption="Rows with errors" /> : null}
            </>
          ) : null}
        </div>
      </Card.Body>
    </Card>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const historyStatus = (item: CatalogImportSummary) =>
  ({
    running: item.dryRun ? 'Checking' : 'Importing',
    done: 'Finished',
    failed: 'Failed',
    cancelled: 'Cancelled',
  })[item.status];

/** Past imports and checks, newest first, a page at a time: when, who, which file, what happened to the rows. */
function ImportHistory() {
  const [offset, setOffset] = useState(0);
  const history = useQuery(importHistoryQuery(offset));
  const total = history.data?.total ?? 0;
  const items = history.data?.items ?? [];
  const id = useId();
  return (
    <Card className="shadow-sm mb-4" aria-labelledby={`${id}-title`}>
      <Card.Body>
        <h2 id={`${id}-title`} className="h5">
          Import History
        </h2>
        {history.isError && !history.data ? (
          <LoadError error={history.error} onRetry={() => void history.refetch()} what="the import history" />
        ) : history.isPending ? (
          <LoadingSpinner label="Loading the import history…" />
        ) : items.length === 0 ? (
          <p className="mb-0 text-body-secondary">No imports yet. Every check and import you run is listed here.</p>
        ) : (
          <>
            <ul className="list-group list-group-flush mb-2" aria-label="Past imports">
              {items.map((item) => (
                <li key={item.id} className="list-group-item px-0">
                  <div className="d-flex flex-wrap justify-content-between gap-2">
                    <span className="fw-semibold text-break">
                      {item.dryRun ? 'Check' : 'Import'} of {item.fileName || 'a file'}
                    </span>
                    <span
                      className={`badge ${item.status === 'done' ? 'text-bg-success' : item.status === 'running' ? 'text-bg-secondary' : 'text-bg-danger'} align-self-start`}
                    >
                      {historyStatus(item)}
                    </span>
                  </div>
                  <div className="small text-body-secondary text-break">
                    <time dateTime={item.createdAt}>{dateTime.format(new Date(item.createdAt))}</time> by{' '}
                    {item.createdBy}
                  </div>
                  <div className="small">
                    {numberFormat.format(item.totalRows)} rows: {numberFormat.format(item.created)}{' '}
                    {item.dryRun ? 'would be added' : 'added'}, {numberFormat.format(item.updated)}{' '}
                    {item.dryRun ? 'would be updated' : 'updated'}, {numberFormat.format(item.refused)} refused
                    {item.message ? <span className="d-block text-danger">{item.message}</span> : null}
                  </div>
                </li>
              ))}
            </ul>
            {total > HISTORY_PAGE ? (
              <div className="d-flex flex-wrap align-items-center gap-2">
                <Button
                  variant="outline-dark"
                  size="sm"
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - HISTORY_PAGE))}
                >
                  Newer
                </Button>
                <Button
                  variant="outline-dark"
                  size="sm"
                  disabled={offset + HISTORY_PAGE >= total}
                  onClick={() => setOffset(offset + HISTORY_PAGE)}
                >
                  Older
                </Button>
                <span className="small text-body-secondary" aria-live="polite">
                  {offset + 1}–{Math.min(offset + items.length, total)} of {numberFormat.format(total)}
                </span>
              </div>
            ) : null}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

function ExportCard() {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState<'products' | 'orders' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const today = new Date().toISOString().slice(0, 10);

  async function download(kind: 'products' | 'orders') {
    setBusy(kind);
    setProblem(null);
    try {
      const query: Record<string, string> = kind === 'orders' ? { status, from, to } : {};
      await downloadCsv(exportPaths[kind], query, `${kind}-${today}.csv`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card className="shadow-sm" aria-labelledby={`${id}-title`}>
      <Card.Body>
        <h2 id={`${id}-title`} className="h5">
          Export
        </h2>
        <p className="small text-body-secondary">
          Products come with their fitment, in the columns import reads. Cells a spreadsheet would run as a formula
          start with an apostrophe. Phone numbers are written as digits, with the country code when the customer gave
          one (+44 7700 900123 as 447700900123), so courier imports read them.
        </p>
        <Button variant="dark" className="mb-3" disabled={busy !== null} onClick={() => void download('products')}>
          {busy === 'products' ? 'Preparing…' : 'Download Products CSV'}
        </Button>
        <div className="row g-2 align-items-end">
          <Form.Group className="col-12 col-sm-4" controlId={`${id}-status`}>
            <Form.Label>Order status</Form.Label>
            <Form.Select value={status} onChange={(event) => setStatus(event.target.value)}>
              <option value="">Any</option>
              {orderStatuses.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group className="col-6 col-sm-4" controlId={`${id}-from`}>
            <Form.Label>Placed from</Form.Label>
            <Form.Control type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
          </Form.Group>
          <Form.Group className="col-6 col-sm-4" controlId={`${id}-to`}>
            <Form.Label>Placed to</Form.Label>
            <Form.Control type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
          </Form.Group>
          <div className="col-12">
            <Button variant="outline-dark" disabled={busy !== null} onClick={() => void download('orders')}>
              {busy === 'orders' ? 'Preparing…' : 'Download Orders CSV'}
            </Button>
          </div>
        </div>
        {problem ? (
          <Alert variant="danger" className="mt-3 mb-0 py-2">
            {problem}
          </Alert>
        ) : null}
      </Card.Body>
    </Card>
  );
}
