import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signAddress, verifyAddress, type UploadClaims } from './signed-addresses.ts';

const secret = randomBytes(32);
const now = new Date('2026-01-15T09:00:00.000Z');
const upload: UploadClaims = {
  purpose: 'upload',
  key: 'uploads/abc',
  byteSize: 42,
  contentType: 'text/plain',
  checksum: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
  expiresAt: new Date(now.getTime() + 60_000),
};

describe('signed storage addresses', () => {
  it('gives back the claims it signed, until they expire', () => {
    const token = signAddress(secret, upload);

    expect(verifyAddress(secret, token, 'upload', now)).toEqual({ valid: true, claims: upload });
    expect(verifyAddress(secret, token, 'upload', upload.expiresAt)).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('makes tokens that fit in a path segment', () => {
    expect(signAddress(secret, upload)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a token whose claims were changed, even with a valid-looking signature', () => {
    const token = signAddress(secret, upload);
    const larger = signAddress(secret, { ...upload, byteSize: 4200 });
    const spliced = `${larger.split('.')[0] ?? ''}.${token.split('.')[1] ?? ''}`;

    expect(verifyAddress(secret, spliced, 'upload', now)).toEqual({
      valid: false,
      reason: 'invalid',
    });
  });

  it('refuses a token signed with another secret', () => {
    const token = signAddress(randomBytes(32), upload);

    expect(verifyAddress(secret, token, 'upload', now).valid).toBe(false);
  });

  it('refuses an upload token as a download token, and the other way round', () => {
    const download = signAddress(secret, {
      purpose: 'download',
      key: 'uploads/abc',
      filename: 'a.txt',
      contentType: 'text/plain',
      expiresAt: upload.expiresAt,
    });

    expect(verifyAddress(secret, signAddress(secret, upload), 'download', now).valid).toBe(false);
    expect(verifyAddress(secret, download, 'upload', now).valid).toBe(false);
    expect(verifyAddress(secret, download, 'download', now).valid).toBe(true);
  });

  it.each(['', '.', 'abc', 'abc.def', '..', `${'a'.repeat(10)}.${'b'.repeat(43)}`])(
    'refuses the malformed token %j',
    (token) => {
      expect(verifyAddress(secret, token, 'upload', now)).toEqual({
        valid: false,
        reason: 'invalid',
      });
    },
  );
});
