import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** As long as the secrets an operator must set (README: 32+ characters). */
const MIN_KEPT_SECRET_LENGTH = 32;

/**
 * The secret kept in `file`, made now if there is none yet. Servers that share the folder and
 * start together must agree on one and never read half of one: a new secret is written whole to
 * a file of its own, then linked into place, which fails when another server got there first,
 * whose secret is then the one. A file too short to be a key (cut short by a crash) is refused
 * rather than used.
 */
export function secretKeptIn(file: string): string {
  const kept = readKept(file);
  if (kept !== undefined) return kept;
  mkdirSync(path.dirname(file), { recursive: true });
  const candidate = randomBytes(32).toString('base64url');
  const ownFile = `${file}.${String(process.pid)}.${randomBytes(6).toString('hex')}`;
  writeFileSync(ownFile, candidate, { mode: 0o600 });
  try {
    linkSync(ownFile, file);
    return candidate;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = readKept(file);
    if (theirs === undefined) throw new Error(`${file} vanished while it was being read.`);
    return theirs;
  } finally {
    rmSync(ownFile, { force: true });
  }
}

function readKept(file: string): string | undefined {
  let content: string;
  try {
    content = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (content.length < MIN_KEPT_SECRET_LENGTH) {
    throw new Error(
      `${file} holds no usable key (${String(content.length)} characters): remove it to have a new one made, or set the secret in the environment.`,
    );
  }
  return content;
}
