import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  type HealthReport,
  healthResponseSchema,
  healthSummarySchema,
  livenessResponseSchema,
} from '../../../shared/schemas/common.ts';
import type { DatabaseHandle, DatabaseProbe } from '../../db/client.ts';
import type { DiskFloor } from '../../db/disk-floor.ts';
import { errorBody } from '../../errors.ts';
import { cameInOnHealthPort } from '../../plugins/health-listener.ts';
import type { RateLimitStoreState } from '../../plugins/rate-limit-store.ts';

/** The job runner as readiness sees it; app.ts fills it in when the services run one. */
export type JobsProbe = () => Promise<{ ok: boolean; state: string }>;

export interface HealthOptions {
  database: DatabaseHandle;
  /** The disk under DATA_DIR: PGlite's own floor, or (PostgreSQL) the one mail files and the session key use. */
  disk: DiskFloor;
  rateLimits: { state(): RateLimitStoreState; check?(timeoutMs: number): Promise<RateLimitStoreState> };
  jobs?: JobsProbe;
  /** The catalogue read cache, when it is on. */
  catalogCache?: { readonly listening: boolean };
  /** HEALTH_CHECK_TIMEOUT_MS: the longest any one check may take. */
  timeoutMs: number;
}

interface Readiness {
  ready: boolean;
  /** Why not, as the error code of the 503. */
  code?: string;
  message?: string;
  report: HealthReport;
  /** Details for the log only (driver messages may name hosts). */
  problems: string[];
}

/**
 * Liveness and readiness (docs/operations.md §5). Neither is rate limited nor shed under load
 * (`config.loadShedding: false`), and readiness answers within about HEALTH_CHECK_TIMEOUT_MS even when a dependency
 * hangs: every check runs at once and each is cut off at that bound.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, options) => {
  const checks = new ReadinessChecks(options, app.log);

  app.get(
    '/api/health/live',
    {
      config: { loadShedding: false },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (asks no dependency)',
        response: { 200: livenessResponseSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/health',
    {
      config: { loadShedding: false },
      schema: {
        tags: ['health'],
        summary: 'Readiness: database reachable and writable, disk, rate-limit store, job runner',
        description:
          '200 `ok`, or `degraded` when the instance serves but a shared dependency is missing (Redis down: limits ' +
          'count per instance). 503 with `Retry-After` when it cannot take orders: `database_unreachable`, ' +
          '`database_not_writable` or `insufficient_storage`. The public answer is `{ status }` only (up or down); ' +
          'the full report (database driver, disk space, rate limits, jobs, cache) is given on HEALTH_PORT and to a ' +
          'signed-in admin, as the 200 body or the 503 error’s one detail.',
        response: { 200: healthResponseSchema.or(healthSummarySchema), 503: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await checks.run();
      // The report names the database driver and the free disk space: of use to an operator, and to an attacker
      // sizing up the machine, so the public only learns up or down.
      const detailed = cameInOnHealthPort(request.raw) || request.user?.isAdmin === true;
      if (result.ready) return detailed ? result.report : { status: result.report.status };
      reply.header('retry-after', '5');
      const code = result.code ?? 'not_ready';
      const message = result.message ?? 'Not ready.';
      return reply.status(503).send(errorBody(code, message, detailed ? [result.report] : undefined));
    },
  );
};

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.catch(() => onTimeout),
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(onTimeout), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const TIMED_OUT: DatabaseProbe = { reachable: false, writable: false, problem: 'no answer within the health timeout' };

class ReadinessChecks {
  readonly #options: HealthOptions;
  readonly #log: FastifyBaseLogger;
  #inFlight: Promise<Readiness> | undefined;
  #lastLogged = 'ready||true|true|';

  constructor(options: HealthOptions, log: FastifyBaseLogger) {
    this.#options = options;
    this.#log = log;
  }

  /** Cheap under a flood of probes: requests that arrive while a check runs share its answer. */
  run(): Promise<Readiness> {
    this.#inFlight ??= this.#check().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #check(): Promise<Readiness> {
    const { database, disk, rateLimits, jobs, catalogCache, timeoutMs } = this.#options;
    const started = performance.now();
    const [db, limits, jobState] = await Promise.all([
      withTimeout(database.probe(), timeoutMs, TIMED_OUT),
      rateLimits.check ? withTimeout(rateLimits.check(timeoutMs), timeoutMs, rateLimits.state()) : rateLimits.state(),
      jobs ? withTimeout(jobs(), timeoutMs, { ok: false, state: 'no answer' }) : undefined,
    ]);
    const diskReport = disk.report();
    const holdsDatabase = database.disk !== undefined;
    const reason = !db.reachable
      ? db === TIMED_OUT
        ? 'timeout'
        : 'unreachable'
      : db.writable
        ? undefined
        : holdsDatabase && !diskReport.ok
          ? 'disk_below_floor'
          : 'not_writable';
    const report: HealthReport = {
      status: 'ok',
      database: {
        reachable: db.reachable,
        driver: database.driver,
        writable: db.writable,
        ...(reason ? { reason } : {}),
      },
      disk: { freeMb: diskReport.freeMb, floorMb: diskReport.floorMb, ok: diskReport.ok, holdsDatabase },
      rateLimits: { counting: limits.counting, redisConfigured: limits.configured, redisReachable: limits.reachable },
      ...(jobState ? { jobs: jobState } : {}),
      ...(catalogCache ? { catalogCache: { listening: catalogCache.listening } } : {}),
      elapsedMs: Math.round(performance.now() - started),
    };
    const problems: string[] = [];
    if (db.problem) problems.push(`database: ${db.problem}`);
    if (!diskReport.ok) problems.push(`disk under ${diskReport.path}: ${diskReport.freeMb} MB free`);
    if (limits.configured && !limits.reachable) problems.push('redis: unreachable, limits count in memory');
    if (jobState && !jobState.ok) problems.push(`jobs: ${jobState.state}`);
    if (catalogCache && !catalogCache.listening)
      problems.push('catalogue cache: not hearing of writes, reads uncached');
    if (problems.length > 0 || (jobState && !jobState.ok)) report.status = 'degraded';

    let result: Readiness;
    if (!db.reachable) {
      result = {
        ready: false,
        code: 'database_unreachable',
        message: 'The database cannot be reached.',
        report,
        problems,
      };
    } else if (!db.writable) {
      result =
        holdsDatabase && !diskReport.ok
          ? {
              ready: false,
              code: 'insufficient_storage',
              message: 'The disk holding the database is below its free-space floor: writes are refused.',
              report,
              problems,
            }
          : { ready: false, code: 'database_not_writable', message: 'The database refuses writes.', report, problems };
    } else if (holdsDatabase && !diskReport.ok) {
      result = {
        ready: false,
        code: 'insufficient_storage',
        message: 'The disk holding the database is below its free-space floor: writes are refused.',
        report,
        problems,
      };
    } else {
      result = { ready: true, report, problems };
    }
    this.#note(result);
    return result;
  }

  /** One log line when readiness changes, not one per probe. */
  #note(result: Readiness): void {
    const { database, disk, rateLimits, jobs, catalogCache } = result.report;
    const state = [
      result.code ?? 'ready',
      database.reason,
      disk.ok,
      rateLimits.redisReachable,
      jobs?.ok,
      catalogCache?.listening,
    ].join('|');
    if (state === this.#lastLogged) return;
    this.#lastLogged = state;
    if (result.problems.length === 0) this.#log.info('health: ready');
    else this.#log.warn({ problems: result.problems }, `health: ${result.ready ? 'degraded' : 'not ready'}`);
  }
}
