import { SECURITY_EVENT_KINDS } from '../../contract/security-event-kinds.ts';
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
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { CONTACT_METHODS } from '../../contract/profile-choices.ts';

/** The second factors a member can prove at the MFA step. */
export const SECOND_FACTOR_KINDS = ['sms', 'app', 'passkey'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/**
 * Timestamps are always written from the application's clock (so tests can move time); the
 * database default only covers rows written by hand.
 */
const timestampWithZone = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
     * When the member proved they read `email` (a verification link, or a password reset, which
     * is sent there too); null while the address is unproven (docs/PRODUCT.md §11.2).
     */
    emailVerifiedAt: timestampWithZone('email_verified_at'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    updatedAt: timestampWithZone('updated_at').notNull().defaultNow(),
    /**
     * Bumped by the database itself (triggers of migration 0013) whenever anything the member's
     * own pages show changes: this row, their requests, their timeline entries, their attached
     * files, their company, the categories. The session check reads it with the user, so a page
     * the web tier kept can be served again while it is unchanged (docs/PRODUCT.md §14).
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
    /** When a one-time code was verified in this session (docs/PRODUCT.md §12). */
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
export const ACCOUNT_TOKEN_PURPOSES = [
  'reset_password',
  'unlock',
  'verify_email',
  'change_email',
] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * Password-reset and unlock tokens (docs/PRODUCT.md §11.2): only their SHA-256 is stored, and
 * each is spent once. A user has at most one live token per purpose: issuing one deletes the older.
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

/** What a one-time code confirms: a new phone (enrollment) or the enrolled one (verification). */
export const ONE_TIME_CODE_PURPOSES = ['enroll', 'verify'] as const;
export type OneTimeCodePurpose = (typeof ONE_TIME_CODE_PURPOSES)[number];

/**
 * The codes texted for MFA (docs/PRODUCT.md §11.2): stored salted and hashed, bound to the session
 * that asked for them, valid 10 minutes, void after 5 wrong tries. Rows outlive their session (the
 * reference is then null) so that the resend limits and the account's cap on wrong codes, counted
 * per user, cannot be reset by signing in again; rows older than 24 hours are deleted when the
 * user asks for a new code, and all of a user's rows when a reset or an unlock clears the cap.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    purpose: text('purpose', { enum: ONE_TIME_CODE_PURPOSES }).notNull(),
    /** The number the code was texted to (E.164): the one enrollment confirms. */
    phone: text('phone').notNull(),
    /** `<salt>$<SHA-256 hex of salt and code>`; the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    expiresAt: timestampWithZone('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** When the code was used, or voided by a newer code or a new number; null until then. */
    usedAt: timestampWithZone('used_at'),
  },
  (table) => [
    check('one_time_codes_purpose', sql`${table.purpose} in ('enroll', 'verify')`),
    index('one_time_codes_session_id_index').on(table.sessionId),
    index('one_time_codes_user_id_created_at_index').on(table.userId, table.createdAt),
  ],
);

/**
 * Each wrong code from an authenticator app (docs/PRODUCT.md §11.2). They count toward the
 * account's cap on wrong codes with the wrong tries of texted codes (services/factors/step.ts), and go
 * when the pause they may cause is lifted.
 */
export const secondStepFailures = pgTable(
  'second_step_failures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failedAt: timestampWithZone('failed_at').notNull().defaultNow(),
  },
  (table) => [
    index('second_step_failures_user_id_failed_at_index').on(table.userId, table.failedAt),
  ],
);

/**
 * Recovery codes (docs/PRODUCT.md §11.2): one-time codes the member keeps for when no factor is at
 * hand, made in sets of 10 (services/recovery-codes.ts). Only a salted SHA-256 of each is kept: a
 * code has 50 random bits, so a hash is as good as a password hash against a stolen table, and the
 * account's cap on wrong codes bounds guessing online. Each is spent once; a new set replaces every
 * older code, and the set goes when the member's last factor does.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 16 random bytes, hex. */
    salt: text('salt').notNull(),
    /** SHA-256 (hex) of the salt's bytes followed by the normalised code. */
    codeHash: text('code_hash').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When the code took an MFA step; null while it can still be used. */
    usedAt: timestampWithZone('used_at'),
  },
  (table) => [index('recovery_codes_user_id_index').on(table.userId)],
);

/**
 * Browsers a member asked to skip the MFA step on for 30 days (docs/PRODUCT.md §11.2, §12;
 * services/remembered-devices.ts). The browser keeps a 256-bit token and sends it with the
 * password at sign-in; only its SHA-256 is kept here, as for sessions. A member keeps at most 10;
 * they all go when every session does (a password change or reset, an unlock link, ending the
 * other sessions) and with the last second factor.
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

export const PASSKEY_DEVICE_TYPES = ['singleDevice', 'multiDevice'] as const;

/**
 * The member's passkeys (WebAuthn credentials, docs/PRODUCT.md §11.2): each one a second factor,
 * and, being verified by the device's lock, a way to sign in without the password.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id as the browser gives it (base64url). */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key (base64url) that checks the credential's signatures. */
    publicKey: text('public_key').notNull(),
    /**
     * The authenticator's signature counter: a later use must show a greater one, unless the
     * authenticator keeps none (0), as synced passkeys do.
     */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** The transports the browser reported, handed back so it can find the credential quickly. */
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whether the credential may be synced to other devices, and whether it is backed up now. */
    deviceType: text('device_type', { enum: PASSKEY_DEVICE_TYPES }).notNull(),
    backedUp: boolean('backed_up').notNull(),
    /** What the member called it, at most 60 characters. */
    name: text('name').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    lastUsedAt: timestampWithZone('last_used_at'),
  },
  (table) => [index('passkeys_user_id_index').on(table.userId)],
);
export type Passkey = typeof passkeys.$inferSelect;

export const WEBAUTHN_CHALLENGE_PURPOSES = ['registration', 'second_step', 'sign_in'] as const;
export type WebauthnChallengePurpose = (typeof WEBAUTHN_CHALLENGE_PURPOSES)[number];

/**
 * Challenges the API gave out for a WebAuthn ceremony, each good for one answer within a few
 * minutes, and only from where it was given: the session of a registration or a second step, or,
 * for a sign-in with a passkey alone, the browser holding the token given with it (kept hashed).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    challenge: text('challenge').notNull().unique(),
    purpose: text('purpose', { enum: WEBAUTHN_CHALLENGE_PURPOSES }).notNull(),
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the sign-in's challenge token. */
    tokenHash: text('token_hash'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    expiresAt: timestampWithZone('expires_at').notNull(),
  },
  (table) => [
    index('webauthn_challenges_expires_at_index').on(table.expiresAt),
    index('webauthn_challenges_session_id_index').on(table.sessionId),
  ],
);

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/**
 * Every email and text the API sends, written in the transaction of the change that causes it
 * and delivered afterwards by the outbox worker (api/services/messages/outbox.ts). Rows are kept after
 * delivery: the development outbox viewer lists them.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    /** An email address, or a phone number in E.164 form. */
    recipient: text('recipient').notNull(),
    /** Emails only. */
    subject: text('subject'),
    textBody: text('text_body').notNull(),
    /** Emails only. */
    htmlBody: text('html_body'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** Delivery attempts started so far (counted when a worker claims the message). */
    attempts: integer('attempts').notNull().default(0),
    /**
     * When a worker may next try to deliver it (while one is trying: when its lease runs out).
     * Null once it is delivered or delivery was given up.
     */
    nextAttemptAt: timestampWithZone('next_attempt_at'),
    /** When the provider accepted it; null until then. */
    sentAt: timestampWithZone('sent_at'),
    lastError: text('last_error'),
  },
  (table) => [
    check('outbox_messages_channel', sql`${table.channel} in ('email', 'sms')`),
    check(
      'outbox_messages_email_parts',
      sql`(${table.channel} = 'email') = (${table.subject} is not null and ${table.htmlBody} is not null)`,
    ),
    index('outbox_messages_due_index')
      .on(table.nextAttemptAt)
      .where(sql`${table.nextAttemptAt} is not null`),
    index('outbox_messages_created_at_index').on(table.createdAt),
  ],
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

/** Where a concierge request stands (docs/PRODUCT.md §3). */
export const REQUEST_STATUSES = [
  'submitted',
  'in_progress',
  'waiting_on_member',
  'completed',
  'cancelled',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses in which the concierge is still working on a request: it can be cancelled. */
export const OPEN_REQUEST_STATUSES = [
  'submitted',
  'in_progress',
  'waiting_on_member',
] as const satisfies readonly RequestStatus[];

/** Icons the web tier draws for categories; a category names one of them. */
export const CATEGORY_ICONS = ['home', 'travel', 'health', 'finance', 'family', 'errands'] as const;
export type CategoryIcon = (typeof CATEGORY_ICONS)[number];

/**
 * What members can ask the concierge for. The id is a readable slug (`travel`), used in the
 * category page's address; the list is seeded by the migrations' companion (api/db/seed.ts).
 */
export const requestCategories = pgTable(
  'request_categories',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    icon: text('icon', { enum: CATEGORY_ICONS }).notNull(),
    /** Order in lists: smallest first. */
    position: integer('position').notNull(),
  },
  (table) => [
    check(
      'request_categories_icon',
      sql`${table.icon} in ('home', 'travel', 'health', 'finance', 'family', 'errands')`,
    ),
  ],
);

/** A member's concierge request. Its public id is a UUID, so ids say nothing of how many exist. */
export const requests = pgTable(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => requestCategories.id),
    title: text('title').notNull(),
    details: text('details').notNull().default(''),
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('submitted'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When anything last happened to it (a note, a status change): lists sort by it. */
    updatedAt: timestampWithZone('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check(
      'requests_status',
      sql`${table.status} in ('submitted', 'in_progress', 'waiting_on_member', 'completed', 'cancelled')`,
    ),
    // The lists' order (most recently updated first, ties by creation then id), per member and
    // per member and category: a page by position starts in the index (docs/PRODUCT.md §7.2).
    index('requests_user_id_list_order_index').on(
      table.userId,
      table.updatedAt,
      table.createdAt,
      table.id,
    ),
    index('requests_user_id_category_id_list_order_index').on(
      table.userId,
      table.categoryId,
      table.updatedAt,
      table.createdAt,
      table.id,
    ),
  ],
);

/** What a timeline entry records. */
export const REQUEST_UPDATE_KINDS = ['created', 'status_changed', 'note'] as const;
export type RequestUpdateKind = (typeof REQUEST_UPDATE_KINDS)[number];

/** Who wrote a timeline entry. */
export const REQUEST_UPDATE_AUTHORS = ['member', 'concierge'] as const;
export type RequestUpdateAuthor = (typeof REQUEST_UPDATE_AUTHORS)[number];

/** The timeline of a request: its creation, each status change and each note, oldest first. */
export const requestUpdates = pgTable(
  'request_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REQUEST_UPDATE_KINDS }).notNull(),
    author: text('author', { enum: REQUEST_UPDATE_AUTHORS }).notNull(),
    /** The note, or a sentence about the change; may be empty for a change without comment. */
    body: text('body').notNull().default(''),
    /** For `status_changed`: the status the request moved to. */
    status: text('status', { enum: REQUEST_STATUSES }),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
  },
  (table) => [
    check('request_updates_kind', sql`${table.kind} in ('created', 'status_changed', 'note')`),
    check('request_updates_author', sql`${table.author} in ('member', 'concierge')`),
    check(
      'request_updates_status_given',
      sql`(${table.kind} = 'status_changed') = (${table.status} is not null)`,
    ),
    index('request_updates_request_id_created_at_index').on(table.requestId, table.createdAt),
  ],
);

/**
 * A file a member uploaded straight to storage (docs/PRODUCT.md §7.2). It is created by
 * `POST /direct_uploads` with the size, type and checksum the upload must match; `uploadedAt` is
 * set once storage holds exactly that file; it becomes an attachment when a request or a note
 * takes it (`requestId`, `requestUpdateId`). Files never attached are removed after a day.
 */
export const blobs = pgTable(
  'blobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where storage keeps it: chosen by the server, never derived from the file name. */
    key: text('key').notNull().unique(),
    /** The member's name for the file, used only for display and downloads. */
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Base64 SHA-256 of the content, as the uploader declared it; storage checks it. */
    checksum: text('checksum').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When storage confirmed the whole file; null while the upload has not completed. */
    uploadedAt: timestampWithZone('uploaded_at'),
    requestId: uuid('request_id').references(() => requests.id, { onDelete: 'cascade' }),
    /** The timeline entry (the request's creation or a note) the file came with. */
    requestUpdateId: uuid('request_update_id').references(() => requestUpdates.id, {
      onDelete: 'cascade',
    }),
  },
  (table) => [
    check('blobs_byte_size', sql`${table.byteSize} between 0 and 26214400`),
    check(
      'blobs_attached_whole',
      sql`(${table.requestId} is null) = (${table.requestUpdateId} is null)`,
    ),
    check(
      'blobs_attached_only_uploaded',
      sql`${table.requestId} is null or ${table.uploadedAt} is not null`,
    ),
    index('blobs_request_id_index').on(table.requestId),
    // A timeline entry's files, read with the entry (a request's page, the Dashboard's updates).
    index('blobs_request_update_id_index').on(table.requestUpdateId),
    index('blobs_unattached_created_at_index')
      .on(table.createdAt)
      .where(sql`${table.requestId} is null`),
    index('blobs_user_id_index').on(table.userId),
  ],
);

/**
 * Files whose rows are gone (a deleted account's) and whose content storage still has to drop.
 * The deletion writes them in its transaction, so a file is never forgotten by a storage outage
 * nor dropped for an account that stays; the unattached-file sweeper removes them from storage.
 */
export const storageDeletions = pgTable('storage_deletions', {
  key: text('key').primaryKey(),
  requestedAt: timestampWithZone('requested_at').notNull().defaultNow(),
});

export type Company = typeof companies.$inferSelect;
export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type AccountToken = typeof accountTokens.$inferSelect;
export type OutboxMessage = typeof outboxMessages.$inferSelect;
export type OneTimeCode = typeof oneTimeCodes.$inferSelect;
export type RecoveryCode = typeof recoveryCodes.$inferSelect;
export type RememberedDevice = typeof rememberedDevices.$inferSelect;
export type RequestCategory = typeof requestCategories.$inferSelect;
export type MemberRequest = typeof requests.$inferSelect;
export type RequestUpdate = typeof requestUpdates.$inferSelect;
export type Blob = typeof blobs.$inferSelect;
export type SecurityEvent = typeof securityEvents.$inferSelect;
