import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { timestampWithZone } from './columns.ts';

/**
 * Company sign-in: a company's own identity provider, the email domains it claims, the sign-ins
 * under way and the members it has signed in (docs/PRODUCT.md §15).
 */

export const COMPANY_SIGN_IN_PROTOCOLS = ['oidc', 'saml'] as const;
export type CompanySignInProtocol = (typeof COMPANY_SIGN_IN_PROTOCOLS)[number];

/** A company's identity provider: one per company. */
export const companyConnections = pgTable(
  'company_connections',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .unique()
      .references(() => companies.id, { onDelete: 'cascade' }),
    protocol: text('protocol', { enum: COMPANY_SIGN_IN_PROTOCOLS }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Password sign-in, reset and sign-up are refused for the claimed domains' addresses. */
    signInRequired: boolean('sign_in_required').notNull().default(false),
    /**
     * The provider's proofs of a second step the company trusts in place of the portal's own
     * (`amr` values or an `acr` for OIDC, an AuthnContextClassRef for SAML); empty: the portal
     * asks for its own step as for any member.
     */
    trustedTwoStepValues: text('trusted_two_step_values')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    oidcIssuer: text('oidc_issuer'),
    oidcClientId: text('oidc_client_id'),
    /** Sealed with the API's secret key (services/company-sign-in/connection-secrets.ts). */
    oidcClientSecret: text('oidc_client_secret'),
    samlIdpEntityId: text('saml_idp_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    /** Public certificates (PEM); two while the provider rolls its key over. */
    samlIdpCertificates: text('saml_idp_certificates').array(),
    samlRequireSignedResponse: boolean('saml_require_signed_response').notNull().default(true),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    updatedAt: timestampWithZone('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check('company_connections_protocol', sql`${table.protocol} in ('oidc', 'saml')`),
    check(
      'company_connections_settings',
      sql`(${table.protocol} = 'oidc' and ${table.oidcIssuer} is not null and ${table.oidcClientId} is not null and ${table.oidcClientSecret} is not null)
        or (${table.protocol} = 'saml' and ${table.samlIdpEntityId} is not null and ${table.samlSsoUrl} is not null and ${table.samlIdpCertificates} is not null)`,
    ),
  ],
);

/** An email domain a company claims: its addresses sign in through the company's provider. */
export const companyDomains = pgTable(
  'company_domains',
  {
    /** Lower-case ASCII (IDNA), without a trailing dot. */
    domain: text('domain').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => companyConnections.id, { onDelete: 'cascade' }),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
  },
  (table) => [
    check('company_domains_lower_case', sql`${table.domain} = lower(${table.domain})`),
    index('company_domains_connection_id_index').on(table.connectionId),
  ],
);

/**
 * A sign-in sent to a company's provider and not finished: good for one answer within 10
 * minutes, and only in the browser holding its token (kept hashed). The provider's answer is
 * written here when an existing member must prove their password before the link is made.
 */
export const companySignIns = pgTable(
  'company_sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => companyConnections.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the browser's token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** Where the browser is sent: the provider's authorization or SSO address. */
    redirectUrl: text('redirect_url').notNull(),
    oidcState: text('oidc_state'),
    oidcNonce: text('oidc_nonce'),
    oidcCodeVerifier: text('oidc_code_verifier'),
    samlRequestId: text('saml_request_id').unique(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    expiresAt: timestampWithZone('expires_at').notNull(),
    /** Set once, when the provider's answer arrives: a second answer is refused. */
    answeredAt: timestampWithZone('answered_at'),
    /**
     * What the provider asserted, kept for the browser's next step: a SAML answer comes to the
     * assertion consumer without the browser's cookie, which the completion then brings; and an
     * existing member proves their password before the link is made.
     */
    assertedSubject: text('asserted_subject'),
    assertedEmail: text('asserted_email'),
    assertedGivenName: text('asserted_given_name'),
    assertedFamilyName: text('asserted_family_name'),
    assertedTwoStep: boolean('asserted_two_step'),
    /** The asserted address has an account: its password links it. */
    linkRequired: boolean('link_required').notNull().default(false),
    /** Set when the sign-in started a session: nothing more can be done with it. */
    finishedAt: timestampWithZone('finished_at'),
  },
  (table) => [index('company_sign_ins_expires_at_index').on(table.expiresAt)],
);

/** A member signed in by a company's provider: the provider's subject, never the address alone. */
export const companyIdentities = pgTable(
  'company_identities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => companyConnections.id, { onDelete: 'cascade' }),
    /** The OIDC `sub` or the SAML NameID. */
    subject: text('subject').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    lastUsedAt: timestampWithZone('last_used_at').notNull().defaultNow(),
  },
  (table) => [
    unique('company_identities_connection_subject').on(table.connectionId, table.subject),
    unique('company_identities_user_connection').on(table.userId, table.connectionId),
  ],
);

/** SAML assertions already used, kept until they expire: an assertion is good for one sign-in. */
export const usedSamlAssertions = pgTable(
  'used_saml_assertions',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => companyConnections.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestampWithZone('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.assertionId] }),
    index('used_saml_assertions_expires_at_index').on(table.expiresAt),
  ],
);

export type CompanyConnection = typeof companyConnections.$inferSelect;
export type CompanySignIn = typeof companySignIns.$inferSelect;
