import { z } from 'zod';

/**
 * Runtime configuration of the web server, read once from the environment.
 * Every variable is documented with its default in the README. A bad value
 * stops the server at start-up with a message naming the variable.
 */
const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) =>
      value === undefined || value === '' ? fallback : value === 'true' || value === '1',
    );

const originList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean)
      .map((origin) => new URL(origin).origin),
  );

const environmentSchema = z.object({
  NODE_ENV: z.string().optional(),
  PUBLIC_ORIGIN: z.url().optional(),
  API_ORIGIN: z.url().optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  SEED_DEMO_DATA: booleanFlag(true),
  PRODUCTION_WEB_ORIGINS: originList,
  PRODUCTION_API_ORIGINS: originList,
  KIT_GALLERY: booleanFlag(false),
});

export interface WebConfig {
  /** The public address of this site; decides Secure cookies and the `__Host-` prefix. */
  readonly publicOrigin: string | undefined;
  readonly secureCookies: boolean;
  /** Set: call that API over HTTP. Unset: the embedded reference API, in-process. */
  readonly apiOrigin: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly sessionSecret: string | undefined;
  readonly seedDemoData: boolean;
  readonly productionWebOrigins: readonly string[];
  readonly productionApiOrigins: readonly string[];
  readonly kitGallery: boolean;
}

export function parseConfig(environment: Record<string, string | undefined>): WebConfig {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data;
  const publicOrigin = env.PUBLIC_ORIGIN ? new URL(env.PUBLIC_ORIGIN).origin : undefined;
  return {
    publicOrigin,
    secureCookies: publicOrigin?.startsWith('https:') ?? false,
    apiOrigin: env.API_ORIGIN ? new URL(env.API_ORIGIN).origin : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR,
    sessionSecret: env.SESSION_SECRET,
    seedDemoData: env.SEED_DEMO_DATA,
    productionWebOrigins: env.PRODUCTION_WEB_ORIGINS,
    productionApiOrigins: env.PRODUCTION_API_ORIGINS,
    kitGallery: env.KIT_GALLERY || env.NODE_ENV === 'development',
  };
}

/**
 * SPEC.md §7: outside the known production origins, the product must not talk
 * to a production API. Returns the warning to print, if any.
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

/** The configuration of this process. */
export function config(): WebConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
