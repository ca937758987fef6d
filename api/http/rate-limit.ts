import type { Context, MiddlewareHandler } from 'hono';
import { consumeRateLimit, type RateLimitRule } from '../services/rate-limits.ts';
import type { ApiDependencies } from './context.ts';
import { errorResponse, ErrorMessage } from './errors.ts';

/**
 * Counts each request against `rule` for the subject `subjectOf` names (e.g. the client
 * address) and answers 429 with `Retry-After` (seconds) once the window's limit is spent.
 */
export function rateLimit(
  { db, clock }: ApiDependencies,
  rule: RateLimitRule,
  subjectOf: (c: Context) => string,
): MiddlewareHandler {
  return async (c, next) => {
    const verdict = await consumeRateLimit(db, rule, subjectOf(c), clock.now());
    if (!verdict.allowed) {
      c.header('Retry-After', String(verdict.retryAfterSeconds));
      return errorResponse(c, 429, ErrorMessage.tooManyAttempts);
    }
    await next();
    return undefined;
  };
}
