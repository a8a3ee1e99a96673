import { z } from 'zod';
import { paymentProviders } from '../shared/enums.ts';
import { EMAIL_PATTERN } from '../shared/schemas/accounts.ts';

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
    /** Failed sign-ins per account; a success does not count, so nobody can lock a user out by signing in. */
    RATE_LIMIT_LOGIN_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
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
    /** `false` on an instance that should run no background jobs (it can still enqueue them for the others). */
    JOBS_ENABLED: z.enum(['true', 'false']).default('true'),
  })
  .transform((env) => {
    const stripeConfigured = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET);
    return {
      ...env,
      paymentProvider: env.PAYMENT_PROVIDER ?? (stripeConfigured ? 'stripe' : 'test'),
      googleConfigured: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    } as const;
  })
  .superRefine((config, ctx) => {
    if (
      config.paymentProvider === 'stripe' &&
      !(config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY && config.STRIPE_WEBHOOK_SECRET)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      });
    }
  });

export type AppConfig = z.infer<typeof configSchema>;

/** Reads and checks the environment once; a bad value stops start-up with a sentence saying which. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
