// `npm run profile`: where a rendered signed-in page's server time goes. A production build
// served on a fresh database, the demo member signed in, one page asked for by 10 clients for
// PROFILE_SECONDS (10) with a query of its own each time, so that no kept copy answers
// (bench/unkept-views.ts), under V8's profiler: the web server's thread and the embedded API's.
// Prints the processor time per view (both threads, from /proc) and each thread's time by where
// its code comes from (bench/profile-summary.ts); the profiles themselves go to reports/profile/,
// for Chromium's DevTools. PROFILE_PAGE (/dashboard) picks the page, PROFILE_DATABASE=postgres
// runs the API on a throw-away PostgreSQL cluster instead of PGlite.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cookieHeaderOf } from './cookie-jar.ts';
import { processorMs } from './processor-time.ts';
import { signIn } from './demo-visitors.ts';
import { startPortalServer } from './portal-server.ts';
import { timeBySource } from './profile-summary.ts';
import { unkeptViews } from './unkept-views.ts';
import { postgresBinaries, startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';

const page = process.env.PROFILE_PAGE ?? '/dashboard';
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const onPostgres = process.env.PROFILE_DATABASE === 'postgres';
const demoPassword = process.env.DEMO_PASSWORD ?? 'portal-demo-2026';
const projectRoot = process.cwd();
const profileDir = path.resolve('reports/profile');
/** Threads by the order Node numbers their profiles in: the web server's, then the API's. */
const threadNames = ['web server', 'embedded API'];
/** Sources under this share of a thread's time are summed as one line. */
const smallestShown = 0.01;

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(1);

rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });
let postgres;
if (onPostgres) {
  const binaries = postgresBinaries();
  if (!binaries) throw new Error('No PostgreSQL on this machine: install Debian’s `postgresql`.');
  postgres = await startThrowawayPostgres(binaries);
}
const server = await startPortalServer({
  SENTRY_DSN: '',
  DEMO_COMPANY_SIGN_IN: 'false',
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}`,
  ...(postgres ? { DATABASE_URL: postgres.url } : {}),
});
let views;
try {
  const cookie = cookieHeaderOf(await signIn(server.origin, 'member@example.com', demoPassword));
  const unkept = unkeptViews();
  const options = {
    url: `${server.origin}${page}`,
    connections: 10,
    headers: { 'accept-encoding': 'br, gzip', cookie },
    requests: [{ setupRequest: (request) => ({ ...request, path: unkept(page) }) }],
  };
  await autocannon({ ...options, duration: 3 });
  const before = processorMs(server.pid);
  const result = await autocannon({ ...options, duration: seconds });
  const used = processorMs(server.pid) - before;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${page}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
  }
  views = { perSecond: result.requests.average, msEach: used / result.requests.total };
} finally {
  await server.stop();
  postgres?.stop();
}

console.log(
  `\n${page}, rendered every time, ${onPostgres ? 'PostgreSQL' : 'embedded PGlite'}: ` +
    `${views.perSecond.toFixed(0)} views/s, ${views.msEach.toFixed(1)} ms of processor time each ` +
    '(both threads).',
);
const profiles = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort((a, b) => Number(a.split('.').at(-2)) - Number(b.split('.').at(-2)));
profiles.forEach((name, index) => {
  const shares = timeBySource(
    JSON.parse(readFileSync(path.join(profileDir, name), 'utf8')),
    projectRoot,
  );
  const shown = shares.filter((share) => share.share >= smallestShown);
  const rest = shares
    .filter((share) => share.share < smallestShown)
    .reduce((sum, s) => sum + s.share, 0);
  console.log(`\n${threadNames[index] ?? `thread ${index}`} (${name}), self time by source:`);
  for (const { source, share } of shown) {
    console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${source}`);
  }
  console.log(`  ${(rest * 100).toFixed(1).padStart(5)}%  the rest, each under 1%`);
});
console.log(`\nThe whole run is profiled, start-up included. Profiles: ${profileDir}`);
