import {
  MAX_DETAILS_LENGTH,
  MAX_FILE_BYTES,
  MAX_NOTE_LENGTH,
  MAX_TITLE_LENGTH,
  isEmptyNote,
} from '../../contract/limits.ts';
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { logger } from '../../platform/logger.ts';
import {
  cancelFallbackMessage,
  categoryMissingMessage,
  detailsTooLongMessage,
  noteAddedMessage,
  noteEmptyMessage,
  noteFallbackMessage,
  noteTooLongMessage,
  requestCancelledMessage,
  requestFallbackMessage,
  requestSentMessage,
  titleMissingMessage,
  titleTooLongMessage,
  unsavableCharacterMessage,
  uploadFailedMessage,
} from '../lib/messages';
import { paths } from '../routes';
import { ApiError } from '../server/api/client';
import {
  createDirectUpload,
  declarationOf,
  uploadTo,
  type DirectUpload,
} from '../server/api/direct-uploads';
import { addNoteToRequest, cancelRequest, createRequest } from '../server/api/requests';
import { addFlash } from '../server/session/flash';
import type { Navigation } from '../server/forms/navigation';
import { fileTooLargeMessage } from '../ui/FileUploader/upload-rules';
import { apiFailure } from './api-failure';
import { FieldFailure } from './field-failure';
import { formText } from './fields';
import { attachmentField, declarationFields } from './uploads';

/**
 * The file of a form posted without JavaScript (a browser sends an empty, unnamed part when none
 * was chosen), refused above the upload limit with the catalogue message.
 */
const postedFile = z.preprocess(
  (value) => (value instanceof File && value.name !== '' ? value : undefined),
  z
    .instanceof(File)
    .refine((file) => file.size <= MAX_FILE_BYTES, fileTooLargeMessage(MAX_FILE_BYTES))
    .optional(),
);

/** The id of a file the island already sent to storage (JavaScript on). */
const uploadedFileId = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined),
  z.string().max(100).optional(),
);

const requestIdField = formText(z.string().trim().min(1, 'This request is unknown').max(100));

/**
 * The attachment of a form, as file ids for the API: the island's finished upload, or the posted
 * file, which goes to storage here first (the same signed direct upload a browser would make).
 * A refusal of the file is shown under the file's field.
 */
async function attachmentIds(
  context: ActionAPIContext,
  form: { attachment_id?: string | undefined; attachment?: File | undefined },
  fallbackMessage: string,
): Promise<string[]> {
  if (form.attachment_id) return [form.attachment_id];
  if (!form.attachment) return [];
  const api = await context.locals.api();
  let upload: DirectUpload;
  try {
    upload = await createDirectUpload(api, await declarationOf(form.attachment));
  } catch (error) {
    throw apiFailure(error, fallbackMessage, declarationFields);
  }
  try {
    await uploadTo(upload.direct_upload, form.attachment);
  } catch (error) {
    throw storageFailure(error);
  }
  return [upload.id];
}

/** Storage said no to the file (its answer names no field: the file is the field). */
function storageFailure(error: unknown): ActionError {
  if (error instanceof ApiError && error.status < 500) {
    return new FieldFailure(attachmentField, error.serverMessage ?? uploadFailedMessage);
  }
  logger.error({ err: error }, 'sending a file to storage failed');
  return new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: uploadFailedMessage });
}

/**
 * Makes a request in a category, with a title, details and at most one file, then goes to its page,
 * where a toast says it was sent.
 */
export const create = defineAction({
  accept: 'form',
  input: z.object({
    category_id: formText(z.string().trim().min(1, categoryMissingMessage).max(100)),
    title: formText(
      z.string().trim().min(1, titleMissingMessage).max(MAX_TITLE_LENGTH, titleTooLongMessage),
      unsavableCharacterMessage('Title'),
    ),
    details: formText(
      z.string().trim().max(MAX_DETAILS_LENGTH, detailsTooLongMessage),
      unsavableCharacterMessage('Details'),
    ),
    attachment_id: uploadedFileId,
    attachment: postedFile,
  }),
  handler: async (form, context): Promise<Navigation> => {
    const ids = await attachmentIds(context, form, requestFallbackMessage);
    let createdId: string;
    try {
      createdId = await createRequest(await context.locals.api(), {
        categoryId: form.category_id,
        title: form.title,
        details: form.details,
        attachmentIds: ids,
      });
    } catch (error) {
      throw apiFailure(error, requestFallbackMessage, {
        'request.category_id': 'category_id',
        'request.title': 'title',
        'request.details': 'details',
        'request.attachment_ids': attachmentField,
      });
    }
    addFlash(context.cookies, { message: requestSentMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.request(createdId) };
  },
});

/**
 * Adds a note (words, a file, or both) to the member's request; back on its page, the note is in
 * the timeline.
 */
export const addNote = defineAction({
  accept: 'form',
  input: z
    .object({
      request_id: requestIdField,
      body: formText(
        z.string().trim().max(MAX_NOTE_LENGTH, noteTooLongMessage),
        unsavableCharacterMessage('Note'),
      ),
      attachment_id: uploadedFileId,
      attachment: postedFile,
    })
    .refine((note) => !isEmptyNote(note.body, note.attachment_id || note.attachment ? 1 : 0), {
      path: ['body'],
      message: noteEmptyMessage,
    }),
  handler: async (note, context): Promise<Navigation> => {
    const ids = await attachmentIds(context, note, noteFallbackMessage);
    try {
      await addNoteToRequest(await context.locals.api(), note.request_id, {
        body: note.body,
        attachmentIds: ids,
      });
    } catch (error) {
      throw apiFailure(error, noteFallbackMessage, {
        'note.body': 'body',
        'note.attachment_ids': attachmentField,
      });
    }
    addFlash(context.cookies, { message: noteAddedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.request(note.request_id) };
  },
});

/**
 * Cancels an open request (a closed one is refused with the API's sentence), then back to its page
 * with a toast.
 */
export const cancel = defineAction({
  accept: 'form',
  input: z.object({ request_id: requestIdField }),
  handler: async ({ request_id }, context): Promise<Navigation> => {
    try {
      await cancelRequest(await context.locals.api(), request_id);
    } catch (error) {
      throw apiFailure(error, cancelFallbackMessage);
    }
    addFlash(context.cookies, {
      message: requestCancelledMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.request(request_id) };
  },
});
