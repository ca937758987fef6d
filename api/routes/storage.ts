import { and, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { blobs } from '../db/schema/index.ts';
import type { ApiDependencies } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { attachmentContentDisposition } from '../services/files/storage/content-disposition.ts';
import { servedContentType } from '../services/files/storage/served-content-type.ts';
import {
  type LocalFileStorage,
  type UploadRefusal,
} from '../services/files/storage/local-storage.ts';
import { CHECKSUM_HEADER } from '../../contract/headers.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const REFUSALS: Record<UploadRefusal, { status: 400 | 413; message: string }> = {
  too_large: { status: 413, message: ErrorMessage.uploadTooLarge },
  too_small: { status: 400, message: ErrorMessage.uploadIncomplete },
  checksum_mismatch: { status: 400, message: ErrorMessage.uploadChecksumMismatch },
};

/** The media type of a Content-Type header, without parameters, lower-cased. */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The local storage driver's addresses, mounted at `/storage` on the app's root, outside /api/v1
 * and its JSON body limit:
 *
 * - `PUT /storage/uploads/{token}`: one upload of exactly the file the signed token declares,
 *   with its `Content-Type` and the checksum in `X-Checksum-SHA256`. The body is streamed to a
 *   temporary file and moved into place, setting `blobs.uploaded_at`, only when everything
 *   matched; a blob is uploaded once.
 * - `GET /storage/files/{token}`: the file, as a download, under its declared type only when
 *   that type cannot run in a browser (served-content-type.ts), else as bytes.
 *
 * Browsers call the upload address from the site's origin; when the API is served on another
 * origin (`npm run api`), the CORS preflight admits that origin, and only that one.
 */
export function createStorageRoutes(dependencies: ApiDependencies, storage: LocalFileStorage) {
  const { db, clock, publicOrigin } = dependencies;

  return new Hono()
    .use(
      '/uploads/*',
      cors({
        origin: publicOrigin,
        allowMethods: ['PUT'],
        allowHeaders: ['Content-Type', CHECKSUM_HEADER],
        maxAge: 600,
      }),
    )
    .put('/uploads/:token', async (c) => {
      const verified = storage.verifyUploadAddress(c.req.param('token'));
      if (!verified.valid) return errorResponse(c, 403, ErrorMessage.uploadAddressInvalid);
      const declaration = verified.claims;

      if (mediaTypeOf(c.req.header('content-type')) !== declaration.contentType) {
        return errorResponse(c, 400, ErrorMessage.uploadContentTypeMismatch);
      }
      if (c.req.header(CHECKSUM_HEADER) !== declaration.checksum) {
        return errorResponse(c, 400, ErrorMessage.uploadChecksumMismatch);
      }
      // A declared length says early what the bytes would say late.
      const declaredLength = Number(c.req.header('content-length') ?? Number.NaN);
      if (declaredLength > declaration.byteSize) {
        return errorResponse(c, 413, ErrorMessage.uploadTooLarge);
      }
      if (declaredLength < declaration.byteSize) {
        return errorResponse(c, 400, ErrorMessage.uploadIncomplete);
      }

      const [blob] = await db
        .select({ uploadedAt: blobs.uploadedAt })
        .from(blobs)
        .where(eq(blobs.key, declaration.key));
      // Removed meanwhile (never attached in time): the address leads nowhere.
      if (!blob) return errorResponse(c, 404, ErrorMessage.notFound);
      if (blob.uploadedAt !== null) return errorResponse(c, 409, ErrorMessage.uploadAlreadyDone);

      const result = await storage.receive(declaration, c.req.raw.body);
      if (!result.received) {
        const refusal = REFUSALS[result.reason];
        return errorResponse(c, refusal.status, refusal.message);
      }
      try {
        const completed = await db.transaction(async (transaction) => {
          // The conditional update is what makes the upload single: of two complete uploads
          // racing, one sets uploaded_at and the other finds it set.
          const [row] = await transaction
            .update(blobs)
            .set({ uploadedAt: clock.now() })
            .where(and(eq(blobs.key, declaration.key), isNull(blobs.uploadedAt)))
            .returning({ id: blobs.id });
          if (!row) return false;
          await result.moveIntoPlace();
          return true;
        });
        if (!completed) {
          await result.discard();
          return errorResponse(c, 409, ErrorMessage.uploadAlreadyDone);
        }
      } catch (error) {
        await result.discard();
        throw error;
      }
      return c.body(null, 204);
    })
    .get('/files/:token', async (c) => {
      const verified = storage.verifyDownloadAddress(c.req.param('token'));
      if (!verified.valid) return errorResponse(c, 403, ErrorMessage.downloadAddressInvalid);
      const { key, filename, contentType } = verified.claims;
      const file = await storage.openFile(key);
      if (!file) return errorResponse(c, 404, ErrorMessage.notFound);
      return c.body(file.content, 200, {
        // Mapped here, not when signing, so that an address signed before a type left the list
        // is served inert too.
        'Content-Type': servedContentType(contentType),
        'Content-Length': String(file.byteSize),
        'Content-Disposition': attachmentContentDisposition(filename),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
        // Should a browser render it anyway, it runs nothing and reaches nothing.
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
    });
}
