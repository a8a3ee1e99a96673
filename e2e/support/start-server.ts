import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBundle, SERVER_BUNDLE } from '../../scripts/build-server.ts';
import {
  BUYERS_SHARE_ONE_ADDRESS,
  EXIT_WITH_PARENT,
  UNDER_TEST_ON_A_SHARED_MACHINE,
} from '../../test/support/server-process.ts';
import { startMailCatcher } from './mail-catcher.ts';

/*
 * The browser tests' server: the production server on a fresh PGlite data directory, which goes when the server
 * does, however the run ends. Playwright starts this (webServer) and stops it with SIGTERM to the process group;
 * Ctrl+C, SIGTERM or SIGHUP to this process stop it too. If the runner dies without stopping it (SIGKILL), the
 * closed stdin pipe or the changed parent says so, and it stops. Standalone: `PORT=3100 node e2e/support/start-server.ts`.
 *
 * Its mail goes over real SMTP to a server in this process, which files each message for the specs to read
 * (e2e/support/mailbox.ts); links in mail point at this server (PUBLIC_URL) and go out within a second.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-e2e-data-'));
const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
process.on('exit', removeDataDir);

const mail = await startMailCatcher();

await ensureServerBundle();
const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, SERVER_BUNDLE], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...UNDER_TEST_ON_A_SHARED_MACHINE,
    ...BUYERS_SHARE_ONE_ADDRESS,
    // Every visitor of every browser test comes from 127.0.0.1: the per-address limit on sign-ins and mailed links
    // (accounts' abuse-limits tests test it) would otherwise refuse the suite's own sign-ups part way through.
    RATE_LIMIT_LOGIN_PER_IP: '1000',
    // Production mode runs the test gateway only when it is named; a shell that sets Stripe's keys may override.
    PAYMENT_PROVIDER: 'test',
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${process.env.PORT ?? '3000'}`,
    SMTP_URL: mail.url,
    MAIL_POLL_SECONDS: '1',
  },
});

let stopping = false;
const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  // A server that does not finish its graceful stop in time is killed: the data directory must still go.
  setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop());

// Playwright gives this process a stdin pipe (a socket pair): its end means the runner is gone. Not a terminal's
// stdin, nor /dev/null, which ends at once.
const stdin = fs.fstatSync(0);
if (stdin.isFIFO() || stdin.isSocket()) {
  process.stdin.on('end', () => stop());
  process.stdin.on('error', () => stop());
  process.stdin.resume();
}
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 1000).unref();

child.on('error', (error) => {
  console.error(`Could not start the browser-test server: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  // The mail catcher goes with this process; its last messages are of no use once the server has stopped.
  process.exit(code ?? (signal ? 1 : 0));
});
