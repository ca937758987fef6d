import { isIP } from 'node:net';
import { z } from 'zod';
import { TrustedProxies } from './trusted-proxies.ts';

/**
 * The parsers of the environment variables that both servers read (the web server in
 * src/server/config.ts, the stand-alone API in api/serve.ts), so that a variable means the same
 * thing wherever it is read. Every variable is documented with its default in the README.
 */

/** A bad setting: the message names the variable and says what it must be. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/**
 * `true`/`false` (or `1`/`0`), any case; empty or unset means the default (`undefined` for a
 * setting whose default depends on others).
 */
export const booleanSetting = <Fallback extends boolean | undefined>(fallback: Fallback) =>
  z
    .string()
    .optional()
    .transform((value, context): boolean | Fallback => {
      const normalised = value?.trim().toLowerCase() ?? '';
      if (normalised === '') return fallback;
      if (normalised === 'true' || normalised === '1') return true;
      if (normalised === 'false' || normalised === '0') return false;
      context.addIssue({ code: 'custom', message: `must be true or false, not "${value ?? ''}"` });
      return z.NEVER;
    });

const wholeNumber = (fallback: number, minimum: number, maximum: number, what: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return fallback;
      const number = Number(value);
      if (!Number.isInteger(number) || number < minimum || number > maximum) {
        context.addIssue({ code: 'custom', message: `must be ${what}, not "${value}"` });
        return z.NEVER;
      }
      return number;
    });

export const portSetting = (fallback: number) =>
  wholeNumber(fallback, 0, 65_535, 'a port number (0 to 65535)');

/**
 * The proxies the operator runs in front of the server, by address or network
 * (`10.0.0.0/8,::1`, `loopback`), whose `X-Forwarded-For` is believed.
 * Empty or unset: none, and the socket address is the client's.
 */
export const trustedProxiesSetting = z
  .string()
  .optional()
  .transform((value, context) => {
    const parsed = TrustedProxies.parse(value ?? '');
    if (parsed instanceof TrustedProxies) return parsed;
    context.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  });

/** A size in mebibytes, from 0 to 4096. */
export const mebibytesSetting = (fallback: number) =>
  wholeNumber(fallback, 0, 4096, 'a number of mebibytes from 0 to 4096');

/** A duration in milliseconds, from 0 to an hour. */
export const millisecondsSetting = (fallback: number) =>
  wholeNumber(fallback, 0, 3_600_000, 'a number of milliseconds from 0 to 3600000');

/** An address to listen on: an IP address or `localhost`. */
export const hostSetting = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      const host = value?.trim() || fallback;
      if (host !== 'localhost' && isIP(host) === 0) {
        context.addIssue({
          code: 'custom',
          message: `must be an IP address or localhost, not "${host}"`,
        });
        return z.NEVER;
      }
      return host;
    });

/** Whether an address (or a URL's host name, `[::1]`) is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * A server set up for production: reached over https (its public origin), or by other machines
 * (it listens on more than loopback). There, what serves development alone and would hand
 * members' accounts to anyone (demo accounts with a published password, the outbox viewer with
 * every reset link and code) is off unless its setting names it.
 */
export function servesProduction(publicOrigin: string | undefined, host: string): boolean {
  return publicOrigin?.startsWith('https:') === true || !isLoopbackHost(host);
}

/**
 * The one line a production server prints at start-up about those development conveniences:
 * that they are off, or a warning naming each one its settings turned on.
 */
export function productionConveniencesLine(on: {
  readonly demoData: boolean;
  readonly outboxViewer: boolean;
}): string {
  const named = [
    ...(on.demoData ? ['demo accounts with the published password (SEED_DEMO_DATA=true)'] : []),
    ...(on.outboxViewer ? ['every reset link and texted code to read (OUTBOX_VIEWER=true)'] : []),
  ];
  if (named.length === 0) {
    return 'Serving for production: no demo accounts, no outbox viewer (docs/OPERATIONS.md).';
  }
  return `WARNING: serving for production with ${named.join(' and ')}: anyone who reaches it can use them.`;
}

/**
 * The origin (`scheme://host[:port]`) of an http or https address, or undefined when `value` is
 * not one. A trailing slash is accepted; a path, query, fragment or credentials are not.
 */
export function parseOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    return undefined;
  }
  return url.origin;
}

/**
 * An http(s) origin such as `https://portal.example.com` (see {@link parseOrigin}); empty or
 * unset means the default (`undefined` for a setting that is off unless set).
 */
export const originSetting = <Fallback extends string | undefined>(
  fallback: Fallback,
  example = 'https://portal.example.com',
) =>
  z
    .string()
    .optional()
    .transform((value, context): string | Fallback => {
      const text = value?.trim() ?? '';
      if (text === '') return fallback;
      const origin = parseOrigin(text);
      if (origin === undefined) {
        context.addIssue({
          code: 'custom',
          message: `must be an http or https origin such as ${example}, not "${text}"`,
        });
        return z.NEVER;
      }
      return origin;
    });

/** Comma-separated http(s) origins, each as {@link originSetting} reads one; empty or unset: none. */
export const originListSetting = z
  .string()
  .optional()
  .transform((value, context) => {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const origins = entries.map(parseOrigin);
    const bad = entries.find((_entry, index) => origins[index] === undefined);
    if (bad !== undefined) {
      context.addIssue({
        code: 'custom',
        message: `must list http or https origins, comma-separated, such as https://portal.example.com,https://admin.example.com, not "${bad}"`,
      });
      return z.NEVER;
    }
    return origins.filter((origin) => origin !== undefined);
  });

/**
 * One of `choices`, in any case (as the logger reads LOG_LEVEL); empty or unset means the
 * default.
 */
export const choiceSetting = <const Choice extends string, Fallback extends Choice | undefined>(
  choices: readonly Choice[],
  fallback: Fallback,
) =>
  z
    .string()
    .optional()
    .transform((value, context): Choice | Fallback => {
      const normalised = value?.trim().toLowerCase() ?? '';
      if (normalised === '') return fallback;
      const chosen = choices.find((choice) => choice.toLowerCase() === normalised);
      if (chosen !== undefined) return chosen;
      const listed =
        choices.length > 1
          ? `one of ${choices.slice(0, -1).join(', ')} or ${choices.at(-1) ?? ''}`
          : (choices[0] ?? '');
      context.addIssue({ code: 'custom', message: `must be ${listed}, not "${value ?? ''}"` });
      return z.NEVER;
    });

/**
 * An SMTP server as `smtp://user:pass@host:587` or `smtps://user:pass@host:465`; empty or unset
 * means none. A bad value is not repeated in the message: it may hold a password.
 */
export const smtpUrlSetting = z
  .string()
  .optional()
  .transform((value, context) => {
    const text = value?.trim() ?? '';
    if (text === '') return undefined;
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
      context.addIssue({
        code: 'custom',
        message:
          'must be a URL such as smtp://user:password@smtp.example.com:587 or smtps://… (the value is not shown: it may hold a password)',
      });
      return z.NEVER;
    }
    return text;
  });

/**
 * A key the operator may set (STORAGE_SECRET, FACTOR_SECRET_KEY): at least 32 characters; empty
 * or unset means the default each one documents. A bad value is not repeated in the message: it
 * is a secret.
 */
export const secretKeySetting = z
  .string()
  .optional()
  .transform((value, context) => {
    const text = value?.trim() ?? '';
    if (text === '') return undefined;
    if (text.length < 32) {
      context.addIssue({ code: 'custom', message: 'must be at least 32 characters' });
      return z.NEVER;
    }
    return text;
  });

/**
 * Reads `environment` with `schema`; a bad value throws a {@link ConfigurationError} whose
 * message names every variable that is wrong.
 */
export function parseSettings<Schema extends z.ZodType>(
  schema: Schema,
  environment: Record<string, string | undefined>,
): z.output<Schema> {
  const parsed = schema.safeParse(environment);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.')} ${issue.message}`)
    .join('; ');
  throw new ConfigurationError(`Invalid configuration: ${problems}.`);
}
