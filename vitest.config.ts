import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    environment: 'node',
    // The run's own TMPDIR first (removed at the end), then the migrated databases every file copies.
    globalSetup: ['test/global-temp-dir.ts', 'test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // Each file gets its own database; two cores run two files at a time without starving PGlite.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
