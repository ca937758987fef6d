// A PostgreSQL of its own for `npm test`, when TEST_DATABASE_URL names none: a new cluster in a
// temporary folder, on a free loopback port, removed when the tests end. Like the browser tests'
// Chromium, it comes from the machine's packages (Debian's `postgresql`), never from a download.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

const packagedBinaries = '/usr/lib/postgresql';

/** The newest packaged PostgreSQL's bin folder, or undefined. */
export function postgresBinaries() {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  if (!existsSync(packagedBinaries)) return undefined;
  const [newest] = readdirSync(packagedBinaries)
    .filter((version) => existsSync(path.join(packagedBinaries, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return newest ? path.join(packagedBinaries, newest, 'bin') : undefined;
}

/**
 * Starts the cluster and returns its address and a way to remove it. PostgreSQL refuses to run
 * as root, so under root (CI containers) the cluster belongs to the `postgres` user.
 */
export async function startThrowawayPostgres(binaries) {
  const root = mkdtempSync(path.join(tmpdir(), 'portal-test-postgres-'));
  const data = path.join(root, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), 0);
  const run = (command, args) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(binaries, command), ...args]]
      : [path.join(binaries, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error}`);
    }
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  run('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`,
    '-l',
    path.join(root, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
