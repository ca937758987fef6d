import type { Context, MiddlewareHandler } from 'hono';
import { consumeRateLimit, type RateLimitRule } from '../services/rate-limits.ts';
import type { ApiDependencies, ApiEnv } from './context.ts';
import { errorResponse } from './errors.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

/**
 * Counts one request against `rule` for `subject` and, once the window's limit is spent, returns
 * the 429 answer with `Retry-After` (seconds) to send instead; otherwise undefined. For limits
 * whose subject comes from the validated body (e.g. the account of a reset request).
 */
export async function tooManyRequests(
  c: Context,
  { db, clock }: Pick<ApiDependencies, 'db' | 'clock'>,
  rule: RateLimitRule,
  subject: string,
): Promise<Response | undefined> {
  const verdict = await consumeRateLimit(db, rule, subject, clock.now());
  if (verdict.allowed) return undefined;
  c.header('Retry-After', String(verdict.retryAfterSeconds));
  return errorResponse(c, 429, ErrorMessage.tooManyAttempts);
}

/**
 * Counts each request against `rule` for the subject `subjectOf` names (e.g. the client
 * address) and answers 429 with `Retry-After` (seconds) once the window's limit is spent.
 */
export function rateLimit(
  dependencies: Pick<ApiDependencies, 'db' | 'clock'>,
  rule: RateLimitRule,
  subjectOf: (c: Context) => string,
): MiddlewareHandler {
  return async (c, next) => {
    const refusal = await tooManyRequests(c, dependencies, rule, subjectOf(c));
    if (refusal) return refusal;
    await next();
    return undefined;
  };
}

/**
 * {@link rateLimit} counted per signed-in member, whichever address they call from. Goes after
 * requireSession.
 */
export function rateLimitPerUser(
  dependencies: Pick<ApiDependencies, 'db' | 'clock'>,
  rule: RateLimitRule,
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const refusal = await tooManyRequests(c, dependencies, rule, String(c.get('user').id));
    if (refusal) return refusal;
    await next();
    return undefined;
  };
}
