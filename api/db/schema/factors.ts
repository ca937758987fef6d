import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestampWithZone } from './columns.ts';
import { users, sessions } from './accounts.ts';

/** What the step keeps: texted codes, wrong tries, recovery codes, passkeys and their challenges. */

/** What a one-time code confirms: a new phone (enrollment) or the enrolled one (verification). */
const ONE_TIME_CODE_PURPOSES = ['enroll', 'verify'] as const;

/**
 * The codes texted for MFA: stored salted and hashed, bound to the session that asked for them,
 * valid 10 minutes, void after 5 wrong tries. Rows outlive their session (the reference is then
 * null) so that the resend limits and the account's cap on wrong codes, counted per user, cannot be
 * reset by signing in again; rows older than 24 hours are deleted when the user asks for a new
 * code, and all of a user's rows when a reset or an unlock clears the cap.
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
 * Each wrong code from an authenticator app. They count toward the account's cap on wrong codes
 * with the wrong tries of texted codes (services/factors/step.ts), and go when the pause they may
 * cause is lifted.
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
 * Recovery codes: one-time codes the member keeps for when no factor is at hand, made in sets of 10
 * (services/factors/recovery-codes.ts). Only a salted SHA-256 of each is kept: a code has 50 random
 * bits, so a hash is as good as a password hash against a stolen table, and the account's cap on
 * wrong codes bounds guessing online. Each is spent once; a new set replaces every older code, and
 * the set goes when the member's last factor does.
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

const PASSKEY_DEVICE_TYPES = ['singleDevice', 'multiDevice'] as const;

/**
 * The member's passkeys (WebAuthn credentials): each one a second factor, and, being verified by
 * the device's lock, a way to sign in without the password.
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

const WEBAUTHN_CHALLENGE_PURPOSES = ['registration', 'second_step', 'sign_in'] as const;
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

export type OneTimeCode = typeof oneTimeCodes.$inferSelect;
export type RecoveryCode = typeof recoveryCodes.$inferSelect;
