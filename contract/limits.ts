/**
 * The limits the API enforces and the portal's forms check first, so that a member reads the
 * problem before anything is sent (docs/PRODUCT.md §9).
 */

export const MAX_TITLE_LENGTH = 120;
export const MAX_DETAILS_LENGTH = 5000;
export const MAX_NOTE_LENGTH = 5000;
/** Files a request, or a note, may carry. */
export const MAX_ATTACHMENTS = 1;
/** 25 MB. */
export const MAX_FILE_BYTES = 26_214_400;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** At most this many recovery codes left, the member is asked to make a new set. */
export const RECOVERY_CODES_LOW = 3;

/** A note needs words or a file. */
export function isEmptyNote(body: string, attachmentCount: number): boolean {
  return body.trim() === '' && attachmentCount === 0;
}
