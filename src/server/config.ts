import { z } from 'zod';
import { paymentProviders } from '../shared/enums.ts';
import { EMAIL_PATTERN } from '../shared/schemas/accounts.ts';
import { passwordProblem } from './modules/accounts/password-policy.ts';

/** The admin the demo data creates when ADMIN_EMAIL is unset (seed.ts uses the same). */
export const DEFAULT_ADMIN_EMAIL = 'admin@redline.dev';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: optionalString,
    DATA_DIR: z.string().default('./data'),
    SESSION_SECRET: optionalString.refine(
      (value) => value === undefined || value.length >= 32,
      'SESSION_SECRET must be at least 32 characters',
    ),
    SESSION_TTL_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 90)
      .default(24),
    PUBLIC_URL: optionalString.pipe(z.url().optional()),
    CORS_ORIGINS: optionalString,
    TRUST_PROXY: optionalString,
    REDIS_URL: optionalString,
    ADMIN_EMAIL: optionalString.refine(
      (value) => value === undefined || EMAIL_PATTERN.test(value),
      'ADMIN_EMAIL must be an address the login form accepts (e.g. admin@example.com)',
    ),
    ADMIN_PASSWORD: optionalString,
    SEED_DEMO_DATA: z.enum(['true', 'false']).default('true'),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
    /** Abuse limits on sign-in and sign-up (per IP and per account), counted over one window. */
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().positive().default(100),
    /**
     * Failed sign-ins per address AND account (M3): an attacker guessing from one address is stopped, while the owner
     * still signs in from any other. A success does not count.
     */
    RATE_LIMIT_LOGIN_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
    /**
     * The longest wait (ms) before answering a sign-in to an account that keeps failing, from any address: it grows
     * with the account's failures (none for the first 3) and never exceeds this. 0 turns it off.
     */
    RATE_LIMIT_LOGIN_DELAY_MAX_MS: z.coerce.number().int().min(0).max(10_000).default(2000),
    /** Forgot-password requests per address, and per email, in one window (the answer never says which). */
    RATE_LIMIT_PASSWORD_RESET_PER_IP: z.coerce.number().int().positive().default(20),
    RATE_LIMIT_PASSWORD_RESET_PER_EMAIL: z.coerce.number().int().positive().default(3),
    /** New verification mails one account may ask for in one window. */
    RATE_LIMIT_VERIFY_RESEND_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
    RATE_LIMIT_SIGNUP_PER_IP: z.coerce.number().int().positive().default(300),
    RATE_LIMIT_SIGNUP_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
    /** Prefix of the counters in the shared store (Redis), so several shops or test runs can share one. */
    RATE_LIMIT_NAMESPACE: z.string().default('redline:'),
    PAYMENT_PROVIDER: z.enum(paymentProviders).optional(),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Only for tests: points the Stripe SDK at a local stand-in of Stripe's API, e.g. http://127.0.0.1:12111. */
    STRIPE_API_BASE: optionalString.pipe(z.url().optional()),
    STATIC_DIR: z.string().default('./dist/web'),
    // Every wait has a bound (docs/operations.md, "Timeouts"). PostgreSQL: how long to wait for a connection (from
    // the pool or a new one), for one statement (the server cancels it; the client gives up 1 s later if the server
    // does not answer at all), and for a transaction left idle.
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Redis (rate-limit counters): connecting, and one command; past either, limits count in memory at once. */
    REDIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(500),
    /** HTTP: the whole request (headers and body) must arrive within this, its headers sooner. */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
    /** An idle keep-alive connection is closed after this (longer than a proxy's own, e.g. nginx's 60 s). */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(72_000),
    /** A connection on which nothing moves at all for this long is closed. */
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
    /** Requests one keep-alive connection may carry before it is closed (0: no limit). */
    HTTP_MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).max(1_000_000).default(1000),
    /** Open connections from one client address (0: no cap); beyond it a new connection is closed at once. */
    MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(1000),
    /** Open connections in all (0: three quarters of the process's open-file limit, so health checks still get in). */
    MAX_CONNECTIONS: z.coerce.number().int().min(0).max(10_000_000).default(0),
    /**
     * Blanket load shedding (every request but health answered 503 while it lasts) when, for two seconds running, the
     * mean event-loop delay, its utilisation or the heap is past these (0: off). Utilisation is off by default: a
     * server busy answering a flood with quick 503s is fully utilised, and would then refuse everything.
     */
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
    /** 0: 90% of the V8 heap limit. */
    LOAD_SHED_MAX_HEAP_MB: z.coerce.number().int().min(0).max(1_000_000).default(0),
    /** Requests being handled at once (0: no cap); beyond it new ones are answered 503 at once instead of queueing. */
    MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(0).max(1_000_000).default(512),
    /**
     * The answer time the shop keeps to under overload: it admits as many requests at once as it can answer within
     * this and answers the rest 503 at once (0: off). Unset, 500, but off with NODE_ENV=test, whose suites fire
     * hundreds of requests at one in-process app on purpose (tests of shedding set it).
     */
    LOAD_SHED_MAX_WAIT_MS: z.coerce.number().int().min(0).max(600_000).optional(),
    /**
     * A request's deadline (request-deadline.ts): past it, it is answered 503 with Retry-After, whatever it waits on
     * (a hung database, a queue). Reads (GET, HEAD, OPTIONS) and writes apart: a write answered at its deadline may
     * still complete behind it, so its bound is set past the database's own (a statement's 15 s + 1 s); the writes
     * that matter take an Idempotency-Key, so a retry cannot do them twice. Counted from the request's arrival,
     * its body excepted (HTTP_REQUEST_TIMEOUT_MS bounds that). 0: no deadline.
     */
    REQUEST_DEADLINE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    REQUEST_DEADLINE_WRITE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
    /** The longest /api/health waits for any one dependency before reporting it down. */
    HEALTH_CHECK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1500),
    /** A port of its own for the health checks (0: none), so a flood on PORT cannot keep the probes waiting. */
    HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    /** Free space under DATA_DIR below which writes are refused (507) with the embedded database (0: off). */
    DISK_FREE_FLOOR_MB: z.coerce.number().int().min(0).max(10_000_000).default(64),
    /** A graceful stop answers what it can within this, then exits anyway. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    /** The process stops itself when its event loop has not turned for this long (a wedged database; 0: off). */
    WATCHDOG_STALL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    /** How long an Idempotency-Key's first answer is kept and replayed (at least a day). */
    IDEMPOTENCY_KEY_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(24)
      .max(24 * 30)
      .default(24),
    /** smtp://user:pass@host:587 or smtps://…:465; unset, mails are written as .eml files under DATA_DIR/mail. */
    SMTP_URL: optionalString.pipe(
      z
        .url()
        .refine((value) => /^smtps?:\/\//.test(value), 'SMTP_URL must start with smtp:// or smtps://')
        .optional(),
    ),
    MAIL_FROM: z
      .string()
      .trim()
      .regex(
        /^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
        'MAIL_FROM must be an address, e.g. Shop <no-reply@shop.com>',
      )
      .default('Redline Parts <no-reply@redline.dev>'),
    /** How often the delivery job looks for due mail (a new mail is also sent at once after its commit). */
    MAIL_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
    /** Attempts before a mail is marked failed; between them the wait doubles from MAIL_RETRY_BASE_SECONDS. */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    MAIL_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
    /**
     * This instance's name, kept across restarts: the mail it was sending and the imports it was running when it
     * died are taken back at once by its next start. Unset: made of a random id kept in DATA_DIR/instance-id, the
     * host's name and PORT (instance-identity.ts).
     */
    INSTANCE_ID: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'INSTANCE_ID must be 1–64 letters, digits, dots, dashes or underscores')
        .optional(),
    ),
    /**
     * How often payments still open (a minute after their last change) are checked with the payment provider: a
     * charge that went through while its confirmation was lost (a crash) marks its orders paid.
     */
    PAYMENT_RECONCILE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(60),
    /**
     * `false` on an instance that should run no background jobs: it starts no job runner and delivers no mail (the
     * mail it writes to the outbox is delivered by the instances that run jobs). The test harness sets it.
     */
    JOBS_ENABLED: z.enum(['true', 'false']).default('true'),
    /** An unpaid order holds its stock this long, then the expiry job cancels it and mails the buyer. */
    ORDER_HOLD_HOURS: z.coerce
      .number()
      .min(0.01)
      .max(24 * 365)
      .default(48),
    /**
     * The most unpaid PCS of one part one customer may hold. Unset: half the part's stock (the stock as
     * this customer found it: what is on the shelf plus what they already hold), never below its minimum order.
     * A number: that many PCS (still at least the minimum order). `off`: no limit.
     */
    ORDER_HOLD_LIMIT: z
      .union([z.literal('off'), z.coerce.number().int().min(1).max(1_000_000)])
      .optional()
      .describe('unset = half the stock'),
    /**
     * The most unpaid PCS of one part an account whose email is not verified may hold (not raised to the part's
     * minimum order: above it, the customer is asked to verify their email). `off`: no such limit.
     */
    ORDER_UNVERIFIED_HOLD_LIMIT: z.union([z.literal('off'), z.coerce.number().int().min(1).max(1_000_000)]).default(2),
    /**
     * The most unpaid PCS of one part all orders placed from one client address may hold (an IPv6 address counts by
     * its /64). Unset: half the part's stock as that address found it (on the shelf plus what it holds), never below
     * the minimum order; a number: that many PCS (at least the minimum order); `off`: no limit.
     */
    ORDER_ADDRESS_HOLD_LIMIT: z
      .preprocess(
        (value) => (value === '' ? undefined : value),
        z.union([z.literal('off'), z.coerce.number().int().min(1).max(1_000_000)]).optional(),
      )
      .describe('unset = half the stock'),
    /**
     * The share (percent) of a part's stock that new accounts (no paid order yet) may hold unpaid together: of the
     * stock as they found it (on the shelf plus what they hold), never below the minimum order. `off`: no cap.
     */
    ORDER_NEW_ACCOUNT_HOLD_PERCENT: z.union([z.literal('off'), z.coerce.number().int().min(1).max(100)]).default(50),
    /**
     * How long an order stays unpaid before its buyer is mailed how to pay (the payment-reminder job): a buyer who
     * pays at once gets the receipt only. At or beyond ORDER_HOLD_HOURS the order expires first and no such mail goes.
     */
    PAYMENT_REMINDER_DELAY_SECONDS: z.coerce.number().int().min(0).max(604_800).default(1800),
    /** Where the 'new paid order' mail goes; unset: to every admin. */
    ORDER_NOTIFY_EMAIL: optionalString.refine(
      (value) => value === undefined || EMAIL_PATTERN.test(value),
      'ORDER_NOTIFY_EMAIL must be one email address (e.g. orders@example.com)',
    ),
    /**
     * Test harness only (refused unless NODE_ENV=test): hash passwords with scrypt N=2^10 instead of production's
     * N=2^17, so hundreds of sign-ups in the tests take milliseconds. Never a default.
     */
    TEST_ONLY_FAST_PASSWORD_HASH: z.enum(['true', 'false']).default('false'),
    /**
     * Password hashes (sign-up, sign-in, reset, change) that may wait for a thread while the others hash; beyond it a
     * request that needs one is answered 503 with Retry-After at once, without hashing. Unset: four times the hashes
     * run at once (UV_THREADPOOL_SIZE − 1, so 12 with Node's pool of 4). 0: no bound.
     */
    PASSWORD_HASH_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).optional(),
    /** Where uploaded part photos are stored and served from (/uploads/); unset: DATA_DIR/uploads. */
    UPLOADS_DIR: optionalString,
    /**
     * Public catalogue answers kept in memory as bytes (ADRs 016, 026): a write to some parts forgets those parts'
     * answers and the lists, any other catalogue write everything (LISTEN/NOTIFY). `off` answers every read from the
     * database.
     */
    CATALOG_CACHE: z.enum(['on', 'off']).default('on'),
    /** The most memory those kept answers may take, in MB (least recently used go first). */
    CATALOG_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(32),
    /** The largest photo upload, in MB (413 above). */
    PHOTO_MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(50).default(10),
    /** S3-compatible photo storage is not built yet (ADR 013); set, it is refused rather than ignored. */
    S3_BUCKET: optionalString.refine(
      (value) => value === undefined,
      'S3_BUCKET: storing photos in a bucket is not built yet (ADR 013); unset it to store them under UPLOADS_DIR',
    ),
  })
  .transform((env) => {
    const stripeConfigured = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET);
    return {
      ...env,
      LOAD_SHED_MAX_WAIT_MS: env.LOAD_SHED_MAX_WAIT_MS ?? (env.NODE_ENV === 'test' ? 0 : 500),
      paymentProvider: env.PAYMENT_PROVIDER ?? (stripeConfigured ? 'stripe' : 'test'),
      googleConfigured: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
      uploadsDir: env.UPLOADS_DIR ?? `${env.DATA_DIR.replace(/\/+$/, '')}/uploads`,
    } as const;
  })
  .superRefine((config, ctx) => {
    if (config.TEST_ONLY_FAST_PASSWORD_HASH === 'true' && config.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_ONLY_FAST_PASSWORD_HASH'],
        message: 'TEST_ONLY_FAST_PASSWORD_HASH is for the test suite only (NODE_ENV=test); unset it',
      });
    }
    if (config.googleConfigured && config.NODE_ENV === 'production' && !config.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          "PUBLIC_URL must be set when Google sign-in is configured in production: Google's redirect address is " +
          'built from it, never from the Host header (e.g. PUBLIC_URL=https://shop.example.com)',
      });
    }
    if (config.ADMIN_PASSWORD) {
      const problem = passwordProblem(config.ADMIN_PASSWORD, config.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL);
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: ['ADMIN_PASSWORD'],
          message: `ADMIN_PASSWORD is refused by the password rules: ${problem}`,
        });
      }
    }
    // Stripe's keys come as a set: some but not all of them is a half-finished set-up, which once
    // fell back silently to the free test gateway, so a live shop handed out goods unpaid. Refuse to start instead.
    const stripeKeys = {
      STRIPE_SECRET_KEY: config.STRIPE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: config.STRIPE_PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: config.STRIPE_WEBHOOK_SECRET,
    };
    const missingStripeKeys = Object.keys(stripeKeys).filter((name) => !stripeKeys[name as keyof typeof stripeKeys]);
    if (missingStripeKeys.length > 0 && missingStripeKeys.length < Object.keys(stripeKeys).length) {
      ctx.addIssue({
        code: 'custom',
        path: [missingStripeKeys[0] ?? 'STRIPE_SECRET_KEY'],
        message: stripeKeysMissingMessage(missingStripeKeys),
      });
    } else if (
      config.NODE_ENV === 'production' &&
      config.PAYMENT_PROVIDER === undefined &&
      missingStripeKeys.length === Object.keys(stripeKeys).length
    ) {
      // A live shop without Stripe once fell back silently to the test gateway, which marks orders paid with a
      // published test card number: in production the free gateway runs only when asked for by name.
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message:
          'No payment provider in production: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET ' +
          'are missing (set them for card payments through Stripe, or set PAYMENT_PROVIDER=test to run the test ' +
          'gateway, which charges no real card)',
      });
    } else if (config.paymentProvider === 'stripe' && missingStripeKeys.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      });
    }
  });

/** One sentence naming the Stripe keys that are missing from a partial set. */
function stripeKeysMissingMessage(missing: readonly string[]): string {
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  return (
    `Stripe is half configured: ${names} ${missing.length === 1 ? 'is' : 'are'} missing (set all three of ` +
    'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET for card payments through Stripe, or ' +
    'none of them for the built-in test gateway)'
  );
}

export type AppConfig = z.infer<typeof configSchema>;

/**
 * The shop's own address for links in mails and Google's redirect address (L8): PUBLIC_URL, or in development and
 * tests `http://localhost:PORT`. Never the request's Host header, which the client chooses.
 */
export function publicUrl(config: Pick<AppConfig, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** Reads and checks the environment once; a bad value stops start-up with a sentence saying which. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
