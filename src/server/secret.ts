import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from './config';

const cached = new Map<string, string>();

/**
 * A key the operator sets (the same on every copy of the server), or else one made once and kept
 * in the data directory under `fileName`, so that a restart does not invalidate what it signed.
 */
function keptSecret(fileName: string, configured: string | undefined): string {
  if (configured) return configured;
  const known = cached.get(fileName);
  if (known) return known;
  const file = path.resolve(config().dataDir, fileName);
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
  }
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
