import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from './config';

let cached: string | undefined;

/**
 * The key that signs the XSRF token. Operators set SESSION_SECRET (the same on
 * every copy of the server). Without it, a local key is made once and kept in
 * the data directory, so a restart does not invalidate open forms.
 */
export function sessionSecret(): string {
  if (cached) return cached;
  const { sessionSecret: configured, dataDir } = config();
  if (configured) {
    cached = configured;
    return cached;
  }
  const file = path.resolve(dataDir, 'session-secret');
  try {
    cached = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    cached = randomBytes(32).toString('base64url');
    writeFileSync(file, cached, { mode: 0o600 });
  }
  return cached;
}
