import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { unsavableCharacterMessage, uploadFallbackMessage } from '../lib/messages';
import { createDirectUpload as createDirectUploadInApi } from '../server/api/direct-uploads';
import { fileTooLargeMessage } from '../ui/FileUploader/upload-rules';
import { apiFailure } from './api-failure';
import { formText } from './fields';
import { MAX_FILE_BYTES } from '../../contract/limits.ts';

/** Where the island shows a refusal of the file: under its uploader. */
export const attachmentField = 'attachment';

/** A refusal of the API about one part of the declaration is a refusal of the file. */
export const declarationFields = {
  'blob.filename': attachmentField,
  'blob.content_type': attachmentField,
  'blob.byte_size': attachmentField,
  'blob.checksum': attachmentField,
};

/** What the island needs to send the file: its id for the form, and where to send it. */
export interface UploadTicket {
  readonly id: string;
  readonly url: string;
  readonly method: 'PUT';
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Asks the API for a signed address to send one file straight to storage. The island declares the
 * file it measured and hashed (SHA-256) in the browser.
 *
 * A form, not JSON: it carries the `_xsrf` field like every form, since Astro's action client
 * cannot add the X-XSRF-TOKEN header to a call.
 */
export const createDirectUpload = defineAction({
  accept: 'form',
  input: z.object({
    filename: formText(
      z.string().min(1, 'Choose a file').max(255, 'The file name is too long'),
      unsavableCharacterMessage('The file name'),
    ),
    content_type: formText(
      z
        .string()
        .max(255)
        .transform((type) => type || 'application/octet-stream'),
    ),
    byte_size: z
      .number(fileTooLargeMessage(MAX_FILE_BYTES))
      .int()
      .nonnegative()
      .max(MAX_FILE_BYTES, fileTooLargeMessage(MAX_FILE_BYTES)),
    checksum: formText(z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'The file could not be read')),
  }),
  handler: async (blob, context): Promise<UploadTicket> => {
    try {
      const { id, direct_upload } = await createDirectUploadInApi(await context.locals.api(), blob);
      return { id, ...direct_upload };
    } catch (error) {
      throw apiFailure(error, uploadFallbackMessage, declarationFields);
    }
  },
});
