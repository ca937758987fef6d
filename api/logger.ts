import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';

/**
 * Structured logs: one JSON object per line on standard output, with the request id of the
 * request being served on every line written while serving it. The web server and the API (in
 * its process or on its own) share this module.
 */

interface RequestContext {
  readonly requestId: string;
  /** SQL statements sent for this request so far, by the embedded API or the API's own server. */
  databaseStatements: number;
  /**
   * When present, each statement itself with its parameters, in order: for a test that asks the
   * database how it runs a journey's statements (tests/api/query-plans.test.ts).
   */
  readonly statementLog?: { query: string; params: unknown[] }[];
}

/**
 * The production entry point (scripts/start.mjs) loads this file as it is, and the server build
 * bundles its own copy; both must see the same request, so the store lives on the global object.
 */
const sharedByBothCopies = globalThis as unknown as Record<symbol, unknown>;
const storeKey = Symbol.for('member-portal.request-context');
const requestContext = ((sharedByBothCopies[storeKey] as
  AsyncLocalStorage<RequestContext> | undefined) ??= new AsyncLocalStorage<RequestContext>());

/** The request id a request's answer carries (`X-Request-Id`) and its log lines repeat. */
export const requestIdHeader = 'x-request-id';

/** The request id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Runs `work` (and everything it starts) as part of the request with this id. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestContext.run({ requestId, databaseStatements: 0 }, work);
}

/** The request being served, to carry on with it where an event loses track (a socket's close). */
export function currentRequestContext(): RequestContext | undefined {
  return requestContext.getStore();
}

/** Runs `work` as part of a request already started (see `currentRequestContext`). */
export function withRequestContext<T>(context: RequestContext, work: () => T): T {
  return requestContext.run(context, work);
}

/**
 * Counts one SQL statement against the request being served. The database clients call it for
 * every statement (api/db/client.ts), so a request's log line says how many its page cost.
 */
export function countDatabaseStatement(query: string, params: unknown[]): void {
  const context = requestContext.getStore();
  if (!context) return;
  context.databaseStatements += 1;
  context.statementLog?.push({ query, params });
}

/** A new request id: a random UUID, short enough to read out over the phone in part. */
export function newRequestId(): string {
  return randomUUID();
}

const acceptableRequestId = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request id a trusted proxy in front already gave this request (its `X-Request-Id`), when it
 * looks like one; otherwise a new one. Unless the caller (the socket) is a trusted proxy, the
 * header came from the visitor and is ignored: a member quotes the id, and nobody else may
 * choose it.
 */
export function requestIdFor(header: string | null | undefined, fromTrustedProxy: boolean): string {
  if (fromTrustedProxy && header && acceptableRequestId.test(header)) return header;
  return newRequestId();
}

/** Log levels LOG_LEVEL accepts. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/**
 * Fields that hold secrets wherever they appear in a logged object (one or two levels down, and
 * in request headers). Nothing should log them in the first place; this is the safety net.
 */
const secretKeys = [
  'password',
  'password_confirmation',
  'current_password',
  'code',
  'otp',
  'token',
  'mfaToken',
  'mfa_token',
  'resetToken',
  'reset_password_token',
  'unlockToken',
  'unlock_token',
  'secret',
  'sessionSecret',
  'authorization',
  'cookie',
];
const secretHeaders = [
  'authorization',
  'cookie',
  'set-cookie',
  'mfa-token',
  'x-xsrf-token',
  'proxy-authorization',
];
export const redactedPaths = [
  ...secretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  ...secretHeaders.flatMap((header) => [
    `headers["${header}"]`,
    `*.headers["${header}"]`,
    `req.headers["${header}"]`,
  ]),
];

function levelFromEnvironment(): LogLevel {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase();
  return logLevels.find((known) => known === level) ?? 'info';
}

/** A logger writing to `destination` (standard output by default), for tests and the process. */
export function createLogger(
  destination?: pino.DestinationStream,
  level: LogLevel = levelFromEnvironment(),
): Logger {
  return pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactedPaths, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    destination,
  );
}

const loggerKey = Symbol.for('member-portal.logger');

/** The process's logger (LOG_LEVEL, default `info`), one for both copies of this module. */
export const logger: Logger = ((sharedByBothCopies[loggerKey] as Logger | undefined) ??=
  createLogger());

/**
 * A path fit for a log line: no query string (signed addresses carry their signature there), and
 * the tokens that some addresses carry in their path (reset and unlock links, storage addresses)
 * replaced by `[redacted]`.
 */
export function loggablePath(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0] ?? '';
  return pathname
    .replace(/^\/reset-password\/[^/]+/, '/reset-password/[redacted]')
    .replace(/^\/unlock\/[^/]+/, '/unlock/[redacted]')
    .replace(/^\/[^/]+\/unlock(?=\/|$)/, '/[redacted]/unlock')
    .replace(/^\/storage\/([^/]+)\/[^/]+/, '/storage/$1/[redacted]');
}
