import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error text the API answers with. Clients show these to people (docs/PRODUCT.md §8), and the
 * web tier matches some of them exactly, e.g. "MFA authentication required".
 */
export const ErrorMessage = {
  invalidCredentials: 'Invalid email or password.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  mfaRequired: 'MFA authentication required',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  malformedJson: 'Malformed JSON body.',
  badRequest: 'Bad request.',
  unsupportedMediaType: 'Request body must be JSON (Content-Type: application/json).',
  bodyTooLarge: 'Request body too large.',
  notFound: 'Not found.',
  invalidResetToken:
    'This password reset link is invalid or has expired. Please request a new one.',
  passwordConfirmationMismatch: 'Password confirmation does not match the password.',
  invalidUnlockToken: 'This unlock link is invalid or has expired. You can request a new one.',
  internal: 'Something went wrong. Please try again later.',
} as const;

/** The one error shape of the API: `{"error": "<message for people>"}`. */
export function errorResponse(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ error: message }, status);
}
