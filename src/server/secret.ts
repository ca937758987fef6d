import path from 'node:path';
import { secretKeptIn } from '../../platform/kept-secret.ts';
import { config } from './config.ts';

const cached = new Map<string, string>();

/**
 * A key the operator sets (the same on every copy of the server), or else one made once and kept
 * in the data directory under `fileName`, so that a restart does not invalidate what it signed.
 */
function keptSecret(fileName: string, configured: string | undefined): string {
  if (configured) return configured;
  const known = cached.get(fileName);
  if (known) return known;
  const secret = secretKeptIn(path.resolve(config().dataDir, fileName));
  cached.set(fileName, secret);
  return secret;
}

/** The key that signs the XSRF token (SESSION_SECRET). */
export function sessionSecret(): string {
  return keptSecret('session-secret', config().sessionSecret);
}

/**
 * The key that signs the embedded API's upload and download addresses (STORAGE_SECRET): an open
 * upload form keeps working across a restart.
 */
export function storageSecret(): string {
  return keptSecret('storage-secret', config().storageSecret);
}

/**
 * The key that seals the secrets of second factors in the embedded API's database
 * (FACTOR_SECRET_KEY): an authenticator app keeps working across a restart.
 */
export function factorSecretKey(): string {
  return keptSecret('factor-secret-key', config().factorSecretKey);
}
