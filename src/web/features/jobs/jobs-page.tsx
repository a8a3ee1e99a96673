import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import type { JobsOverview } from '../../../shared/schemas/jobs.ts';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { jobsOverviewQuery } from './jobs-api.ts';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function When({ at }: { at: string | number }) {
  const date = new Date(at);
  return <time dateTime={date.toISOString()}>{timeFormat.format(date)}</time>;
}

/**
 * Jobs (admin): is the background work keeping up? Waiting and failed jobs per queue, the mail outbox,
 * and the last failure with its job id, which the server's log names too.
 */
export function Component() {
  usePageTitle('Jobs');
  const jobs = useQuery(jobsOverviewQuery);
  return (
    <section aria-labelledby="jobs-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 id="jobs-title" className="h2 mb-0">
          Jobs
        </h1>
        <div className="d-flex align-items-center gap-2">
          {jobs.dataUpdatedAt ? (
            <span className="small text-body-secondary">
              Updated <When at={jobs.dataUpdatedAt} />
            </span>
          ) : null}
          <Button variant="outline-dark" size="sm" disabled={jobs.isFetching} onClick={() => void jobs.refetch()}>
            {jobs.isFetching ? <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" /> : null}
            Refresh
          </Button>
        </div>
      </div>
      {jobs.isError && !jobs.data ? (
        <LoadError error={jobs.error} onRetry={() => void jobs.refetch()} what="the jobs" />
      ) : jobs.isPending ? (
        <LoadingSpinner label="Loading the jobs…" />
      ) : (
        <Overview jobs={jobs.data} />
      )}
    </section>
  );
}

function Overview({ jobs }: { jobs: JobsOverview }) {
  const { lastError, ...counts } = jobs.mail;
  return (
    <Row className="g-4">
      {jobs.runnerEnabled ? null : (
        <Col xs={12}>
          <p className="mb-0 text-body-secondary">
            This server instance runs no jobs (JOBS_ENABLED=false); the counts are those of the shared database.
          </p>
        </Col>
      )}
      <Col xs={12}>
        <LastFailure failure={jobs.lastFailure} />
      </Col>
      <Col xl={7}>
        <Card className="shadow-sm h-100">
          <Card.Body>
            <h2 className="h5 mb-3">Queues</h2>
            {jobs.queues.length === 0 ? (
              <EmptyState>No queues yet: they appear once the server has started its jobs.</EmptyState>
            ) : (
              <div className="table-responsive">
                <Table className="align-middle mb-0">
                  <caption className="visually-hidden">Jobs per queue</caption>
                  <thead>
                    <tr>
                      <th scope="col">Queue</th>
                      <th scope="col" className="text-end">
                        Pending
                      </th>
                      <th scope="col" className="text-end">
                        Running
                      </th>
                      <th scope="col" className="text-end">
                        Failed
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {jobs.queues.map((queue) => (
                      <tr key={queue.name}>
                        <th scope="row" className="fw-normal text-break">
                          <code>{queue.name}</code>
                        </th>
                        <td className="text-end">{queue.pending}</td>
                        <td className="text-end">{queue.active}</td>
                        <td className={`text-end ${queue.failed > 0 ? 'text-danger fw-semibold' : ''}`}>
                          {queue.failed}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </div>
            )}
          </Card.Body>
        </Card>
      </Col>
      <Col xl={5}>
        <Card className="shadow-sm h-100">
          <Card.Body>
            <h2 className="h5 mb-3">Mail Outbox</h2>
            <dl className="row mb-0">
              <dt className="col-7">Waiting</dt>
              <dd className="col-5 text-end">{counts.pending}</dd>
              <dt className="col-7">Being sent</dt>
              <dd className="col-5 text-end">{counts.sending}</dd>
              <dt className="col-7">Sent</dt>
              <dd className="col-5 text-end">{counts.sent}</dd>
              <dt className="col-7">Given up</dt>
              <dd className={`col-5 text-end ${counts.failed > 0 ? 'text-danger fw-semibold' : ''}`}>
                {counts.failed}
              </dd>
            </dl>
            {lastError ? (
              <p className="small mt-3 mb-0">
                <span className="fw-semibold">Last delivery error</span> (<code>{lastError.kind}</code>, mail{' '}
                <code className="text-break">{lastError.id}</code>, <When at={lastError.at} />
                ): <span className="text-break">{lastError.message}</span>
              </p>
            ) : null}
          </Card.Body>
        </Card>
      </Col>
    </Row>
  );
}

function LastFailure({ failure }: { failure: JobsOverview['lastFailure'] }) {
  if (!failure) {
    return (
      <Card className="shadow-sm">
        <Card.Body>
          <h2 className="h5 mb-1">Last Failure</h2>
          <p className="mb-0 text-body-secondary">No job has failed.</p>
        </Card.Body>
      </Card>
    );
  }
  return (
    <Card className="shadow-sm border-danger-subtle">
      <Card.Body>
        <h2 className="h5 mb-2">Last Failure</h2>
        <p className="mb-2 text-break text-danger-emphasis">{failure.message}</p>
        <dl className="row small mb-0">
          <dt className="col-sm-3">Queue</dt>
          <dd className="col-sm-9 text-break">
            <code>{failure.queue}</code>
          </dd>
          <dt className="col-sm-3">Job id</dt>
          <dd className="col-sm-9 text-break">
            <code>{failure.jobId}</code>
          </dd>
          <dt className="col-sm-3">Time</dt>
          <dd className="col-sm-9 mb-0">
            <When at={failure.at} />
          </dd>
        </dl>
      </Card.Body>
    </Card>
  );
}
