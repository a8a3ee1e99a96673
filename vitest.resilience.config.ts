import { defineConfig } from 'vitest/config';

/**
 * The slow resilience suite (`npm run test:resilience`): real server processes killed mid-load and several
 * instances on one PostgreSQL. Files are named `*.resilience.ts`, so the plain `vitest run` never picks them up.
 */
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.resilience.ts'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    // Each file starts its own server processes on its own ports; one file at a time keeps two cores honest.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
