// `npm audit --audit-level=high`: fails on a known high or critical vulnerability in any
// dependency. When nothing could be checked (the registry never answered, or answered the audit
// request with an error), it says so in one line and exits with 2, so that "nothing could be
// checked" is never mistaken for a finding or for a pass.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { auditFailure } from './audit-failure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npm', ['audit', '--audit-level=high'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});

if (result.error) {
  console.error(`npm audit could not run: ${result.error.message}`);
  process.exit(2);
}
const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
const failure = result.status === 0 ? undefined : auditFailure(output);
if (failure !== undefined) {
  console.error(failure);
  process.exit(2);
}
process.stdout.write(output);
process.exit(result.status ?? 1);
