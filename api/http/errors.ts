import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorMessage } from '../../contract/error-messages.ts';

/**
 * The one error shape of the API: `{"error": "<message for people>"}`, plus `field` when the
 * refusal is about one input, named in the request's own notation (e.g. `user.email`), so that a
 * form can show the message under that field.
 */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  field?: string,
): Response {
  return c.json(field === undefined ? { error: message } : { error: message, field }, status);
}

/**
 * The refusal of a wrong current password, under its field: for every change a signed-in member
 * proves with it.
 */
export function wrongCurrentPasswordResponse(c: Context): Response {
  return errorResponse(c, 422, ErrorMessage.wrongCurrentPassword, 'user.current_password');
}
