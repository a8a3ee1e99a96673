/**
 * The closed lists of values the database stores and the API reports, declared once: the Drizzle schema, the zod
 * schemas and the configuration all import them from here, so a value added here reaches every side at once (a new
 * order status or provider still needs a migration: the database checks these lists too).
 */

/** An order's life: placed (stock reserved), paid, shipped. */
export const orderStatuses = ['unpaid', 'paid', 'shipped'] as const;

/** Who takes the card: the built-in test gateway (offline, Stripe's test mode) or Stripe. */
export const paymentProviders = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** What the built-in test gateway's "bank" answered to one card attempt. */
export const paymentAttemptOutcomes = ['succeeded', 'declined'] as const;

/** The two database drivers behind the one Drizzle type (ADR 004); the health check reports which one runs. */
export const databaseDrivers = ['pglite', 'postgres'] as const;
export type DatabaseDriver = (typeof databaseDrivers)[number];
