/**
 * The closed lists of values the database stores and the API reports, declared once: the Drizzle schema, the zod
 * schemas and the configuration all import them from here, so a value added here reaches every side at once (a new
 * order status or provider still needs a migration: the database checks these lists too).
 */

/**
 * An order's life (ADR 002, amended): placed (stock reserved) → paid → shipped → delivered; an unpaid
 * order may be cancelled (its buyer, an admin, or the hold running out; stock released); a paid, not yet shipped one
 * may be refunded (stock back).
 */
export const orderStatuses = ['unpaid', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** The states in which the order's money was taken (`paid` is true): refunded too, as its charge existed. */
export const paidOrderStatuses = ['paid', 'shipped', 'delivered', 'refunded'] as const;

/** Who cancelled an unpaid order. */
export const orderCancelReasons = ['buyer', 'admin', 'expired'] as const;
export type OrderCancelReason = (typeof orderCancelReasons)[number];

/** A refund's life: asked of the provider, then done or refused. */
export const refundStatuses = ['pending', 'succeeded', 'failed'] as const;

/** Who takes the card: the built-in test gateway (offline, Stripe's test mode) or Stripe. */
export const paymentProviders = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** What the built-in test gateway's "bank" answered to one card attempt. */
export const paymentAttemptOutcomes = ['succeeded', 'declined'] as const;

/** The two database drivers behind the one Drizzle type (ADR 004); the health check reports which one runs. */
export const databaseDrivers = ['pglite', 'postgres'] as const;
export type DatabaseDriver = (typeof databaseDrivers)[number];

/** The kinds of vehicle, with the names the vehicle selector shows. */
export const vehicleTypes = ['motorcycle', 'car', 'atv', 'scooter'] as const;
export type VehicleType = (typeof vehicleTypes)[number];
export const vehicleTypeLabels: Record<VehicleType, string> = {
  motorcycle: 'Motorcycle',
  car: 'Car',
  atv: 'ATV / Quad',
  scooter: 'Scooter',
};
