// `npm test`: every check and every test, in the order that fails fastest.
// Static checks (format, lint, types) count as one test each; vitest and
// Playwright report through their JSON files. The last line is the plain
// `N passed, N failed` that CI reads.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { installMissing, installPlan, thisMachine } from './system-packages.mjs';
import { postgresBinaries, startThrowawayPostgres } from './throwaway-postgres.mjs';

const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0 };
const failures = [];
// No telemetry: the machines reach no network but the package registries.
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ASTRO_TELEMETRY_DISABLED: '1' };

/** How long each stage took, for the table printed at the end. */
const stageTimes = [];

/**
 * The processor time of every finished child of this process, in seconds (Linux): a stage's cost
 * that other work on the machine does not inflate, as it does the stage's wall time.
 */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime, fields 16 and 17 of proc(5), in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function timed(stage, work) {
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  try {
    return await work();
  } finally {
    stageTimes.push({
      stage,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: childrenCpuSeconds() - cpuBefore,
    });
  }
}

/** Runs a command with inherited output; returns whether it exited 0. */
function run(label, command, args, extraEnv = {}) {
  console.log(`\n── ${label} ──`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  return result.status === 0;
}

/**
 * Runs a command beside others, its output kept and printed whole once it ends, so that the
 * outputs of commands running together do not interleave; resolves to whether it exited 0.
 */
function runBeside(label, command, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, ...extraEnv },
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      console.log(`\n── ${label} ──`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

function count(label, ok) {
  if (ok) {
    totals.passed += 1;
  } else {
    totals.failed += 1;
    failures.push(label);
  }
}

function check(label, command, args) {
  count(label, run(label, command, args));
}

function countVitest(label, file, ok) {
  if (!existsSync(file)) {
    totals.failed += 1;
    failures.push(`${label} (no report)`);
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  if (report.numFailedTests > 0 || !ok) failures.push(label);
  if (!ok && report.numFailedTests === 0) totals.failed += 1;
}

function countPlaywright(file, ok) {
  if (!existsSync(file)) {
    totals.failed += 1;
    failures.push('e2e (no report)');
    return;
  }
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  const failed = stats.unexpected + stats.flaky;
  totals.passed += stats.expected;
  totals.failed += failed;
  if (failed > 0 || !ok) failures.push('e2e');
  if (!ok && failed === 0) totals.failed += 1;
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// What the machine lacks (Debian's Chromium and PostgreSQL) is installed from the distribution's
// packages when this user may, as Playwright's install-deps does; otherwise the command to run is
// printed. A Chromium or PostgreSQL of the user's own (CHROMIUM_PATH, TEST_DATABASE_URL) is used
// as it is.
const plan = installPlan(
  thisMachine({
    hasChromium: existsSync(chromium) || process.env.CHROMIUM_PATH !== undefined,
    hasPostgres: Boolean(process.env.TEST_DATABASE_URL) || postgresBinaries() !== undefined,
  }),
);
/** Stops before any test ran, with the closing line CI reads. */
function giveUp(message) {
  if (message) console.error(message);
  writeFileSync(`${reports}/summary.txt`, '0 passed, 1 failed\n');
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

if (!installMissing(plan)) giveUp();
if (!existsSync(chromium)) {
  giveUp(`No Chromium at ${chromium} (CHROMIUM_PATH): the browser tests need one.`);
}

// The PostgreSQL tests (the API contract a second time, and the browser tests of a database going
// away or shared by two servers) run on TEST_DATABASE_URL, or on a PostgreSQL of our own.
let throwawayPostgres;
if (!process.env.TEST_DATABASE_URL) {
  const binaries = postgresBinaries();
  if (!binaries) giveUp('No PostgreSQL server after installing it: see the messages above.');
  throwawayPostgres = await startThrowawayPostgres(binaries);
  process.on('exit', () => throwawayPostgres.stop());
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
  env.TEST_DATABASE_URL = throwawayPostgres.url;
  console.log(`\n(PostgreSQL of our own for the tests: ${throwawayPostgres.url})`);
}

// The typed lint rules and the type check need Astro's generated types (astro:actions, astro:content).
// Then the three static checks, vitest on PGlite, and vitest a second time on PostgreSQL for the
// API tests tagged `database` (those exercise what PGlite and PostgreSQL could do differently) run
// side by side: each check uses one core, and vitest leaves part of the second idle while its files
// load. The file of vitest that compares response times runs last (vitest.config.ts), once the
// others have ended.
check('generate types (astro sync)', 'npx', ['astro', 'sync']);
const staticChecks = [
  ['format (prettier)', 'npx', ['prettier', '--check', '.']],
  ['lint (eslint)', 'npx', ['eslint', '--max-warnings=0', '.']],
  ['types (astro check)', 'npx', ['astro', 'check']],
];
await timed('static checks and vitest', () =>
  Promise.all([
    Promise.all(staticChecks.map(([label, command, args]) => runBeside(label, command, args))).then(
      (results) => staticChecks.forEach(([label], index) => count(label, results[index])),
    ),
    runBeside(
      'unit and API contract tests on PGlite',
      'npx',
      [
        'vitest',
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile=${reports}/vitest.json`,
      ],
      { DATABASE_URL: '' },
    ).then((ok) => countVitest('vitest', `${reports}/vitest.json`, ok)),
    runBeside(
      'API contract tests tagged database, on PostgreSQL',
      'npx',
      [
        'vitest',
        'run',
        '--project',
        'api*',
        '--tags-filter=database',
        '--reporter=default',
        '--reporter=json',
        `--outputFile=${reports}/vitest-postgres.json`,
      ],
      { DATABASE_URL: env.TEST_DATABASE_URL },
    ).then((ok) => countVitest('vitest on PostgreSQL', `${reports}/vitest-postgres.json`, ok)),
  ]),
);

// Built as production is behind a proxy: with PUBLIC_ORIGIN known at build time, Astro trusts
// forwarded headers for it, which the browser tests attack.
const e2eOrigin = `http://127.0.0.1:${process.env.E2E_PORT ?? 4399}`;
const built = await timed('build', () =>
  run('build', 'npm', ['run', 'build'], { PUBLIC_ORIGIN: e2eOrigin }),
);
if (built) {
  totals.passed += 1;
  await timed('browser tests', () => {
    const e2eOk = run('browser tests (Playwright)', 'npx', ['playwright', 'test']);
    countPlaywright(`${reports}/e2e.json`, e2eOk);
  });
} else {
  totals.failed += 1;
  failures.push('build');
}

// The total is the whole run's, setting up PostgreSQL included.
const minutes = (seconds) => (seconds / 60).toFixed(1).padStart(8);
const timeTable = [
  `${'stage'.padEnd(32)}${'minutes'.padStart(8)}${'CPU min'.padStart(8)}`,
  ...[
    ...stageTimes,
    { stage: 'total', seconds: performance.now() / 1000, cpuSeconds: childrenCpuSeconds() },
  ].map(
    ({ stage, seconds, cpuSeconds }) =>
      `${stage.padEnd(32)}${minutes(seconds)}${minutes(cpuSeconds)}`,
  ),
].join('\n');
writeFileSync(`${reports}/stage-times.txt`, `${timeTable}\n`);
console.log(`\nTime per stage:\n${timeTable}`);
if (failures.length > 0) console.log(`\nFailed: ${failures.join(', ')}`);
const summary = `${totals.passed} passed, ${totals.failed} failed`;
writeFileSync(`${reports}/summary.txt`, `${summary}\n`);
console.log(`\n${summary}`);
process.exit(totals.failed > 0 ? 1 : 0);
