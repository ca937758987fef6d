import { z } from 'zod';
import {
  booleanSetting,
  choiceSetting,
  hostSetting,
  isLoopbackHost,
  mebibytesSetting,
  millisecondsSetting,
  originListSetting,
  originSetting,
  parseSettings,
  portSetting,
  servesProduction,
  smtpUrlSetting,
  secretKeySetting,
  trustedProxiesSetting,
} from '../../platform/settings.ts';
import type { TrustedProxies } from '../../platform/trusted-proxies.ts';
import { INTERNAL_COMPANY_NAMES } from '../../platform/internal-companies.ts';
import { logLevels } from '../../platform/logger.ts';
import { builtCommit } from './built-commit.ts';
import { readS3Settings, type S3Settings } from '../../platform/s3-settings.ts';

/**
 * Runtime configuration of the web server, read once from the environment.
 * Every variable is documented with its default in the README. A bad value
 * stops the server at start-up with a message naming the variable.
 */
const environmentSchema = z.object({
  NODE_ENV: z.string().optional(),
  HOST: hostSetting('127.0.0.1'),
  PORT: portSetting(4321),
  PUBLIC_ORIGIN: originSetting(undefined),
  CONTENT_EDITOR_ORIGIN: originSetting(undefined, 'https://editor.portal.example.com'),
  ALLOW_INSECURE_HTTP: booleanSetting(false),
  TRUSTED_PROXIES: trustedProxiesSetting,
  API_ORIGIN: originSetting(undefined, 'http://127.0.0.1:3000'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Unset: on for a server only this machine reaches, off for production (servesProduction).
  SEED_DEMO_DATA: booleanSetting(undefined),
  DEMO_COMPANY_SIGN_IN: booleanSetting(true),
  PRODUCTION_WEB_ORIGINS: originListSetting,
  PRODUCTION_API_ORIGINS: originListSetting,
  KIT_GALLERY: booleanSetting(false),
  OUTBOX_VIEWER: booleanSetting(false),
  SMTP_URL: smtpUrlSetting,
  MAIL_FROM: z.string().trim().max(200).optional(),
  STORAGE_SECRET: secretKeySetting,
  FACTOR_SECRET_KEY: secretKeySetting,
  // Read by the logger itself (platform/logger.ts); checked here so that a typo stops the start.
  LOG_LEVEL: choiceSetting(logLevels, undefined),
  SHUTDOWN_TIMEOUT_MS: millisecondsSetting(25_000),
  API_TIMEOUT_MS: millisecondsSetting(10_000),
  MEMBER_PAGE_CACHE_MB: mebibytesSetting(32),
  SENTRY_DSN: z
    .url({ message: 'must be the DSN the error-reporting service gives, like https://key@host/1' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SENTRY_ENVIRONMENT: z.string().trim().max(64).default('production'),
  SENTRY_RELEASE: z.string().trim().max(200).optional(),
  INTERNAL_COMPANY_NAMES: z.string().optional(),
});

export interface WebConfig {
  readonly host: string;
  readonly port: number;
  /** The public address of this site; decides Secure cookies and the `__Host-` prefix. */
  readonly publicOrigin: string | undefined;
  readonly secureCookies: boolean;
  /**
   * The address the content editor is served at in GitHub mode, on a host of its own
   * (src/server/content-editor-host.ts); unset without GitHub mode.
   */
  readonly contentEditorOrigin: string | undefined;
  /** The operator's explicit consent to serve other machines over plain HTTP. */
  readonly allowInsecureHttp: boolean;
  /** Proxies whose `X-Forwarded-For` this server believes. */
  readonly trustedProxies: TrustedProxies;
  /** Set: call that API over HTTP. Unset: the embedded reference API, in-process. */
  readonly apiOrigin: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly sessionSecret: string | undefined;
  /** Seed the demo accounts: SEED_DEMO_DATA, else on unless serving for production. */
  readonly seedDemoData: boolean;
  /**
   * Start the demo company's development identity provider with the server: DEMO_COMPANY_SIGN_IN
   * (default on) with the demo data, and never when serving for production.
   */
  readonly demoCompanySignIn: boolean;
  /** Reached over https or by other machines (platform/settings.ts `servesProduction`). */
  readonly servesProduction: boolean;
  readonly productionWebOrigins: readonly string[];
  readonly productionApiOrigins: readonly string[];
  readonly kitGallery: boolean;
  /** Serve /dev/outbox, every email and text with its links (development and tests only). */
  readonly outboxViewer: boolean;
  /** Deliver emails over SMTP; unset, they stay in the outbox. */
  readonly smtpUrl: string | undefined;
  /** The From header of emails; the API's default when unset. */
  readonly mailFrom: string | undefined;
  /** Signs the embedded API's file addresses; unset, a key kept in the data directory. */
  readonly storageSecret: string | undefined;
  /** Seals second factors' secrets in the embedded API; unset, a key kept in the data directory. */
  readonly factorSecretKey: string | undefined;
  /** Members' files in an S3-compatible bucket (`S3_*`); unset, on local disk in the data directory. */
  readonly s3: S3Settings | undefined;
  /**
   * How long a stopping server (SIGTERM) waits for the requests in flight and the embedded API's
   * work in flight before it exits anyway.
   */
  readonly shutdownTimeoutMs: number;
  /** How long a call to the API may take before the page gives up on it (503); 0: no limit. */
  readonly apiTimeoutMs: number;
  /**
   * How many bytes of members' compressed pages the server keeps to serve again while their
   * data is unchanged (src/server/member-pages/member-page-cache.ts); 0: none are kept.
   */
  readonly memberPageCacheBytes: number;
  /** Error reporting (SENTRY_*); unset without a DSN, and then nothing of it loads anywhere. */
  readonly monitoring: MonitoringSettings | undefined;
  /** Members of these companies are internal staff (reported with `internal: true`). */
  readonly internalCompanyNames: readonly string[];
}

export interface MonitoringSettings {
  readonly dsn: string;
  readonly environment: string;
  /** SENTRY_RELEASE, else the commit the build was made from, if known. */
  readonly release: string | undefined;
}

export function parseConfig(environment: Record<string, string | undefined>): WebConfig {
  const env = parseSettings(environmentSchema, environment);
  const publicOrigin = env.PUBLIC_ORIGIN;
  const production = servesProduction(publicOrigin, env.HOST);
  const seedDemoData = env.SEED_DEMO_DATA ?? !production;
  return {
    host: env.HOST,
    port: env.PORT,
    publicOrigin,
    secureCookies: publicOrigin?.startsWith('https:') ?? false,
    contentEditorOrigin: env.CONTENT_EDITOR_ORIGIN,
    allowInsecureHttp: env.ALLOW_INSECURE_HTTP,
    trustedProxies: env.TRUSTED_PROXIES,
    apiOrigin: env.API_ORIGIN,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR,
    sessionSecret: env.SESSION_SECRET,
    seedDemoData,
    demoCompanySignIn: env.DEMO_COMPANY_SIGN_IN && seedDemoData && !production,
    servesProduction: production,
    productionWebOrigins: env.PRODUCTION_WEB_ORIGINS,
    productionApiOrigins: env.PRODUCTION_API_ORIGINS,
    kitGallery: env.KIT_GALLERY || env.NODE_ENV === 'development',
    outboxViewer: env.OUTBOX_VIEWER || env.NODE_ENV === 'development',
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM || undefined,
    storageSecret: env.STORAGE_SECRET,
    factorSecretKey: env.FACTOR_SECRET_KEY,
    s3: readS3Settings(environment),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    apiTimeoutMs: env.API_TIMEOUT_MS,
    memberPageCacheBytes: env.MEMBER_PAGE_CACHE_MB * 1024 * 1024,
    monitoring: env.SENTRY_DSN
      ? {
          dsn: env.SENTRY_DSN,
          environment: env.SENTRY_ENVIRONMENT || 'production',
          release: env.SENTRY_RELEASE || builtCommit(),
        }
      : undefined,
    internalCompanyNames:
      env.INTERNAL_COMPANY_NAMES === undefined
        ? INTERNAL_COMPANY_NAMES
        : env.INTERNAL_COMPANY_NAMES.split(',')
            .map((name) => name.trim())
            .filter(Boolean),
  };
}

/**
 * Serving a production build to other machines over plain HTTP would send the session cookie
 * without Secure, without the `__Host-` prefix and without HSTS. Returns why the server must not
 * start, if it must not: without an https `PUBLIC_ORIGIN`, only a site that only this machine
 * reaches (a loopback `HOST`, and a loopback `PUBLIC_ORIGIN` if any) may be served, unless the
 * operator opts out with `ALLOW_INSECURE_HTTP=true`.
 */
export function insecureServingProblem(config: WebConfig): string | undefined {
  if (config.secureCookies || config.allowInsecureHttp) return undefined;
  const publicHost = config.publicOrigin && new URL(config.publicOrigin).hostname;
  const servedTo = publicHost && !isLoopbackHost(publicHost) ? publicHost : config.host;
  if (isLoopbackHost(servedTo)) return undefined;
  return (
    `Refusing to serve ${servedTo} over plain HTTP: set PUBLIC_ORIGIN to the site's https ` +
    'address (e.g. PUBLIC_ORIGIN=https://portal.example.com), or, for a trial on a private ' +
    'network only, ALLOW_INSECURE_HTTP=true.'
  );
}

/**
 * Outside the known production origins, the product must not talk to a production API. Returns the
 * warning to print, if any.
 */
export function productionApiWarning(config: WebConfig): string | undefined {
  const { apiOrigin, publicOrigin, productionApiOrigins, productionWebOrigins } = config;
  if (!apiOrigin || !productionApiOrigins.includes(apiOrigin)) return undefined;
  if (publicOrigin && productionWebOrigins.includes(publicOrigin)) return undefined;
  return (
    `WARNING: API_ORIGIN ${apiOrigin} is a production API, but this server ` +
    `(${publicOrigin ?? 'no PUBLIC_ORIGIN'}) is not a known production origin. ` +
    'Using production from a development or test server is forbidden.'
  );
}

let cached: WebConfig | undefined;

/**
 * The address to open this server at on this machine, as it says when it is ready. A server on
 * loopback (or on every address) is `http://localhost:<port>`, not `http://127.0.0.1:<port>`:
 * browsers refuse an IP address as a passkey's site, and the portal gives its passkeys to
 * `localhost` (api/services/factors/passkey-ceremonies.ts), so only that name signs in with one.
 */
export function localAddress(config: Pick<WebConfig, 'host' | 'port'>): string {
  const everyAddress = config.host === '0.0.0.0' || config.host === '::';
  const host = everyAddress || isLoopbackHost(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * The site's address as a visitor reaches it: `PUBLIC_ORIGIN`, else this server's own address on
 * this machine ({@link localAddress}). Links in emails start with it, never with a request's Host
 * header.
 */
export function siteOrigin(config: WebConfig): string {
  return config.publicOrigin ?? localAddress(config);
}

/** The configuration of this process. */
export function config(): WebConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
