import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  orderCancelReasons,
  orderStatuses,
  paidOrderStatuses,
  paymentAttemptOutcomes,
  paymentProviders,
  refundStatuses,
} from '../../shared/enums.ts';
import { vehicleTypes } from '../../shared/schemas/fitment.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A constant list as SQL text, `('a', 'b')`, so a check constraint names the same values as the shared list. */
const sqlList = (values: readonly string[]) => sql.raw(`(${values.map((value) => `'${value}'`).join(', ')})`);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    /** Null for accounts that only ever signed in with Google. scrypt, self-describing format. */
    passwordHash: text('password_hash'),
    /** The OpenID `sub` of a linked Google account. */
    googleSubject: text('google_subject'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** When the owner proved the address (a mailed link, a password reset, or Google's verified claim); null until. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Emails are unique whatever their case: "Ann@x.com" and "ann@x.com" are one person.
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_subject_unique').on(t.googleSubject),
    check('users_email_length', sql`char_length(${t.email}) between 3 and 254`),
  ],
);

/** Bearer tokens are random; only their keyed hash is stored, so a database leak hands out no sessions. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * A token minted by `PUT /api/user/{email}` names the session it came from (always the first of the line): it
     * shares that session's expiry and ends when it is revoked (M2).
     */
    parentTokenHash: text('parent_token_hash').references((): AnyPgColumn => sessions.tokenHash, {
      onDelete: 'cascade',
    }),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
    index('sessions_parent_idx').on(t.parentTokenHash),
  ],
);

/** PKCE verifier and nonce of a Google sign-in under way, kept server-side so any instance can finish it. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  returnTo: text('return_to').notNull().default('/'),
  /** Keyed hash of the `rl_google` cookie of the browser that started the sign-in (H2); null rows are refused. */
  bindingHash: text('binding_hash'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const accountTokenPurposes = ['verify_email', 'reset_password', 'google_code'] as const;
export type AccountTokenPurpose = (typeof accountTokenPurposes)[number];

/**
 * One-time account tokens: email verification links (48 h), password reset links (1 h) and the one-time code that
 * ends a Google sign-in (60 s, bound to the starting browser). Only the token's keyed hash is stored; a token is
 * spent by one conditional UPDATE (`used_at IS NULL AND expires_at > now()`), so it works once.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: accountTokenPurposes }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** google_code only: the keyed hash of the browser's `rl_google` cookie, which must come with the code. */
    bindingHash: text('binding_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_token_hash_unique').on(t.tokenHash),
    index('account_tokens_user_purpose_idx').on(t.userId, t.purpose),
    index('account_tokens_expires_at_idx').on(t.expiresAt),
    check('account_tokens_purpose_valid', sql`${t.purpose} in ${sqlList(accountTokenPurposes)}`),
  ],
);

export const profiles = pgTable('profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  education: text('education').notNull().default(''),
  phoneNumber: text('phone_number').notNull().default(''),
  img: text('img').notNull().default(''),
  link: text('link').notNull().default(''),
  updatedAt: updatedAt(),
});

export const parts = pgTable(
  'parts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    img: text('img').notNull(),
    priceCents: integer('price_cents').notNull(),
    availableQuantity: integer('available_quantity').notNull(),
    minimumOrder: integer('minimum_order').notNull().default(1),
    createdByEmail: text('created_by_email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Issue 13: what the part is (ADR 010).
    brandId: uuid('brand_id').references((): AnyPgColumn => brands.id, { onDelete: 'set null' }),
    categoryId: uuid('category_id').references((): AnyPgColumn => categories.id, { onDelete: 'set null' }),
    mpn: text('mpn'),
    oemNumbers: text('oem_numbers').array().notNull().default(sql`'{}'::text[]`),
    /** MPN and OEM numbers as search compares them (`normalizePartNumber`), written with them; GIN-indexed. */
    partNumbers: text('part_numbers').array().notNull().default(sql`'{}'::text[]`),
    /** Fits every vehicle (gloves, gauges): the fitment module's rows are not consulted. */
    universal: boolean('universal').notNull().default(false),
  },
  (t) => [
    check('parts_name_length', sql`char_length(${t.name}) between 1 and 20`),
    check('parts_description_length', sql`char_length(${t.description}) <= 1000`),
    check('parts_price_positive', sql`${t.priceCents} > 0`),
    check('parts_available_non_negative', sql`${t.availableQuantity} >= 0`),
    check('parts_minimum_order_positive', sql`${t.minimumOrder} >= 1`),
    // The home page asks for the newest six; the list pages sort by these.
    index('parts_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('parts_price_idx').on(t.priceCents, t.id),
    index('parts_name_idx').on(t.name, t.id),
    index('parts_part_numbers_idx').using('gin', t.partNumbers),
    index('parts_category_idx').on(t.categoryId),
    index('parts_brand_idx').on(t.brandId),
    // "Fits vehicle V" is V's fitment rows plus every universal part: this reads the universal ones alone.
    index('parts_universal_idx').on(t.id).where(sql`${t.universal}`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Set null when the part is deleted: the order keeps its own copy of name and unit price. */
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    /** Restrict: an account with orders is history the shop must keep. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    partName: text('part_name').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    totalCents: integer('total_cents').notNull(),
    email: text('email').notNull(),
    userName: text('user_name').notNull().default(''),
    address: text('address').notNull().default(''),
    phone: text('phone').notNull().default(''),
    paid: boolean('paid').notNull().default(false),
    status: text('status', { enum: orderStatuses }).notNull().default('unpaid'),
    transactionId: text('transaction_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The checkout that placed this order with others (issue 12, ADR 011); null for an order placed alone. */
    checkoutId: uuid('checkout_id'),
    // Issue 12 fulfilment and cancellation (ADR 002 amended): each step keeps its time for the order's timeline.
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Who ended an unpaid order: its buyer, an admin, or the hold running out. */
    cancelReason: text('cancel_reason', { enum: orderCancelReasons }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Set when the card holder disputes the charge (Stripe's charge.dispute.created). */
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} > 0`),
    check('orders_unit_price_positive', sql`${t.unitPriceCents} > 0`),
    check('orders_total_matches', sql`${t.totalCents} = ${t.unitPriceCents} * ${t.quantity}`),
    check('orders_status_valid', sql`${t.status} in ${sqlList(orderStatuses)}`),
    // Paid means money was taken: a refunded order was paid (no Pay button), a cancelled one never was.
    check('orders_paid_matches_status', sql`${t.paid} = (${t.status} in ${sqlList(paidOrderStatuses)})`),
    check(
      'orders_cancel_reason_valid',
      sql`${t.cancelReason} is null or ${t.cancelReason} in ${sqlList(orderCancelReasons)}`,
    ),
    check('orders_paid_has_transaction', sql`not ${t.paid} or ${t.transactionId} is not null`),
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('orders_created_at_idx').on(t.createdAt.desc()),
    index('orders_part_id_idx').on(t.partId),
    index('orders_checkout_idx').on(t.checkoutId).where(sql`${t.checkoutId} is not null`),
    // The expiry job reads the oldest unpaid orders; the hold limit sums a buyer's unpaid units of a part.
    index('orders_unpaid_created_idx').on(t.createdAt).where(sql`${t.status} = 'unpaid'`),
    index('orders_unpaid_user_part_idx').on(t.userId, t.partId).where(sql`${t.status} = 'unpaid'`),
    index('orders_transaction_idx').on(t.transactionId).where(sql`${t.transactionId} is not null`),
  ],
);

/**
 * One payment intent per order and provider, or per group of orders and provider (issue 12): asking again returns
 * the same one. The orders an intent pays are in `payment_intent_orders`; `order_id` stays set for an intent of one
 * order (the spec's form) so the previous release still finds it, and is null for a group's.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** The sorted order ids of a group payment, hashed: the same group asked again finds its intent. */
    groupKey: text('group_key'),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    clientSecret: text('client_secret').notNull(),
    status: text('status').notNull().default('requires_payment_method'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_intents_order_provider_unique').on(t.orderId, t.provider),
    uniqueIndex('payment_intents_group_provider_unique').on(t.groupKey, t.provider),
    check('payment_intents_amount_positive', sql`${t.amountCents} > 0`),
    check('payment_intents_order_or_group', sql`${t.orderId} is not null or ${t.groupKey} is not null`),
  ],
);

/**
 * Which orders a payment intent pays, and how much of it each (issue 12, ADR 011): one row for an intent of one
 * order, N for a group's. Refunds and the webhook find an order's payment here.
 */
export const paymentIntentOrders = pgTable(
  'payment_intent_orders',
  {
    intentId: text('intent_id')
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.intentId, t.orderId] }),
    index('payment_intent_orders_order_idx').on(t.orderId),
    check('payment_intent_orders_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** A customer's cart (issue 12): one row per part, the quantity checked against the order rule when it is set. */
export const cartItems = pgTable(
  'cart_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.partId] }), check('cart_items_quantity_positive', sql`${t.quantity} > 0`)],
);

/** A customer's address book (issue 12): saved at checkout, offered next time, managed on My Profile. */
export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    phone: text('phone').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The same address and phone typed twice is one entry (its last use moves forward).
    uniqueIndex('addresses_user_address_phone_unique').on(t.userId, t.address, t.phone),
    index('addresses_user_last_used_idx').on(t.userId, t.lastUsedAt.desc()),
    check('addresses_address_length', sql`char_length(${t.address}) between 1 and 300`),
    check('addresses_phone_length', sql`char_length(${t.phone}) between 1 and 30`),
  ],
);

/** Every card attempt at the built-in test gateway, kept as Stripe keeps charges. */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    intentId: text('intent_id')
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'cascade' }),
    outcome: text('outcome', { enum: paymentAttemptOutcomes }).notNull(),
    declineCode: text('decline_code'),
    cardLast4: text('card_last4').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payment_attempts_intent_idx').on(t.intentId)],
);

/**
 * Refunds of paid orders (issue 12), one order each, never deleted. A row is written `pending` before the provider is
 * asked (so shipping the order meanwhile is refused and a retry reuses it, with the same idempotency key), then
 * `succeeded` with the provider's refund id, or `failed`. At most one live (pending or succeeded) refund per order.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /** The payment refunded: the intent id the order was paid with (Stripe pi_…, or the test gateway's). */
    paymentId: text('payment_id').notNull(),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    /** The provider's refund id (re_…), once it answered. */
    providerRefundId: text('provider_refund_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: refundStatuses }).notNull().default('pending'),
    /** Who asked: an admin's refund, or Stripe telling us of one made in its dashboard. */
    source: text('source').notNull().default('admin'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status_valid', sql`${t.status} in ${sqlList(refundStatuses)}`),
    uniqueIndex('refunds_live_order_unique').on(t.orderId).where(sql`${t.status} <> 'failed'`),
    uniqueIndex('refunds_provider_refund_unique').on(t.providerRefundId),
  ],
);

/** Webhook event ids already handled, so a repeated delivery changes nothing. */
export const processedWebhookEvents = pgTable(
  'processed_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the demo reviews; set null if the author's account goes, the words stay. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    rating: integer('rating').notNull(),
    img: text('img').notNull(),
    review: text('review').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_text_length', sql`char_length(${t.review}) between 1 and 500`),
    index('reviews_created_at_idx').on(t.createdAt.desc()),
  ],
);

export const mailStatuses = ['pending', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof mailStatuses)[number];

/**
 * Transactional outbox: a mail is a row written in the same transaction as the change that causes it, and a job
 * delivers it. The Message-ID is derived from the row id, so a re-send after a crash carries the same one.
 * Bodies are cleared once sent: they carry one-time links (verify, reset) that must not outlive their delivery.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The template that rendered it, e.g. `verify-email`: for counts and logs, which never name the recipient. */
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    status: text('status', { enum: mailStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When `pending`: the next try. When `sending`: the end of the claim's lease, after which a sender that died
     * is taken over (same Message-ID). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** `<row id@MAIL_FROM's domain>`, fixed by the first delivery attempt and reused by every retry. */
    messageId: text('message_id'),
    /** What the SMTP server answered on acceptance (its queue id), or the .eml file written. */
    deliveryResponse: text('delivery_response'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('mail_outbox_status_valid', sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    check('mail_outbox_attempts_non_negative', sql`${t.attempts} >= 0`),
    // The delivery job's claim reads only unsent rows in due order.
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_created_at_idx').on(t.createdAt),
  ],
);

/** The last failures of background jobs, for the admin panel: job id and message only, never personal data. */
export const jobFailures = pgTable(
  'job_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queue: text('queue').notNull(),
    jobId: text('job_id').notNull(),
    message: text('message').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_failures_queue_failed_at_idx').on(t.queue, t.failedAt.desc())],
);

// ---- Issue 13: brands and categories (catalog), vehicles, fitment and garages (fitment module). ADR 010.

export const brands = pgTable(
  'brands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('brands_slug_unique').on(t.slug)],
);

/** A small tree of at most two levels (Brakes › Pads): a part's category path is its category and its parent. */
export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => categories.id, { onDelete: 'restrict' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('categories_slug_unique').on(t.slug), index('categories_parent_idx').on(t.parentId)],
);

export const vehicleMakes = pgTable(
  'vehicle_makes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vehicle_makes_name_unique').on(sql`lower(${t.name})`)],
);

export const vehicleModels = pgTable(
  'vehicle_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    makeId: uuid('make_id')
      .notNull()
      .references(() => vehicleMakes.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    type: text('type', { enum: vehicleTypes }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('vehicle_models_make_name_unique').on(t.makeId, sql`lower(${t.name})`),
    check('vehicle_models_type_valid', sql`${t.type} in ${sqlList(vehicleTypes)}`),
  ],
);

/** One model year of a model, per variant ('' = the base model): what a garage and `?vehicle=` name. */
export const vehicles = pgTable(
  'vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => vehicleModels.id, { onDelete: 'restrict' }),
    year: integer('year').notNull(),
    variant: text('variant').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('vehicles_model_year_variant_unique').on(t.modelId, t.year, t.variant),
    index('vehicles_year_idx').on(t.year),
    check('vehicles_year_range', sql`${t.year} between 1950 and 2030`),
  ],
);

/**
 * A part fits a model over a year range, for one variant or (null) all of them. "Parts that fit vehicle V" reads
 * the model's rows from `part_fitments_model_idx` (the index holds every column the match needs); "vehicles part P
 * fits" reads `part_fitments_part_idx`.
 */
export const partFitments = pgTable(
  'part_fitments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => vehicleModels.id, { onDelete: 'restrict' }),
    yearFrom: integer('year_from').notNull(),
    yearTo: integer('year_to').notNull(),
    variant: text('variant'),
  },
  (t) => [
    index('part_fitments_model_idx').on(t.modelId, t.yearFrom, t.yearTo, t.variant, t.partId),
    index('part_fitments_part_idx').on(t.partId),
    check('part_fitments_years_ordered', sql`${t.yearFrom} <= ${t.yearTo}`),
  ],
);

/** A customer's saved vehicles; at most one per user is current (partial unique index). */
export const garageVehicles = pgTable(
  'garage_vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'restrict' }),
    name: text('name'),
    isCurrent: boolean('is_current').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('garage_vehicles_user_vehicle_unique').on(t.userId, t.vehicleId),
    uniqueIndex('garage_vehicles_one_current').on(t.userId).where(sql`${t.isCurrent}`),
    index('garage_vehicles_vehicle_idx').on(t.vehicleId),
  ],
);

/**
 * Idempotency keys of money-moving requests (the idempotency module, ADR 006): the first answer to a key, replayed
 * to a retry with the same key. Written in the transaction that does the work, so the two commit together; kept
 * IDEMPOTENCY_KEY_TTL_HOURS (at least 24), then purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `user:<id>` (a key is only ever matched against the same caller's). */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request (method, route, path parameters, body): the same key with another request is a 409. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/** One row the readiness check rewrites (the health module): proves the database still takes writes. */
export const healthProbe = pgTable('health_probe', {
  id: integer('id').primaryKey(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});
