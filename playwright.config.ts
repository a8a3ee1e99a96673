import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium.ts';
import { E2E_ADMIN, E2E_BASE_URL, E2E_PORT } from './e2e/support/constants.ts';
import { createRunTempDir } from './test/support/run-temp-dir.ts';

/*
 * This file is evaluated in the runner and again in every worker. Only the runner (the first evaluation: nothing
 * in the environment yet) makes the run's temporary directory: TMPDIR for the server, the workers and the browsers
 * started after it, removed when the runner exits. Playwright's transform cache stays where the runner keeps it.
 */
if (!process.env.REDLINE_E2E_RUN_DIR) {
  process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ??= path.join(
    os.tmpdir(),
    `playwright-transform-cache-${process.geteuid?.()}`,
  );
  process.env.REDLINE_E2E_RUN_DIR = createRunTempDir('e2e').dir;
  // Playwright stops cleanly on Ctrl+C (stops the server, then exits) but dies on SIGTERM or SIGHUP and leaves
  // the server running: treat those as a Ctrl+C. A second one kills as usual.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.kill(process.pid, 'SIGINT'));
}

/**
 * Browser tests drive the production build, served by the real server on a throw-away PGlite data directory,
 * in Debian's Chromium (no browser download). `npm test` builds first. The port is free one the OS gave
 * (see e2e/support/constants.ts).
 */
export default defineConfig({
  testDir: './e2e',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    // A failed test keeps its trace (DOM snapshots, network, console) and a screenshot of the end. No screencast
    // in the trace: recording one for every test was a third of the browser tests' CPU time.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node e2e/support/start-server.ts',
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM, not Playwright's default SIGKILL: the server stops cleanly and its data directory is removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    env: {
      PORT: String(E2E_PORT),
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
    },
  },
});
