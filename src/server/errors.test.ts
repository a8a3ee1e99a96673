import { describe, expect, it } from 'vitest';
import { InsufficientStorageError, ServiceUnavailableError, unavailability } from './errors.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As Drizzle wraps every failed statement. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

describe('which failures mean "try again later" (503 with Retry-After) rather than a bug (500)', () => {
  it('PostgreSQL connection, shutdown, timeout and resource errors, found through Drizzle’s wrapper', () => {
    for (const code of [
      '08006',
      '08001',
      '57P01',
      '57P02',
      '57P03',
      '57014',
      '25P03',
      '55P03',
      '53300',
      '40001',
      '40P01',
    ]) {
      const found = unavailability(wrapped(pgError(code)));
      expect(found, code).toBeInstanceOf(ServiceUnavailableError);
      expect(found?.statusCode, code).toBe(503);
    }
    expect(unavailability(wrapped(pgError('40001')))?.retryAfterSeconds).toBe(1);
    expect(unavailability(wrapped(pgError('57P01')))?.retryAfterSeconds).toBe(5);
  });

  it('a full disk is 507 insufficient_storage', () => {
    const found = unavailability(wrapped(pgError('53100', 'could not extend file')));
    expect(found).toBeInstanceOf(InsufficientStorageError);
    expect(found).toMatchObject({ statusCode: 507, code: 'insufficient_storage', retryAfterSeconds: 60 });
  });

  it('network errors, pool and client timeouts, a closed pool or PGlite', () => {
    const cases = [
      pgError('ECONNREFUSED'),
      pgError('ECONNRESET'),
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], 'connect failed'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Cannot use a pool after calling end on the pool'),
      new Error('PGlite is closed'),
    ];
    for (const error of cases)
      expect(unavailability(wrapped(error)), error.message).toBeInstanceOf(ServiceUnavailableError);
  });

  it('bugs and bad data stay what they are', () => {
    for (const error of [
      pgError('23505'),
      pgError('P0001'),
      pgError('22P02'),
      new TypeError('x is undefined'),
      'text',
      null,
    ]) {
      expect(unavailability(wrapped(error))).toBeUndefined();
    }
  });
});
