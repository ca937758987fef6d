import type { Database } from '../db/client.ts';
import type { MemberFacts } from '../services/sign-in/member-facts.ts';
import type { Session, User } from '../db/schema/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ConnectionSecrets } from '../services/company-sign-in/connections.ts';
import type { OidcProviders } from '../services/company-sign-in/oidc.ts';
import type { FactorSecrets } from '../services/factors/factor-secrets.ts';
import type { FileStorage } from '../services/files/storage/file-storage.ts';
import type { TrustedProxies } from '../../platform/trusted-proxies.ts';

/** What every route of the API needs, handed over when the app is created. */
export interface ApiDependencies {
  db: Database;
  clock: Clock;
  /** The proxies whose `X-Forwarded-For` and `X-Request-Id` are believed (see clientAddress). */
  trustedProxies: TrustedProxies;
  /**
   * The site's public address, e.g. `https://portal.example.com`, without a trailing slash. Links
   * in emails are built from it, never from the request's Host header.
   */
  publicOrigin: string;
  /** Serve GET /api/v1/outbox, the development outbox viewer (never in production). */
  outboxViewer: boolean;
  /**
   * Where members' files live. The local driver's addresses point at this app, which then serves
   * them under `/storage` (api/routes/storage.ts); other drivers' addresses point elsewhere.
   */
  storage: FileStorage;
  /** Seals the secrets of second factors kept in the database (an authenticator app's key). */
  factorSecrets: FactorSecrets;
  /** Company sign-in: its OpenID Connect providers, and the sealing of their client secrets. */
  companySignIn: { oidc: OidcProviders; connectionSecrets: ConnectionSecrets };
}

/** Context variables set by the middleware of api/http/. */
export interface ApiEnv {
  Variables: {
    /** Set by requireSession: the caller's live session and its user. */
    session: Session;
    user: User;
    /** The name of the user's company, null for a member of none. */
    companyName: string | null;
    /** Whether the user's company requires MFA. */
    companyRequiresMfa: boolean;
    /**
     * Whether this request proves MFA for its session: the session was verified by a code and
     * the `mfa-token` header carries the token that verification issued.
     */
    mfaVerified: boolean;
    /** What else describing the member takes (GET /users/current), read with the session. */
    memberFacts: MemberFacts;
  };
}
