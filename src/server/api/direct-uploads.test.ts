import { describe, expect, it } from 'vitest';
import { checksumOf, declarationOf, embeddedStoragePath } from './direct-uploads';

describe('embeddedStoragePath', () => {
  const site = 'https://portal.example.com';

  it('finds the embedded storage under /storage/ on the site’s own origin', () => {
    expect(embeddedStoragePath(`${site}/storage/uploads/abc.def`, site)).toBe(
      '/storage/uploads/abc.def',
    );
  });

  it('keeps the query of the address', () => {
    expect(embeddedStoragePath(`${site}/storage/files/abc?x=1`, site)).toBe(
      '/storage/files/abc?x=1',
    );
  });

  it('leaves an address on another origin to HTTP', () => {
    expect(
      embeddedStoragePath('https://bucket.s3.example.com/storage/uploads/abc', site),
    ).toBeUndefined();
    expect(
      embeddedStoragePath('http://portal.example.com/storage/uploads/abc', site),
    ).toBeUndefined();
  });

  it('leaves other paths of the site alone', () => {
    expect(embeddedStoragePath(`${site}/api/v1/requests`, site)).toBeUndefined();
    expect(embeddedStoragePath(`${site}/storagex/uploads/abc`, site)).toBeUndefined();
  });
});

describe('checksumOf', () => {
  it('is the base64 SHA-256 of the content', () => {
    expect(checksumOf(new TextEncoder().encode('hello'))).toBe(
      'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
    );
  });
});

describe('declarationOf', () => {
  it('declares a posted file by its name, type, size and checksum', async () => {
    const file = new File(['hello'], 'note.txt', { type: 'text/plain' });
    expect(await declarationOf(file)).toEqual({
      filename: 'note.txt',
      content_type: 'text/plain',
      byte_size: 5,
      checksum: 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
    });
  });

  it('declares a file the browser gave no type as application/octet-stream', async () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'data.bin');
    expect((await declarationOf(file)).content_type).toBe('application/octet-stream');
  });
});
