import { SECURITY_EVENT_KINDS } from '../../../contract/security-event-kinds.ts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestampWithZone } from './columns.ts';
import { CONTACT_METHODS } from '../../../contract/profile-choices.ts';

/** Companies, members, their sessions, tokens, remembered devices and security events. */

/** The second factors a member can prove at the MFA step. */
const SECOND_FACTOR_KINDS = ['sms', 'app', 'passkey'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

export const companies = pgTable('companies', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  /** Public handle used by sign-up links; null for companies nobody may join by link. */
  slug: text('slug').unique(),
  /**
   * Members must enroll a phone for two-step verification: the enrollment offer cannot be
   * skipped, and until they are enrolled every call but the MFA ones answers 401 (§12).
   */
  mfaRequired: boolean('mfa_required').notNull().default(false),
  createdAt: timestampWithZone('created_at').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The only identifier ever shown outside the API. */
    externalId: uuid('external_id').notNull().unique().defaultRandom(),
    email: text('email').notNull().unique(),
    /** PHC string, e.g. `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. */
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    lastName: text('last_name').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    /**
     * The phone enrolled for two-step verification (E.164, `+1XXXXXXXXXX`); null while the user
     * has not completed MFA enrollment.
     */
    mfaPhone: text('mfa_phone'),
    /** A number given for enrollment (POST /mfa) and not confirmed by a code yet. */
    pendingMfaPhone: text('pending_mfa_phone'),
    /**
     * The shared secret of the member's authenticator app (TOTP, RFC 6238), encrypted with the
     * API's factor key (services/factor-secrets.ts); null while no app is set up.
     */
    totpSecret: text('totp_secret'),
    /** When the app's first code confirmed it; null while none is confirmed. */
    totpConfirmedAt: timestampWithZone('totp_confirmed_at'),
    /** A secret being set up (shown as a QR code), not confirmed by a code yet; encrypted. */
    pendingTotpSecret: text('pending_totp_secret'),
    /**
     * The 30-second time step of the last app code accepted: a code of that step or an earlier
     * one is refused, so that a code seen over a shoulder cannot be used again.
     */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /**
     * The factor of the member's last successful MFA step, which the step offers first next time;
     * null until one succeeds. A recovery code does not change it: it stands in for a factor.
     */
    lastSecondFactor: text('last_second_factor', { enum: SECOND_FACTOR_KINDS }),
    /**
     * How many rows of `passkeys` are the member's, kept in the transaction that adds or removes
     * one, so that the rules on second factors read the user row alone.
     */
    passkeyCount: integer('passkey_count').notNull().default(0),
    /** When the member last skipped the enrollment offer; it is offered again 30 days later. */
    mfaDeclinedAt: timestampWithZone('mfa_declined_at'),
    /** Profile: what the member wants help with, values of HELP_TOPICS (services/profile.ts). */
    helpTopics: text('help_topics')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Profile: the phone to reach the member on (E.164); not the MFA phone. */
    contactPhone: text('contact_phone'),
    preferredContactMethod: text('preferred_contact_method', { enum: CONTACT_METHODS }),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedAt: timestampWithZone('locked_at'),
    /**
     * When the account's wrong codes reached their cap (services/one-time-codes.ts): until a
     * password reset or an unlock link clears it, no code is sent or accepted. Unlike a lockout
     * it never lifts by itself: only someone who reads the account's email can lift it.
     */
    mfaCodesPausedAt: timestampWithZone('mfa_codes_paused_at'),
    /**
     * When the member proved they read `email` (a verification link, or a password reset, which is
     * sent there too); null while the address is unproven.
     */
    emailVerifiedAt: timestampWithZone('email_verified_at'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    updatedAt: timestampWithZone('updated_at').notNull().defaultNow(),
    /**
     * Bumped by the database itself (triggers of migration 0013) whenever anything the member's own
     * pages show changes: this row, their requests, their timeline entries, their attached files,
     * their company, the categories. The session check reads it with the user, so a page the web
     * tier kept can be served again while it is unchanged.
     */
    dataVersion: bigint('data_version', { mode: 'number' }).notNull().default(0),
    /**
     * Renewed by every credential event (services/credential-stamp.ts): the tokens mailed to the
     * member carry the stamp of their day, and one issued before the latest event is refused.
     */
    credentialStamp: integer('credential_stamp').notNull().default(0),
  },
  (table) => [
    // Look-ups lower-case the address; the check keeps a mixed-case row from ever hiding.
    check('users_email_lower_case', sql`${table.email} = lower(${table.email})`),
    index('users_company_id_index').on(table.companyId),
    check(
      'users_preferred_contact_method',
      sql`${table.preferredContactMethod} in ('email', 'phone', 'text')`,
    ),
    check('users_last_second_factor', sql`${table.lastSecondFactor} in ('sms', 'app', 'passkey')`),
    check('users_passkey_count', sql`${table.passkeyCount} between 0 and 10`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    lastUsedAt: timestampWithZone('last_used_at').notNull().defaultNow(),
    /** Absolute expiry; the idle limit is computed from last_used_at. */
    expiresAt: timestampWithZone('expires_at').notNull(),
    /** When a one-time code was verified in this session. */
    mfaVerifiedAt: timestampWithZone('mfa_verified_at'),
    /**
     * SHA-256 (hex) of the mfa token issued by that verification. Later calls prove it with the
     * `mfa-token` header, so the token is worth nothing with another session.
     */
    mfaTokenHash: text('mfa_token_hash').unique(),
    revokedAt: timestampWithZone('revoked_at'),
    /**
     * The `User-Agent` the session was started with (at most 512 characters), shown on Devices
     * as a browser and system; null when none was sent.
     */
    userAgent: text('user_agent'),
    /**
     * The network the session was started from, never the full address: an IPv4 /24
     * (`203.0.113.0/24`) or an IPv6 /48; null when unknown.
     */
    network: text('network'),
    /**
     * When whoever holds the session last proved who they are: signed in, or gave the password
     * again. Adding a way to sign in needs a recent proof (services/recent-proof.ts).
     */
    provenAt: timestampWithZone('proven_at').notNull().defaultNow(),
  },
  (table) => [index('sessions_user_id_index').on(table.userId)],
);

/** Fixed-window counters, shared by every API process that uses the same database. */
export const rateLimitBuckets = pgTable(
  'rate_limit_buckets',
  {
    key: text('key').notNull(),
    windowStart: timestampWithZone('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.windowStart] }),
    index('rate_limit_buckets_window_start_index').on(table.windowStart),
  ],
);

/** What a one-time account token (sent by email) lets its holder do. */
const ACCOUNT_TOKEN_PURPOSES = [
  'reset_password',
  'unlock',
  'verify_email',
  'change_email',
] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * Password-reset and unlock tokens: only their SHA-256 is stored, and each is spent once. A user
 * has at most one live token per purpose: issuing one deletes the older.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    /** SHA-256 (hex) of the token that was emailed; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    expiresAt: timestampWithZone('expires_at').notNull(),
    /** When the token was spent (or voided by a later change); null while it can still be used. */
    usedAt: timestampWithZone('used_at'),
    /**
     * The address the token was mailed to and proves, for `verify_email` and `change_email`
     * (the new address); null for the other purposes. A link proves only the address it was
     * sent to, even if the account's address changed since.
     */
    email: text('email'),
    /** The member's credential stamp when the token was issued (services/credential-stamp.ts). */
    credentialStamp: integer('credential_stamp').notNull().default(0),
  },
  (table) => [
    check(
      'account_tokens_purpose',
      sql`${table.purpose} in ('reset_password', 'unlock', 'verify_email', 'change_email')`,
    ),
    check(
      'account_tokens_email',
      sql`(${table.purpose} in ('verify_email', 'change_email')) = (${table.email} is not null)`,
    ),
    index('account_tokens_user_id_purpose_index').on(table.userId, table.purpose),
  ],
);

/**
 * Browsers a member asked to skip the MFA step on for 30 days
 * (services/sign-in/remembered-devices.ts). The browser keeps a 256-bit token and sends it with the
 * password at sign-in; only its SHA-256 is kept here, as for sessions. A member keeps at most 10;
 * they all go when every session does (a password change or reset, an unlock link, ending the other
 * sessions) and with the last second factor.
 */
export const rememberedDevices = pgTable(
  'remembered_devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the device token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When the token last took the step at a sign-in; null until it does. */
    lastUsedAt: timestampWithZone('last_used_at'),
    /** 30 days after `created_at`: using the token does not extend it. */
    expiresAt: timestampWithZone('expires_at').notNull(),
    /** As sessions.user_agent: the `User-Agent` of the step, at most 512 characters. */
    userAgent: text('user_agent'),
  },
  (table) => [index('remembered_devices_user_id_index').on(table.userId)],
);

/**
 * The account's security events, newest first on the Activity page; kept 90 days, then removed
 * by the sweeper. Where and with what they happened is kept as coarsely as Devices shows it.
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SECURITY_EVENT_KINDS }).notNull(),
    occurredAt: timestampWithZone('occurred_at').notNull().defaultNow(),
    /** As sessions.network: an IPv4 /24 or IPv6 /48, never the full address. */
    network: text('network'),
    /** As sessions.user_agent, at most 512 characters. */
    userAgent: text('user_agent'),
  },
  (table) => [
    index('security_events_user_id_occurred_at_index').on(
      table.userId,
      table.occurredAt.desc(),
      table.id.desc(),
    ),
    index('security_events_occurred_at_index').on(table.occurredAt),
  ],
);

export type Company = typeof companies.$inferSelect;
export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type AccountToken = typeof accountTokens.$inferSelect;
export type RememberedDevice = typeof rememberedDevices.$inferSelect;
export type SecurityEvent = typeof securityEvents.$inferSelect;
