import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD_METHOD, fileTooLargeMessage, isTooLarge } from './upload-rules';
import { MAX_FILE_BYTES } from '../../../contract/limits.ts';

describe('upload rules', () => {
  it('limits files to 25 MB', () => {
    expect(MAX_FILE_BYTES).toBe(26214400);
    expect(isTooLarge(26214400)).toBe(false);
    expect(isTooLarge(26214401)).toBe(true);
  });

  it('uploads with PUT by default', () => {
    expect(DEFAULT_UPLOAD_METHOD).toBe('PUT');
  });

  it('says the limit in the too-large message', () => {
    expect(fileTooLargeMessage(MAX_FILE_BYTES)).toBe(
      'File size exceeds 25 MB, please upload a smaller file.',
    );
  });

  it('fills in another limit when given one', () => {
    expect(fileTooLargeMessage(1536)).toBe(
      'File size exceeds 1.5 KB, please upload a smaller file.',
    );
    expect(isTooLarge(2000, 1536)).toBe(true);
  });
});
