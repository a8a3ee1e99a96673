import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, call, crashHarness, SESSION_SECRET, scratchDatabase, sleep } from './support.ts';

/*
 * Mail is written to the outbox in the transaction that causes it and sent afterwards (ADR 007). Here the server
 * dies with SIGKILL after the sign-ups committed (and were acknowledged) but before any delivery ran: the first
 * instance runs with the job runner off, so nothing can be sent before the kill. The restarted instance, jobs on,
 * must send every one of those mails, each exactly once, and a second crash and restart must not send any again.
 */

const SIGN_UPS = 5;

const harness = crashHarness('redline-mail-crash-');
let smtp: TestSmtpServer | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  harness.cleanups.push(() => smtp?.close() ?? Promise.resolve());
});

/** The verification mails that reached the SMTP server for these addresses, by recipient. */
function receivedFor(addresses: string[]): Map<string, string[]> {
  const byRecipient = new Map<string, string[]>(addresses.map((a) => [a, []]));
  for (const mail of smtp?.received ?? []) {
    for (const to of mail.envelope.to) byRecipient.get(to.toLowerCase())?.push(mail.parsed.messageId ?? '');
  }
  return byRecipient;
}

async function waitForAll(addresses: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ([...receivedFor(addresses).values()].every((ids) => ids.length >= 1)) return;
    await sleep(100);
  }
}

/** A sign-up, which commits its mail (the link); nobody opens it, only the mail matters here. Answers the address. */
async function signUpMailed(url: string, prefix: string): Promise<string> {
  const email = `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const res = await call(url, 'POST', '/api/signup', {
    body: { name: 'Mail Buyer', email, password: 'correct-horse-battery' },
  });
  expect(res.status).toBe(202);
  return email;
}

/** A fresh data directory (and, on PostgreSQL, a scratch database) and the environment of a server on them. */
async function crashSetup(driver: 'pglite' | 'postgres', label: string): Promise<Record<string, string>> {
  const dataDir = harness.directory(`${label}-${driver}-`);
  let url = '';
  if (driver === 'postgres') {
    const database = await scratchDatabase(label);
    harness.cleanups.push(database.drop);
    url = database.url;
  }
  return {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SESSION_SECRET,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO_DATA: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    TEST_ONLY_FAST_PASSWORD_HASH: 'true',
    MAIL_FROM: 'Redline Parts <no-reply@redline.test>',
    MAIL_POLL_SECONDS: '1',
    STATIC_DIR: path.join(dataDir, 'no-web-build'),
  };
}

async function commitThenCrash(driver: 'pglite' | 'postgres'): Promise<void> {
  if (!smtp) throw new Error('no SMTP server');
  const env = { ...(await crashSetup(driver, 'mailcrash')), SMTP_URL: smtp.url };

  // 1. Commit: sign-ups are acknowledged while nothing may deliver (the runner is off), then the process is killed.
  const first = await harness.launch({ ...env, JOBS_ENABLED: 'false' });
  const addresses: string[] = [];
  for (let i = 0; i < SIGN_UPS; i++) addresses.push(await signUpMailed(first.url, `mailcrash-${driver}-${i}`));
  await sleep(300);
  expect([...receivedFor(addresses).values()].flat(), 'nothing may be sent before the crash').toEqual([]);
  await first.stop('SIGKILL');

  // 2. Restart with jobs on: every committed mail goes out, once.
  const second = await harness.launch({ ...env, JOBS_ENABLED: 'true' });
  await waitForAll(addresses, 30_000);
  // Several poll periods more: a second send of the same row would show up here.
  await sleep(3_500);
  await second.stop('SIGKILL');

  // 3. Another crash and restart: the outbox knows they were sent, nothing goes out again.
  const third = await harness.launch({ ...env, JOBS_ENABLED: 'true' });
  await sleep(3_500);
  await third.stop('SIGTERM');

  const received = receivedFor(addresses);
  for (const address of addresses) {
    const ids = received.get(address) ?? [];
    expect(ids, `mails to ${address}`).toHaveLength(1);
    expect(ids[0], 'a stable Message-ID lets a receiver drop a repeat').toMatch(/^<.+@redline\.test>$/);
  }
}

describe('mail survives a crash between commit and delivery, and goes out exactly once', () => {
  it('PGlite', async () => {
    await commitThenCrash('pglite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL', async () => {
    await commitThenCrash('postgres');
  });
});

/**
 * An SMTP server that accepts connections and never greets: a send to it hangs (until the transport's greeting
 * timeout), so the mail stays claimed, mid-send, when the process is killed.
 */
async function startSilentSmtp(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/*
 * A mail claimed for sending holds a five-minute lease, so that an instance that died mid-send is taken over only
 * once it surely is not sending any more. The same instance starting again (same DATA_DIR, host and port, so the
 * same name) knows it is not: its mails are sent right after the restart, not five minutes later.
 */
async function crashMidSend(driver: 'pglite' | 'postgres'): Promise<void> {
  if (!smtp) throw new Error('no SMTP server');
  const silent = await startSilentSmtp();
  harness.cleanups.push(silent.close);
  const env = { ...(await crashSetup(driver, 'mailmidsend')), JOBS_ENABLED: 'true' };

  // 1. Sign-ups whose mails are claimed and being sent (to a server that never answers) when the process dies.
  const first = await harness.launch({ ...env, SMTP_URL: silent.url });
  const addresses: string[] = [];
  for (let i = 0; i < SIGN_UPS; i++) addresses.push(await signUpMailed(first.url, `midsend-${driver}-${i}`));
  const deadline = Date.now() + 10_000;
  while (silent.connections() === 0 && Date.now() < deadline) await sleep(100);
  expect(silent.connections(), 'a send was under way when the process was killed').toBeGreaterThan(0);
  // A period more: the periodic run claims what the first kick's run had not (well within the greeting timeout).
  await sleep(1_500);
  await first.stop('SIGKILL');

  // 2. The same instance restarts (its mail server reachable again): the mails go out at once, not after the lease.
  // On its port again: the instance's name is its DATA_DIR's id, its host and its port (instance-identity.ts).
  const second = await harness.launch({ ...env, SMTP_URL: smtp.url }, { port: first.port });
  const servingAt = Date.now();
  await waitForAll(addresses, 30_000);
  const elapsed = Date.now() - servingAt;
  await second.stop('SIGTERM');
  const received = receivedFor(addresses);
  for (const address of addresses) expect(received.get(address), `mails to ${address}`).toHaveLength(1);
  expect(elapsed, 'sent right after the restart, not when the five-minute lease ended').toBeLessThan(30_000);
}

describe('mail being sent when the server died goes out right after its restart', () => {
  it('PGlite', async () => {
    await crashMidSend('pglite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL', async () => {
    await crashMidSend('postgres');
  });
});
