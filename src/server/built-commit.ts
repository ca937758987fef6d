import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Written by `npm run build` (scripts/record-commit.mjs) beside the build it describes. */
const builtCommitFile = 'dist/commit.txt';

let commit: string | null | undefined;

/**
 * The commit the build being served was made from, or undefined when the build was not made in a
 * git checkout. Read from the working directory, like the migrations.
 */
export function builtCommit(): string | undefined {
  if (commit === undefined) {
    try {
      commit = readFileSync(path.resolve(process.cwd(), builtCommitFile), 'utf8').trim() || null;
    } catch {
      commit = null;
    }
  }
  return commit ?? undefined;
}
