import { ActionError, type ActionErrorCode } from 'astro:actions';
import { logger } from '../../platform/logger.ts';
import { monitoring } from '../../platform/monitoring.ts';
import { ApiError } from '../server/api/client';
import { FieldFailure } from './field-failure';

const codeByStatus: Readonly<Record<number, ActionErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'CONTENT_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  // A company's identity provider did not answer the API.
  424: 'FAILED_DEPENDENCY',
  429: 'TOO_MANY_REQUESTS',
};

/**
 * Turns a failed API call into the error the visitor sees: the server's own message for a refusal,
 * else the catalogue's fallback. Server faults and anything unexpected only ever show the fallback;
 * the details go to the log, never to the page. A refusal about one input (the API names it in
 * `field`) is shown under the form field `formFields` maps it to.
 */
export function apiFailure(
  error: unknown,
  fallbackMessage: string,
  formFields: Readonly<Record<string, string>> = {},
): ActionError {
  const code = error instanceof ApiError ? codeByStatus[error.status] : undefined;
  if (error instanceof ApiError && code) {
    const formField = error.field === undefined ? undefined : formFields[error.field];
    if (formField && error.serverMessage) return new FieldFailure(formField, error.serverMessage);
    return new ActionError({ code, message: error.serverMessage ?? fallbackMessage });
  }
  logger.error({ err: error }, 'action failed');
  monitoring.reportError(error);
  return new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: fallbackMessage });
}
