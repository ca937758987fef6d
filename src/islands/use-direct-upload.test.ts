import { describe, expect, it } from 'vitest';
import { declarationForm, sha256Base64 } from './use-direct-upload';

describe('sha256Base64', () => {
  it('is the base64 SHA-256 of the file, as the API checks it', async () => {
    expect(await sha256Base64(new Blob(['hello']))).toBe(
      'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
    );
  });
});

describe('declarationForm', () => {
  it('declares the file by name, type, size and checksum, with the form’s XSRF token', async () => {
    const form = await declarationForm(
      new File(['hello'], 'note.txt', { type: 'text/plain' }),
      'token',
    );
    expect(Object.fromEntries(form)).toEqual({
      _xsrf: 'token',
      filename: 'note.txt',
      content_type: 'text/plain',
      byte_size: '5',
      checksum: 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
    });
  });

  it('declares a file the browser gave no type as application/octet-stream', async () => {
    const form = await declarationForm(new File([new Uint8Array([1])], 'data.bin'), 'token');
    expect(form.get('content_type')).toBe('application/octet-stream');
  });
});
