import { randomBytes } from 'node:crypto';
import { createSealer } from '../sealing.ts';

/**
 * Encryption at rest of the secrets a second factor shares with the API (an authenticator app's
 * TOTP key): a copy of the database alone never yields a code. Sealed with the operator's
 * FACTOR_SECRET_KEY (services/sealing.ts); each value is bound to its member, so a ciphertext
 * copied onto another member's row does not decrypt.
 */
export interface FactorSecrets {
  seal(plain: Uint8Array, userId: number): string;
  /** The plain secret; throws when the value was not sealed with this key for this member. */
  open(sealed: string, userId: number): Uint8Array;
}

export function createFactorSecrets(key: string | Uint8Array): FactorSecrets {
  const sealer = createSealer('factor secrets', key, 'factor secret');
  const member = (userId: number) => `user:${String(userId)}`;
  return {
    seal: (plain, userId) => sealer.seal(plain, member(userId)),
    open: (sealed, userId) => sealer.open(sealed, member(userId)),
  };
}

/** For a database that lives as long as the process (tests, `memory://`): a key of its own. */
export function randomFactorSecrets(): FactorSecrets {
  return createFactorSecrets(randomBytes(32));
}
