import { MAX_FILE_BYTES } from '../../../contract/limits.ts';
import { formatSize } from './format-size';

/** The method a direct upload uses unless told otherwise. */
export const DEFAULT_UPLOAD_METHOD = 'PUT';

/** The catalogue text for a file over the limit; `{1}` is the limit. */
const FILE_TOO_LARGE_TEMPLATE = 'File size exceeds {1}, please upload a smaller file.';

/** The message for a file over `limitBytes`, with the formatted limit filled in. */
export function fileTooLargeMessage(limitBytes: number): string {
  return FILE_TOO_LARGE_TEMPLATE.replace('{1}', formatSize(limitBytes));
}

/** Whether a file of `bytes` is over the limit. */
export function isTooLarge(bytes: number, limitBytes: number = MAX_FILE_BYTES): boolean {
  return bytes > limitBytes;
}
