import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import { adminConnectionUrl, withAdminClient } from '../support/postgres-admin.ts';
import {
  freePort,
  runningServerAt,
  type ServerProcess,
  startServer,
  waitForHealthy,
} from '../support/server-process.ts';

export const ADMIN_EMAIL = 'resilience-admin@example.com';
export const ADMIN_PASSWORD = 'resilience-admin-password-1';
export const SESSION_SECRET = 'resilience-suite-session-secret-0123456789abcdef';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON call to a running server; a network failure rejects (the caller decides what an unknown outcome means). */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text for the failure message.
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

export interface Customer {
  email: string;
  token: string;
}

/**
 * A customer, signed up as a person would: the form, then the link it mailed, which creates the account and answers
 * its first session. The link is read where the server keeps it: its PostgreSQL outbox until sent, then (or on
 * PGlite, with the job runner on) the .eml file under its DATA_DIR.
 */
export async function signUp(baseUrl: string, label: string): Promise<Customer> {
  const email = `${label}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const res = await call(baseUrl, 'POST', '/api/signup', {
    body: { name: `Buyer ${label}`, email, password: 'correct-horse-battery' },
  });
  if (res.status !== 202) throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
  const link = await signUpLink(baseUrl, email);
  const verified = await call<{ token?: string }>(baseUrl, 'POST', '/api/email/verify', { body: { token: link } });
  if (verified.status !== 200 || !verified.body.token) {
    throw new Error(`sign-up link answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  }
  return { email, token: verified.body.token };
}

const LINK = /verify-email#token=([A-Za-z0-9_-]+)/;

async function signUpLink(baseUrl: string, email: string): Promise<string> {
  const env = runningServerAt(baseUrl)?.env;
  if (!env) throw new Error(`no server started by this test answers at ${baseUrl}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    // A mail still waiting in the outbox has its text there; once sent (to a file), the outbox forgets it.
    const waiting = env.DATABASE_URL
      ? await withAdminClient(env.DATABASE_URL, async (client) => {
          const { rows } = await client.query<{ text: string | null }>(
            `select text from mail_outbox where kind = 'verify-email' and recipient = $1 order by created_at desc limit 1`,
            [email],
          );
          return rows[0]?.text ?? undefined;
        })
      : undefined;
    const text = waiting ?? (await mailFileTo(path.join(env.DATA_DIR ?? './data', 'mail'), email));
    const token = LINK.exec(text ?? '')?.[1];
    if (token) return token;
    if (Date.now() > deadline) {
      throw new Error(
        `no sign-up link for ${email} (a server on PGlite needs JOBS_ENABLED=true to write it to a file)`,
      );
    }
    await sleep(200);
  }
}

/** The text of the .eml file written to `email`, if there is one yet. */
async function mailFileTo(directory: string, email: string): Promise<string | undefined> {
  if (!fs.existsSync(directory)) return undefined;
  for (const name of fs.readdirSync(directory).filter((file) => file.endsWith('.eml'))) {
    const parsed = await simpleParser(fs.readFileSync(path.join(directory, name)));
    const to = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
    if (to.some((address) => address.value.some((one) => one.address === email))) return parsed.text;
  }
  return undefined;
}

export async function logInAdmin(baseUrl: string): Promise<string> {
  const res = await call<{ token: string }>(baseUrl, 'POST', '/api/login', {
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export interface WirePart {
  _id: string;
  name: string;
  price: number;
  availablequantity: number;
}

export async function createPart(
  baseUrl: string,
  adminToken: string,
  part: { name: string; price: number; stock: number },
): Promise<WirePart> {
  const res = await call<WirePart>(baseUrl, 'POST', '/api/part', {
    token: adminToken,
    body: {
      name: part.name,
      desription: 'Made by the resilience suite',
      price: part.price,
      availablequantity: part.stock,
      minimunorder: 1,
      img: '/images/parts/brake-disc.svg',
    },
  });
  if (res.status !== 201) throw new Error(`creating a part answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function stockOf(baseUrl: string, partId: string): Promise<number> {
  const res = await call<WirePart>(baseUrl, 'GET', `/api/part/${partId}`);
  if (res.status !== 200) throw new Error(`reading part ${partId} answered ${res.status}`);
  return res.body.availablequantity;
}

export interface WireOrder {
  _id: string;
  partId: string | null;
  name: string;
  price: number;
  quantity: number;
  total: number;
  email: string;
  address: string;
  phone: string;
  paid: boolean;
  status: string;
}

/** Every order in the shop, page by page, as the admin sees them. */
export async function allOrders(baseUrl: string, adminToken: string): Promise<WireOrder[]> {
  const out: WireOrder[] = [];
  for (let offset = 0; ; offset += 500) {
    const res = await call<WireOrder[]>(baseUrl, 'GET', `/api/allorder?limit=500&offset=${offset}`, {
      token: adminToken,
    });
    if (res.status !== 200) throw new Error(`listing orders answered ${res.status}: ${JSON.stringify(res.body)}`);
    out.push(...res.body);
    if (res.body.length < 500) return out;
  }
}

/** A PostgreSQL database of this suite's own on TEST_DATABASE_URL's server, dropped by `drop()`. */
export async function scratchDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `redline_res_${label}_${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  await withAdminClient(base, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  return {
    url: adminConnectionUrl(base, name),
    drop: async () => {
      await withAdminClient(base, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cents, so dollar arithmetic on the wire is compared exactly. */
export const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * What every fault test's server shares: its own data directory (and no web build), the suite's secret and admin,
 * the demo catalogue, no job runner, test mode with fast password hashing. A test adds what its fault needs.
 */
export function faultServerEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-web-build'),
    SESSION_SECRET,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO_DATA: 'true',
    JOBS_ENABLED: 'false',
    NODE_ENV: 'test',
    TEST_ONLY_FAST_PASSWORD_HASH: 'true',
    ...extra,
  };
}

/**
 * What a file of crash tests makes and must leave nothing of, whether its tests pass or fail: a scratch directory
 * (made before the first test, not at import, so a file whose tests are all skipped makes nothing), the servers it
 * launched (killed at the end) and its other cleanups (scratch databases, stand-in servers), run in order.
 */
export function crashHarness(prefix: string) {
  let scratch = '';
  const running = new Set<ServerProcess>();
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    for (const server of running) await server.stop('SIGKILL');
    for (const cleanup of cleanups) await cleanup();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });
  return {
    /** A new directory under the scratch directory. */
    directory(name: string): string {
      return fs.mkdtempSync(path.join(scratch, name));
    },
    cleanups,
    /**
     * Starts a server and waits until it is healthy. Each start asks the OS for a free port unless given one (a
     * restart that must come back as the same instance): the one a killed server held may meanwhile be someone
     * else's.
     */
    async launch(env: Record<string, string>, options: { port?: number; healthyWithinMs?: number } = {}) {
      const server = startServer(env, options.port ?? (await freePort()));
      running.add(server);
      void server.exited.then(() => running.delete(server));
      await waitForHealthy(server, options.healthyWithinMs ?? 90_000);
      return server;
    },
  };
}
