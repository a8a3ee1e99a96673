import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { AppConfig } from '../../config.ts';
import { ServiceUnavailableError } from '../../errors.ts';

const scryptOnThreadPool = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * How many hashes run on libuv's thread pool at once: one thread fewer than the pool, so files and DNS always find one.
 * The rest wait here, in JavaScript, and not in libuv's queue: a process exit (a graceful stop at its time cap) waits
 * for every piece of work queued in libuv, so a burst of sign-ups queued there held a stop for seconds past its cap.
 * Waiting here, they simply vanish with the process.
 */
export const HASHES_AT_ONCE = Math.max(1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1);
/** How many may wait for a thread when PASSWORD_HASH_QUEUE_MAX is unset: a few rounds of hashing, a few seconds. */
export const DEFAULT_HASH_QUEUE_MAX = 4 * HASHES_AT_ONCE;
let hashesRunning = 0;
const waitingForThread: Array<() => void> = [];

/**
 * Refused at once, without hashing, when the queue is full: each hash costs a thread for a good while, so a longer
 * queue only makes every sign-in in it wait longer, and its clients give up before their turn anyway.
 */
export class HashQueueFullError extends ServiceUnavailableError {
  constructor() {
    super('The shop is very busy checking passwords right now. Please try again in a few seconds.', 2);
  }
}

async function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
  queueMax: number,
): Promise<Buffer> {
  if (hashesRunning >= HASHES_AT_ONCE) {
    if (waitingForThread.length >= queueMax) throw new HashQueueFullError();
    await new Promise<void>((resolve) => waitingForThread.push(resolve));
  } else hashesRunning += 1;
  try {
    return await scryptOnThreadPool(password, salt, keylen, options);
  } finally {
    // The thread passes straight to the next in line (the count stays), or is given back.
    const next = waitingForThread.shift();
    if (next) next();
    else hashesRunning -= 1;
  }
}

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt is memory-hard, runs on libuv's thread pool so it never blocks the event loop, and comes with Node: no
 * native add-on to build. OWASP's minimum (ADR 009): N=2^17, r=8, p=1, i.e. 128 MiB and a deliberately slow
 * computation per hash. The stored string names its parameters, so older hashes (N=2^15, the earlier default) still verify and are
 * re-hashed with these on the owner's next successful sign-in.
 */
export const PRODUCTION_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
/** Only with TEST_ONLY_FAST_PASSWORD_HASH=true, which config.ts accepts only under NODE_ENV=test. */
const TEST_ONLY_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** Hashes from the database are trusted, but a corrupt one must not make one sign-in allocate gigabytes. */
const MAX_N = 2 ** 20;

/** The parameters new hashes get: production's, unless a test harness asked for the test-only low cost. */
export function passwordHashParams(
  config: Partial<Pick<AppConfig, 'NODE_ENV' | 'TEST_ONLY_FAST_PASSWORD_HASH'>>,
): ScryptParams {
  return config.NODE_ENV === 'test' && config.TEST_ONLY_FAST_PASSWORD_HASH === 'true'
    ? TEST_ONLY_SCRYPT_PARAMS
    : PRODUCTION_SCRYPT_PARAMS;
}

/** scrypt needs 128·N·r bytes; Node refuses above `maxmem` (32 MiB by default), so allow twice what is needed. */
function maxmem(params: ScryptParams): number {
  return Math.max(32 * 1024 * 1024, 2 * 128 * params.N * params.r * params.p);
}

/** `queueMax`: how many hashes may wait for a thread before this one is refused (HashQueueFullError). */
export async function hashPassword(
  password: string,
  params: ScryptParams = PRODUCTION_SCRYPT_PARAMS,
  queueMax = Number.POSITIVE_INFINITY,
): Promise<string> {
  const salt = crypto.randomBytes(16);
  const options = { ...params, maxmem: maxmem(params) };
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, queueMax);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const [algorithm, n, r, p, saltText, keyText] = stored.split('$');
  if (algorithm !== 'scrypt' || !n || !r || !p || !saltText || !keyText) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every(Number.isSafeInteger) || params.N > MAX_N || params.N < 2) return null;
  return { params, salt: Buffer.from(saltText, 'base64url'), key: Buffer.from(keyText, 'base64url') };
}

export async function verifyPassword(
  password: string,
  stored: string,
  queueMax = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const options = { ...parsed.params, maxmem: maxmem(parsed.params) };
  const key = await scrypt(password.normalize('NFKC'), parsed.salt, parsed.key.length, options, queueMax);
  return key.length === parsed.key.length && crypto.timingSafeEqual(key, parsed.key);
}

/** True when a stored hash is weaker than `params` (or unreadable): it is re-hashed at the next sign-in. */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

/**
 * The hashing of one app: its parameters, its bound on hashes waiting for a thread (PASSWORD_HASH_QUEUE_MAX; beyond
 * it hash and verify throw HashQueueFullError, a 503 with Retry-After), and a dummy hash of the same cost for unknown
 * emails (no timing oracle).
 */
export class PasswordHasher {
  readonly params: ScryptParams;
  readonly queueMax: number;
  #dummy: Promise<string> | undefined;

  /** `queueMax`: undefined is DEFAULT_HASH_QUEUE_MAX, 0 no bound. */
  constructor(params: ScryptParams, queueMax?: number) {
    this.params = params;
    this.queueMax = queueMax === undefined ? DEFAULT_HASH_QUEUE_MAX : queueMax || Number.POSITIVE_INFINITY;
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.params, this.queueMax);
  }

  verify(password: string, stored: string): Promise<boolean> {
    return verifyPassword(password, stored, this.queueMax);
  }

  needsRehash(stored: string): boolean {
    return needsRehash(stored, this.params);
  }

  /** A hash to compare against when the account does not exist, so timing does not reveal which emails exist. */
  dummyHash(): Promise<string> {
    // Made on first use; a refusal (a full queue) is not kept, the next sign-in tries again.
    this.#dummy ??= this.hash(crypto.randomBytes(16).toString('hex')).catch((error: unknown) => {
      this.#dummy = undefined;
      throw error;
    });
    return this.#dummy;
  }
}
