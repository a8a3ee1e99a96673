import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    environment: 'node',
    // The run's own TMPDIR first (removed at the end), then the migrated databases every file copies.
    globalSetup: ['test/global-temp-dir.ts', 'test/global-server-bundle.ts', 'test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // Each file gets its own database; two cores run two files at a time without starving PGlite.
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs file after file instead of a fresh process per file: starting Node, importing the app and
    // compiling PGlite's WebAssembly again for each of ~30 files was a third of the run's CPU time. Files share
    // nothing but loaded modules: each still gets its own app, database, servers and temporary files.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
