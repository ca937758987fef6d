import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { rateLimitPerUser } from '../http/rate-limit.ts';
import { jsonBody, queryParameters, uuidParameter } from '../http/validation.ts';
import type { AttachmentProblem } from '../services/files/files.ts';
import { REQUEST_WRITES_PER_USER } from '../services/rate-limits.ts';
import { loadRequest } from '../services/requests/request-answers.ts';
import {
  addNote,
  cancelRequest,
  createRequest,
  pageOfRequests,
  type PagePosition,
} from '../services/requests/requests.ts';
import { decodeCursor, MAX_CURSOR_LENGTH } from '../services/requests/request-cursor.ts';
import {
  MAX_TITLE_LENGTH,
  MAX_DETAILS_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_ATTACHMENTS,
  isEmptyNote,
} from '../../contract/limits.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

/** An empty parameter (`?status=`) means the parameter is not there. */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** `page`: 1 when absent; pages past the last answer an empty list. */
const pageParameter = z.preprocess(
  blankAsAbsent,
  z.coerce.number().int().min(1).max(100_000).optional(),
);

/** `after` or `before`: a cursor of a page's meta (`next_cursor`, `previous_cursor`). */
const cursorParameter = z.preprocess(
  blankAsAbsent,
  z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .transform((cursor, context) => {
      const position = decodeCursor(cursor);
      if (position) return position;
      context.addIssue({ code: 'custom', message: 'must be a cursor from a page of this list' });
      return z.NEVER;
    })
    .optional(),
);

/**
 * Which page of a list (GET /requests, GET /request_categories/{id}): `page`, or, to page by
 * position, `after` or `before`; a cursor wins over `page`.
 */
export const listPositionQuery = z
  .object({ page: pageParameter, after: cursorParameter, before: cursorParameter })
  .refine((query) => query.after === undefined || query.before === undefined, {
    message: 'must not be given with after',
    path: ['before'],
  });

/** The page a valid {@link listPositionQuery} names. */
export function pagePositionOf(query: z.infer<typeof listPositionQuery>): PagePosition {
  if (query.after) return { after: query.after };
  if (query.before) return { before: query.before };
  return { page: query.page ?? 1 };
}

const listQuery = z
  .object({ status: z.preprocess(blankAsAbsent, z.enum(['open', 'closed']).optional()) })
  .and(listPositionQuery);

const attachmentIds = z.array(z.uuid()).max(MAX_ATTACHMENTS).default([]);

const createBody = z.object({
  request: z.object({
    category_id: z.string().max(100),
    title: z.string().trim().min(1).max(MAX_TITLE_LENGTH),
    details: z.string().trim().max(MAX_DETAILS_LENGTH).default(''),
    attachment_ids: attachmentIds,
  }),
});

const noteBody = z.object({
  note: z.object({
    body: z.string().trim().max(MAX_NOTE_LENGTH).default(''),
    attachment_ids: attachmentIds,
  }),
});

const ATTACHMENT_PROBLEMS: Record<AttachmentProblem, string> = {
  attachment_not_found: ErrorMessage.attachmentNotFound,
  attachment_not_uploaded: ErrorMessage.attachmentNotUploaded,
  attachment_already_attached: ErrorMessage.attachmentAlreadyAttached,
};

/**
 * A member's concierge requests: /api/v1/requests. Every route needs a session; an id that is not
 * one of the member's requests, or not a UUID at all, answers 404.
 */
export function createRequestsRoutes(dependencies: ApiDependencies) {
  const { db, clock, storage } = dependencies;
  const session = requireSession(dependencies);
  const writes = rateLimitPerUser(dependencies, REQUEST_WRITES_PER_USER);

  return new Hono<ApiEnv>()
    .get('/', session, queryParameters(listQuery), async (c) => {
      const query = c.req.valid('query');
      return c.json(
        await pageOfRequests(db, {
          userId: c.get('user').id,
          status: query.status,
          position: pagePositionOf(query),
        }),
      );
    })
    .post('/', session, jsonBody(createBody), writes, async (c) => {
      const { request } = c.req.valid('json');
      const result = await createRequest(db, clock, storage, c.get('user').id, {
        categoryId: request.category_id,
        title: request.title,
        details: request.details,
        attachmentIds: request.attachment_ids,
      });
      if (result.created) return c.json(result.request, 201);
      if (result.reason === 'unknown_category') {
        return errorResponse(c, 400, ErrorMessage.unknownCategory, 'request.category_id');
      }
      return errorResponse(c, 400, ATTACHMENT_PROBLEMS[result.reason], 'request.attachment_ids');
    })
    .get('/:id', session, uuidParameter('id'), async (c) => {
      const request = await loadRequest(db, c.get('user').id, c.req.param('id'));
      if (!request) return errorResponse(c, 404, ErrorMessage.notFound);
      return c.json(request);
    })
    .post('/:id/notes', session, uuidParameter('id'), jsonBody(noteBody), writes, async (c) => {
      const { note } = c.req.valid('json');
      if (isEmptyNote(note.body, note.attachment_ids.length)) {
        return errorResponse(c, 400, ErrorMessage.emptyNote, 'note.body');
      }
      const result = await addNote(db, clock, storage, c.get('user').id, c.req.param('id'), {
        body: note.body,
        attachmentIds: note.attachment_ids,
      });
      if (result.added) return c.json(result.update, 201);
      switch (result.reason) {
        case 'not_found':
          return errorResponse(c, 404, ErrorMessage.notFound);
        case 'closed':
          return errorResponse(c, 409, ErrorMessage.requestClosed);
        default:
          return errorResponse(c, 400, ATTACHMENT_PROBLEMS[result.reason], 'note.attachment_ids');
      }
    })
    .post('/:id/cancel', session, uuidParameter('id'), async (c) => {
      const result = await cancelRequest(db, clock, c.get('user').id, c.req.param('id'));
      if (result.cancelled) return c.json(result.request);
      if (result.reason === 'closed') return errorResponse(c, 409, ErrorMessage.requestClosed);
      return errorResponse(c, 404, ErrorMessage.notFound);
    });
}
