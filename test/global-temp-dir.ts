import { createRunTempDir } from './support/run-temp-dir.ts';

/**
 * Vitest global setup, listed first: the run's own temporary directory (TMPDIR for the workers, the servers and
 * scripts they start), removed at the end whatever the tests left in it. See test/support/run-temp-dir.ts.
 */
let run: ReturnType<typeof createRunTempDir> | undefined;

export function setup(): void {
  run = createRunTempDir('test');
}

export function teardown(): void {
  run?.remove();
}
