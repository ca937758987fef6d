import { Hono } from 'hono';
import { requireSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { uuidParameter } from '../http/validation.ts';
import { createDownloadAddress } from '../services/files/files.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

/**
 * The member's attached files: /api/v1/attachments/{id} answers a download address valid for 5
 * minutes. A file that is not the member's, or not attached to any of their requests, answers 404.
 */
export function createAttachmentsRoutes(dependencies: ApiDependencies) {
  const { db, clock, storage } = dependencies;
  return new Hono<ApiEnv>().get(
    '/:id',
    requireSession(dependencies),
    uuidParameter('id'),
    async (c) => {
      const address = await createDownloadAddress(
        db,
        clock,
        storage,
        c.get('user').id,
        c.req.param('id'),
      );
      if (!address) return errorResponse(c, 404, ErrorMessage.notFound);
      return c.json(address);
    },
  );
}
