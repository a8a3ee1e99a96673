import { defineConfig } from 'vitest/config';
import { PostgresSkipBanner } from './test/resilience/postgres-skip-banner.ts';

/**
 * The slow resilience suite (`npm run test:resilience`): real server processes killed mid-load and several
 * instances on one PostgreSQL. Files are named `*.resilience.ts`, so the plain `vitest run` never picks them up.
 */
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.resilience.ts'],
    environment: 'node',
    // The run's own TMPDIR, removed at the end whatever a killed server left in it.
    globalSetup: ['test/global-temp-dir.ts', 'test/global-server-bundle.ts'],
    setupFiles: ['test/setup.ts'],
    // Without TEST_DATABASE_URL most of this suite is skipped: say so at the start and the end, not just "skipped".
    reporters: ['default', new PostgresSkipBanner()],
    pool: 'forks',
    // Each file starts its own server processes (on ports the OS picks); one file at a time keeps two cores honest.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
