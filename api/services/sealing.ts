import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of a secret kept in the database, with AES-256-GCM under a key derived from
 * the operator's key and a label of its own use: a copy of the database alone yields nothing.
 * Each value is bound to its row (`boundTo`), so a ciphertext copied onto another row does not
 * open.
 */
export interface Sealer {
  seal(plain: Uint8Array, boundTo: string): string;
  /** The plain secret; throws when the value was not sealed with this key for this row. */
  open(sealed: string, boundTo: string): Uint8Array;
}

/** The shortest key accepted: 32 characters, as for the other secrets. */
export const MIN_SEALING_KEY_LENGTH = 32;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `label` keeps each use's key apart from the others made from the same operator's key. */
export function createSealer(label: string, key: string | Uint8Array, what: string): Sealer {
  if (typeof key === 'string' && key.length < MIN_SEALING_KEY_LENGTH) {
    throw new Error(`The ${what} key must be at least ${MIN_SEALING_KEY_LENGTH} characters long.`);
  }
  const aesKey = createHash('sha256').update(`member-portal ${label}\0`).update(key).digest();
  const notSealed = () => new Error(`Not a sealed ${what}.`);

  return {
    seal(plain, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, boundTo) {
      const [version, iv, body] = sealed.split('.');
      if (version !== VERSION || iv === undefined || body === undefined) throw notSealed();
      const ivBytes = Buffer.from(iv, 'base64url');
      const bodyBytes = Buffer.from(body, 'base64url');
      if (ivBytes.length !== IV_BYTES || bodyBytes.length < TAG_BYTES) throw notSealed();
      const decipher = createDecipheriv('aes-256-gcm', aesKey, ivBytes, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(bodyBytes.subarray(bodyBytes.length - TAG_BYTES));
      return new Uint8Array(
        Buffer.concat([
          decipher.update(bodyBytes.subarray(0, bodyBytes.length - TAG_BYTES)),
          decipher.final(),
        ]),
      );
    },
  };
}
