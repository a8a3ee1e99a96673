import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orderStatuses, paymentAttemptOutcomes, paymentProviders } from '../../shared/enums.ts';

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
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

/** PKCE verifier and nonce of a Google sign-in under way, kept server-side so any instance can finish it. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  returnTo: text('return_to').notNull().default('/'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

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
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} > 0`),
    check('orders_unit_price_positive', sql`${t.unitPriceCents} > 0`),
    check('orders_total_matches', sql`${t.totalCents} = ${t.unitPriceCents} * ${t.quantity}`),
    check('orders_status_valid', sql`${t.status} in ${sqlList(orderStatuses)}`),
    check('orders_paid_matches_status', sql`${t.paid} = (${t.status} <> 'unpaid')`),
    check('orders_paid_has_transaction', sql`not ${t.paid} or ${t.transactionId} is not null`),
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('orders_created_at_idx').on(t.createdAt.desc()),
    index('orders_part_id_idx').on(t.partId),
  ],
);

/** One payment intent per order and provider: asking again returns the same one. */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
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
    check('payment_intents_amount_positive', sql`${t.amountCents} > 0`),
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
