/**
 * Network errors of the driver, and PostgreSQL's SQLSTATE classes 08 (connection exception) and
 * 57P (operator intervention: the server is shutting down or starting).
 */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);
const unavailableSqlState = /^(08|57P)/;
const driverMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

/**
 * Whether an error means the database cannot be reached right now (refused, dropped, timed out,
 * shutting down), rather than that a query was wrong. Looks through the causes drizzle wraps
 * driver errors in.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (unreachableCodes.has(code) || unavailableSqlState.test(code))
    ) {
      return true;
    }
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable))
      return true;
    if (
      driverMessages.some(
        (message) => current instanceof Error && current.message.includes(message),
      )
    ) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
