import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the secrets a second factor shares with the API (an authenticator app's
 * TOTP key): a copy of the database alone never yields a code. AES-256-GCM with a key derived from
 * the operator's FACTOR_SECRET_KEY; each value is bound to its member, so a ciphertext copied onto
 * another member's row does not decrypt.
 */
export interface FactorSecrets {
  seal(plain: Uint8Array, userId: number): string;
  /** The plain secret; throws when the value was not sealed with this key for this member. */
  open(sealed: string, userId: number): Uint8Array;
}

/** The shortest key accepted: 32 characters, as for the other secrets. */
const MIN_FACTOR_SECRET_KEY_LENGTH = 32;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createFactorSecrets(key: string | Uint8Array): FactorSecrets {
  if (typeof key === 'string' && key.length < MIN_FACTOR_SECRET_KEY_LENGTH) {
    throw new Error(
      `The factor secret key must be at least ${MIN_FACTOR_SECRET_KEY_LENGTH} characters long.`,
    );
  }
  // A fixed-size AES key from a key of any length; the label keeps it apart from other uses.
  const aesKey = createHash('sha256').update('member-portal factor secrets\0').update(key).digest();
  const associated = (userId: number) => Buffer.from(`user:${String(userId)}`, 'utf8');

  return {
    seal(plain, userId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(associated(userId));
      const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, userId) {
      const [version, iv, body] = sealed.split('.');
      if (version !== VERSION || iv === undefined || body === undefined) {
        throw new Error('Not a sealed factor secret.');
      }
      const ivBytes = Buffer.from(iv, 'base64url');
      const bodyBytes = Buffer.from(body, 'base64url');
      if (ivBytes.length !== IV_BYTES || bodyBytes.length < TAG_BYTES) {
        throw new Error('Not a sealed factor secret.');
      }
      const decipher = createDecipheriv('aes-256-gcm', aesKey, ivBytes, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(associated(userId));
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

/** For a database that lives as long as the process (tests, `memory://`): a key of its own. */
export function randomFactorSecrets(): FactorSecrets {
  return createFactorSecrets(randomBytes(32));
}
