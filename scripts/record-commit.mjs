// Records the commit the build was made from (dist/commit.txt), the default release of the
// error reports (SENTRY_RELEASE). Outside a git checkout there is nothing to record.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  console.log('Not a git checkout: the build records no commit (set SENTRY_RELEASE instead).');
}
writeFileSync(new URL('../dist/commit.txt', import.meta.url), commit ? `${commit}\n` : '');
