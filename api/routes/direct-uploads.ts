import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { rateLimitPerUser } from '../http/rate-limit.ts';
import { jsonBody } from '../http/validation.ts';
import { createDirectUpload, STORAGE_QUOTA_EXCEEDED_MESSAGE } from '../services/files/files.ts';
import { DIRECT_UPLOADS_PER_USER } from '../services/rate-limits.ts';
import { MAX_FILE_BYTES } from '../../contract/limits.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

/** `type/subtype` (RFC 6838 characters), without parameters. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
/** Base64 of 32 bytes. */
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
/** Control characters would corrupt headers and logs; a file picker never gives them. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

const directUploadBody = z.object({
  blob: z.object({
    filename: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((name) => name.isWellFormed() && !CONTROL_CHARACTERS.test(name), {
        message: 'must not contain control characters',
      }),
    content_type: z
      .string()
      .trim()
      .toLowerCase()
      .refine((type) => MEDIA_TYPE.test(type), {
        message: 'must be a media type such as application/pdf',
      }),
    byte_size: z.number().int().min(1),
    checksum: z.string().refine((checksum) => SHA256_BASE64.test(checksum), {
      message: 'must be the base64 SHA-256 of the file (44 characters)',
    }),
  }),
});

/**
 * Addresses to upload a file straight to storage: /api/v1/direct_uploads. The file can then be
 * attached to a request or a note by its id. A file that would take the member's files past their
 * quota is refused like one past the size limit: 400 naming `blob.byte_size`, which the web tier
 * shows under the file.
 */
export function createDirectUploadsRoutes(dependencies: ApiDependencies) {
  const { db, clock, storage } = dependencies;
  return new Hono<ApiEnv>().post(
    '/',
    requireSession(dependencies),
    jsonBody(directUploadBody),
    rateLimitPerUser(dependencies, DIRECT_UPLOADS_PER_USER),
    async (c) => {
      const { blob } = c.req.valid('json');
      if (blob.byte_size > MAX_FILE_BYTES) {
        return errorResponse(c, 400, ErrorMessage.fileTooLarge, 'blob.byte_size');
      }
      const answer = await createDirectUpload(db, clock, storage, c.get('user').id, {
        filename: blob.filename,
        contentType: blob.content_type,
        byteSize: blob.byte_size,
        checksum: blob.checksum,
      });
      if (answer === 'storage_quota_exceeded') {
        return errorResponse(c, 400, STORAGE_QUOTA_EXCEEDED_MESSAGE, 'blob.byte_size');
      }
      return c.json(answer, 201);
    },
  );
}
