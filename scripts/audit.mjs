// `npm audit --audit-level=high`: fails on a known high or critical vulnerability in any
// dependency. When the package registry cannot be reached, it says so in one line and exits with
// 2, so that "nothing could be checked" is never mistaken for a finding or for a pass.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npm', ['audit', '--audit-level=high'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});

const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
const unreachable =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|CERT_|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT)|request to .* failed|audit endpoint returned an error/i;

if (result.error) {
  console.error(`npm audit could not run: ${result.error.message}`);
  process.exit(2);
}
if (result.status !== 0 && unreachable.test(output)) {
  const detail =
    /npm (?:error|ERR!) (?!A complete log)(.+)/.exec(output)?.[1]?.trim() ?? 'no answer';
  console.error(
    `npm audit could not reach the package registry (${detail}): no dependency was checked. ` +
      'Run it again with network access to the registry (or the mirror npm is configured for).',
  );
  process.exit(2);
}
process.stdout.write(output);
process.exit(result.status ?? 1);
