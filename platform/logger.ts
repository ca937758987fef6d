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
 * Fields that hold secrets, and headers that carry credentials: replaced by `[redacted]` wherever
 * they appear in a logged object. Nothing should log them in the first place; this is the safety
 * net.
 */
const secretFieldNames: ReadonlySet<string> = new Set([
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
  'set-cookie',
  'mfa-token',
  'x-xsrf-token',
  'proxy-authorization',
]);
const censor = '[redacted]';
/** Deeper than any object this code logs; what lies below is written as it is. */
const deepestCensoredLevel = 8;

/** Objects whose fields are looked through: plain ones, arrays and errors (whose fields pino writes). */
function isLookedThrough(value: object): boolean {
  if (Array.isArray(value) || value instanceof Error) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A shallow copy that is still what it was: an error stays an error of its kind, for pino's serializer. */
function shallowCopy(value: object): Record<string, unknown> {
  if (Array.isArray(value)) return [...(value as unknown[])] as unknown as Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string,
    unknown
  >;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(value));
  // An error's stack is read through an accessor bound to the original; the copy keeps its text.
  if (value instanceof Error) {
    Object.defineProperty(copy, 'stack', {
      value: value.stack,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
 * `value` with every secret-named field, at any depth, replaced by `[redacted]`. Objects are
 * copied only where something in them is replaced, so that a log line without secrets (a
 * request's, on every request) costs a walk and nothing more.
 */
export function withoutSecrets<T>(value: T, level = 0): T {
  if (typeof value !== 'object' || value === null || level > deepestCensoredLevel) return value;
  if (!isLookedThrough(value)) return value;
  const fields = value as Record<string, unknown>;
  const names = value instanceof Error ? [...Object.keys(value), 'cause'] : Object.keys(value);
  let copy: Record<string, unknown> | undefined;
  for (const name of names) {
    const field = fields[name];
    if (field === undefined) continue;
    const written = secretFieldNames.has(name) ? censor : withoutSecrets(field, level + 1);
    if (written === field) continue;
    copy ??= shallowCopy(value);
    copy[name] = written;
  }
  return (copy ?? value) as T;
}

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
      formatters: { level: (label) => ({ level: label }), log: withoutSecrets },
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
