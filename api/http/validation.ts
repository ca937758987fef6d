import { zValidator } from '@hono/zod-validator';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { errorResponse } from './errors.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uuid: 'a UUID',
  url: 'a URL',
};

/** The value at `path` inside `data`, or undefined when any step of the path is missing. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Turns a validation problem into one sentence that names the field by its path, e.g.
 * "user.email must be an email address.", so that a client developer knows what to fix.
 * `body` is the request body as received: it tells a missing field from a wrong-typed one.
 */
export function describeValidationIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const field = issue.path.map(String).join('.');
  if (field === '') return 'Request body must be a JSON object.';
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(body, issue.path) === undefined) return `${field} is required.`;
      return `${field} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
    case 'invalid_format':
      return `${field} must be ${FORMAT_NAMES[issue.format] ?? `in ${issue.format} format`}.`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? `${field} must not be empty.`
          : `${field} must be at least ${issue.minimum} characters.`;
      }
      return `${field} must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') {
        return `${field} must be at most ${issue.maximum} characters.`;
      }
      if (issue.origin === 'array') {
        return `${field} must have at most ${issue.maximum} ${Number(issue.maximum) === 1 ? 'item' : 'items'}.`;
      }
      return `${field} must be at most ${issue.maximum}.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'custom':
      // Refinements say what the value must be, e.g. `must be a media type such as image/png`.
      return `${field} ${issue.message}.`;
    default:
      return `${field} is invalid.`;
  }
}

/**
 * The input a validation problem is about, in the request's notation (`user.email`), for the
 * `field` of the refusal; undefined for the body as a whole. A problem with one item of a list
 * names the list (`user.help_topics`, not `user.help_topics.2`): that is the form's field.
 */
export function validationIssueField(issue: z.core.$ZodIssue): string | undefined {
  const firstIndex = issue.path.findIndex((key) => typeof key !== 'string');
  const path = firstIndex < 0 ? issue.path : issue.path.slice(0, firstIndex);
  const field = path.map(String).join('.');
  return field === '' ? undefined : field;
}

/**
 * Whether a string can be stored and read back as it was sent: PostgreSQL's text holds no
 * U+0000, and a surrogate without its pair has no UTF-8 form (the driver would store U+FFFD in
 * its place).
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * The path of the first string in a parsed JSON value that is not storable text (see
 * {@link isStorableText}), or undefined when every string is.
 */
export function findUnstorableText(
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [...path];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The refusal of a body with unstorable text: the field named as a form knows it (the list, not its item). */
function describeUnstorableText(path: readonly (string | number)[]): {
  message: string;
  field: string | undefined;
} {
  const firstIndex = path.findIndex((key) => typeof key !== 'string');
  const field = (firstIndex < 0 ? path : path.slice(0, firstIndex)).map(String).join('.');
  if (field === '') return { message: 'Request body must be a JSON object.', field: undefined };
  return {
    message: `${field} must not contain the character U+0000 or an unpaired surrogate.`,
    field,
  };
}

interface JsonBodyOptions {
  /**
   * Builds the refusal (400 or 415) from its status, sentence and the field at fault (see
   * {@link validationIssueField}); default `errorResponse`, the API's `{"error": …, "field": …}`.
   * For routes whose contract adds another shape.
   */
  refuse?: (c: Context, status: 400 | 415, message: string, field?: string) => Response;
}

/**
 * Validates a JSON request body against a zod schema. Answers 415 when the body is not declared
 * as JSON, 400 "Malformed JSON body." when it does not parse, and 400 naming the first invalid
 * field otherwise (in the sentence and in `field`), including text that cannot be stored as sent
 * (see {@link isStorableText}); the handler reads the parsed value with `c.req.valid('json')`.
 */
export function jsonBody<Schema extends z.ZodType>(schema: Schema, options: JsonBodyOptions = {}) {
  const refuse = options.refuse ?? errorResponse;
  const validate = zValidator('json', schema, (result, c) => {
    if (result.success) return undefined;
    const [firstIssue] = result.error.issues;
    if (!firstIssue) return refuse(c, 400, 'Invalid request body.');
    return refuse(
      c,
      400,
      describeValidationIssue(firstIssue, result.data),
      validationIssueField(firstIssue),
    );
  });
  type ValidatedInput =
    typeof validate extends MiddlewareHandler<Env, string, infer Input> ? Input : never;
  const middleware: MiddlewareHandler<Env, string, ValidatedInput> = async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      return refuse(c, 415, ErrorMessage.unsupportedMediaType);
    }
    let body: unknown;
    try {
      // Parsed once here to answer in our own words; Hono caches the body for the validator.
      body = await c.req.json();
    } catch {
      return refuse(c, 400, ErrorMessage.malformedJson);
    }
    // Before the schema, for every field alike: such text would fail in the database (500) or
    // come back changed.
    const unstorable = findUnstorableText(body);
    if (unstorable) {
      const { message, field } = describeUnstorableText(unstorable);
      return refuse(c, 400, message, field);
    }
    return validate(c, next);
  };
  return middleware;
}

/**
 * Validates the query string against a zod schema of strings; an invalid parameter answers 400
 * naming it (`{"error": "page must be …", "field": "page"}`). The handler reads the parsed value
 * with `c.req.valid('query')`.
 */
export function queryParameters<Schema extends z.ZodType>(schema: Schema) {
  return zValidator('query', schema, (result, c) => {
    if (result.success) return undefined;
    const [firstIssue] = result.error.issues;
    if (!firstIssue) return errorResponse(c, 400, ErrorMessage.badRequest);
    return errorResponse(
      c,
      400,
      describeValidationIssue(firstIssue, result.data),
      validationIssueField(firstIssue),
    );
  });
}

/**
 * A password as typed into a sign-in or given as the current one: long enough for any real
 * password, short enough that argon2 is never fed megabytes.
 */
export const passwordInput = z.string().min(1).max(1024);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID (the ids of requests, notes and files). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * Admits only a path whose parameter `name` is a UUID. Anything else answers 404 "Not found.",
 * exactly like an id that exists but is not the member's own, and never reaches the database.
 */
export function uuidParameter(name: string): MiddlewareHandler {
  return async (c, next) => {
    if (!isUuid(c.req.param(name) ?? '')) return errorResponse(c, 404, ErrorMessage.notFound);
    await next();
    return undefined;
  };
}
