import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, sqlList, updatedAt } from '../../db/columns.ts';

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
    // The users list's order, oldest account first (keyset paging reads a page as a range of this index).
    index('users_created_at_idx').on(t.createdAt, t.id),
    // The users list's search, `ILIKE '%…%'` on either column: trigram indexes answer it without reading every user.
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_display_name_trgm_idx').using('gin', t.displayName.op('gin_trgm_ops')),
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

/**
 * A sign-up waiting for its mailed link (48 h). Nothing here is an account: the user row is created only when the
 * mailbox's owner opens the link, so a sign-up answers the same whether or not the email already has an account,
 * and nobody holds a password for an address they never proved. Only the link token's keyed hash is stored.
 */
export const signupRequests = pgTable(
  'signup_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('signup_requests_token_hash_unique').on(t.tokenHash),
    index('signup_requests_email_idx').on(sql`lower(${t.email})`),
    index('signup_requests_expires_at_idx').on(t.expiresAt),
    check('signup_requests_email_length', sql`char_length(${t.email}) between 3 and 254`),
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

/** A customer's address book: saved at checkout, offered next time, managed on My Profile. */
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
