import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The tokens in the local storage's addresses (`/storage/uploads/{token}`,
 * `/storage/files/{token}`): what the address allows, in the clear, and an HMAC-SHA256 over it
 * with the storage secret. Whoever holds the address may do exactly that until it expires;
 * changing any byte of it (a larger size, another key, a later expiry) voids the signature.
 */

/** What an upload address allows: one PUT of exactly this file. */
export interface UploadClaims {
  purpose: 'upload';
  key: string;
  byteSize: number;
  contentType: string;
  /** Base64 SHA-256 of the content. */
  checksum: string;
  expiresAt: Date;
}

/** What a download address allows: reading one file, offered under `filename`. */
export interface DownloadClaims {
  purpose: 'download';
  key: string;
  filename: string;
  contentType: string;
  expiresAt: Date;
}

type StorageClaims = UploadClaims | DownloadClaims;

export type VerifiedAddress<Claims extends StorageClaims> =
  { valid: true; claims: Claims } | { valid: false; reason: 'invalid' | 'expired' };

/** Binds signatures to this use and this version of the format. */
const SIGNATURE_CONTEXT = 'member-portal storage address v1\n';

function signature(secret: Uint8Array, payload: string): Buffer {
  return createHmac('sha256', secret).update(SIGNATURE_CONTEXT).update(payload).digest();
}

/** The fields of the claims, in a fixed order, as the JSON array the token carries. */
function claimsAsArray(claims: StorageClaims): unknown[] {
  const expiresAt = claims.expiresAt.getTime();
  return claims.purpose === 'upload'
    ? ['u', claims.key, claims.byteSize, claims.contentType, claims.checksum, expiresAt]
    : ['d', claims.key, claims.filename, claims.contentType, expiresAt];
}

function claimsFromArray(fields: unknown): StorageClaims | undefined {
  if (!Array.isArray(fields)) return undefined;
  const [purpose, key, ...rest] = fields as unknown[];
  if (typeof key !== 'string') return undefined;
  if (purpose === 'u' && rest.length === 4) {
    const [byteSize, contentType, checksum, expiresAt] = rest;
    if (
      typeof byteSize === 'number' &&
      typeof contentType === 'string' &&
      typeof checksum === 'string' &&
      typeof expiresAt === 'number'
    ) {
      return {
        purpose: 'upload',
        key,
        byteSize,
        contentType,
        checksum,
        expiresAt: new Date(expiresAt),
      };
    }
  }
  if (purpose === 'd' && rest.length === 3) {
    const [filename, contentType, expiresAt] = rest;
    if (
      typeof filename === 'string' &&
      typeof contentType === 'string' &&
      typeof expiresAt === 'number'
    ) {
      return { purpose: 'download', key, filename, contentType, expiresAt: new Date(expiresAt) };
    }
  }
  return undefined;
}

/** `<claims as base64url JSON>.<base64url HMAC-SHA256>`: safe in a path segment. */
export function signAddress(secret: Uint8Array, claims: StorageClaims): string {
  const payload = Buffer.from(JSON.stringify(claimsAsArray(claims)), 'utf8').toString('base64url');
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/**
 * The claims of a token this secret signed for `purpose`, if it has not expired at `now`. Any
 * other token (altered, cut, signed with another secret, for the other purpose) is `invalid`.
 */
export function verifyAddress<Purpose extends StorageClaims['purpose']>(
  secret: Uint8Array,
  token: string,
  purpose: Purpose,
  now: Date,
): VerifiedAddress<Extract<StorageClaims, { purpose: Purpose }>> {
  const dot = token.indexOf('.');
  if (dot <= 0) return { valid: false, reason: 'invalid' };
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = signature(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: 'invalid' };
  }
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { valid: false, reason: 'invalid' };
  }
  const claims = claimsFromArray(fields);
  if (!claims || claims.purpose !== purpose) return { valid: false, reason: 'invalid' };
  if (claims.expiresAt.getTime() <= now.getTime()) return { valid: false, reason: 'expired' };
  return { valid: true, claims: claims as Extract<StorageClaims, { purpose: Purpose }> };
}
