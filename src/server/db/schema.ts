/**
 * Every table, for drizzle-kit (drizzle.config.ts) and for code outside the modules. Each module defines its own
 * tables in its `schema.ts` (or `*-schema.ts`) and owns them: `npm run check` refuses a module's code that imports or
 * names in SQL a table another module owns (ADR 027).
 */
export * from '../modules/accounts/schema.ts';
export * from '../modules/cart/schema.ts';
export * from '../modules/catalog/schema.ts';
export * from '../modules/catalog/search-schema.ts';
export * from '../modules/catalog-transfer/schema.ts';
export * from '../modules/fitment/schema.ts';
export * from '../modules/health/schema.ts';
export * from '../modules/idempotency/schema.ts';
export * from '../modules/jobs/schema.ts';
export * from '../modules/mail/schema.ts';
export * from '../modules/media/schema.ts';
export * from '../modules/orders/schema.ts';
export * from '../modules/payments/schema.ts';
export * from '../modules/reviews/schema.ts';
