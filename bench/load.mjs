// `npm run load`: a bounded load test on loopback. Two production web servers share one
// PostgreSQL, as they would behind a load balancer without sticky sessions, and LOAD_MEMBERS
// members (200) use them at once: each signs in, then, LOAD_ROUNDS times, opens the Dashboard and
// Requests, makes a request with the form posted as without JavaScript, opens it and adds a note
// with the island's action call, and signs out; every request of a member goes to the other
// server than the one before. Meanwhile one client spends the sign-in limit of its address, so
// the only 429s are that client's deliberate ones. Afterwards the database is counted against
// the writes the members saw succeed. Prints latency per step and throughput, writes
// reports/load.json, and exits 1 on any unexpected answer, server error line or miscount.
//
// The servers trust loopback, where this script calls from, as their proxy
// (TRUSTED_PROXIES=loopback), and each simulated member sends an X-Forwarded-For of its own, as a
// load balancer would write it: the per-address sign-in limit then counts each member apart, as
// it would count real visitors.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../api/db/client.ts';
import { requests, requestUpdates, sessions, users } from '../api/db/schema.ts';
import { hashPassword } from '../api/services/passwords.ts';
import { cookieHeaderOf, keepSetCookie } from './cookie-jar.ts';
import { SIGN_IN_PER_IP, windowStartFor } from '../api/services/rate-limits.ts';
import { freePort, portRange } from '../scripts/free-port.mjs';

const databaseServer = process.env.LOAD_DATABASE_URL;
const memberCount = Number(process.env.LOAD_MEMBERS ?? 200);
const rounds = Number(process.env.LOAD_ROUNDS ?? 2);
const reportFile = 'reports/load.json';
const password = 'load-test passphrase 2026';
/** Shared by both servers, as every copy of the site must share them (docs/OPERATIONS.md). */
const sharedSecrets = {
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  STORAGE_SECRET: randomBytes(32).toString('base64url'),
};
/** Extra sign-in attempts past the limit that the one noisy client makes. */
const attemptsPastLimit = 5;

if (!databaseServer) {
  console.error(
    'LOAD_DATABASE_URL is not set: give it a PostgreSQL server (postgres://…) on which the load ' +
      'test may create and drop a database of its own (see docs/PERFORMANCE.md, "Load").',
  );
  process.exit(2);
}
if (!(Number.isInteger(memberCount) && memberCount > 0 && memberCount <= 60_000)) {
  throw new Error('LOAD_MEMBERS must be a whole number from 1 to 60000.');
}
if (!(Number.isInteger(rounds) && rounds > 0)) {
  throw new Error('LOAD_ROUNDS must be a whole number above 0.');
}
// Throws on a wrong TEST_PORT_RANGE now, before the build and the database.
portRange();

/** One timed HTTP step: name, status, milliseconds, and whether the status was expected. */
const samples = [];
const unexpected = [];

/** A browser of one member: its cookie jar and its own address, sent as a proxy would. */
class Member {
  cookies = new Map();
  sent = 0;

  constructor(index, servers, address) {
    this.index = index;
    this.servers = servers;
    this.address = address;
  }

  /** The server for the next request: never the one before (no sticky sessions). */
  nextOrigin() {
    const origin = this.servers[(this.index + this.sent) % this.servers.length];
    this.sent += 1;
    return origin;
  }

  xsrfToken() {
    return this.cookies.get('XSRF-TOKEN') ?? '';
  }

  /**
   * Sends one request, timed until its body is read whole; records it under `step`, and as
   * unexpected unless its status is one of `expected`. Answers the status, headers and body.
   */
  async send(step, pathname, { method = 'GET', headers = {}, body, expected = [200] } = {}) {
    const origin = this.nextOrigin();
    const startedAt = performance.now();
    let status = 0;
    let responseHeaders = new Headers();
    let text = '';
    try {
      const response = await fetch(`${origin}${pathname}`, {
        method,
        headers: {
          cookie: cookieHeaderOf(this.cookies),
          'x-forwarded-for': this.address,
          'accept-encoding': 'br, gzip',
          ...(method === 'GET' ? {} : { origin, 'sec-fetch-site': 'same-origin' }),
          ...headers,
        },
        body,
        redirect: 'manual',
      });
      text = await response.text();
      status = response.status;
      responseHeaders = response.headers;
      for (const line of response.headers.getSetCookie()) keepSetCookie(this.cookies, line);
    } catch (error) {
      text = error instanceof Error ? error.message : String(error);
    }
    const milliseconds = performance.now() - startedAt;
    const ok = expected.includes(status);
    samples.push({ step, status, milliseconds, ok });
    if (!ok) unexpected.push({ step, status, member: this.index, detail: text.slice(0, 200) });
    return { status, headers: responseHeaders, text, ok };
  }

  postForm(step, pathname, fields, expected = [303]) {
    return this.send(step, pathname, {
      method: 'POST',
      body: new URLSearchParams({ ...fields, _xsrf: this.xsrfToken() }),
      expected,
    });
  }
}

/** What the members saw succeed, to hold the database to afterwards. */
const succeeded = { requests: new Map(), notes: new Set(), signOuts: 0 };

async function memberJourney(member, email) {
  await member.send('sign-in page', '/sign-in');
  const signedIn = await member.postForm('sign in (form)', '/sign-in?_action=auth.signIn', {
    email,
    password,
  });
  if (!signedIn.ok) return;
  for (let round = 0; round < rounds; round += 1) {
    await member.send('dashboard', '/dashboard');
    await member.send('requests', '/requests');
    const title = `Load ${member.index}.${round} ${randomUUID().slice(0, 8)}`;
    const created = await member.postForm(
      'new request (form)',
      '/dashboard?_action=requests.create',
      {
        category_id: 'travel',
        title,
        details: 'Made by npm run load.',
      },
    );
    const requestPath = created.headers.get('location') ?? '';
    const requestId = /^\/requests\/([0-9a-f-]{36})$/.exec(requestPath)?.[1];
    if (!created.ok || !requestId) continue;
    succeeded.requests.set(title, requestId);
    const page = await member.send('request page', requestPath);
    if (page.ok && !page.text.includes(title)) {
      unexpected.push({
        step: 'request page',
        status: page.status,
        member: member.index,
        detail: 'without its title',
      });
    }
    const note = `Load note ${randomUUID()}`;
    const form = new FormData();
    form.append('request_id', requestId);
    form.append('body', note);
    const added = await member.send('note (action call)', '/_actions/requests.addNote', {
      method: 'POST',
      headers: { 'x-xsrf-token': member.xsrfToken() },
      body: form,
    });
    if (added.ok) succeeded.notes.add(note);
  }
  const signedOut = await member.postForm('sign out (form)', '/dashboard?_action=auth.signOut', {});
  if (signedOut.ok) succeeded.signOuts += 1;
}

/**
 * One client, one address, alternating servers, with an unknown email: the first
 * SIGN_IN_PER_IP.limit attempts are refused as wrong (401), every later one is limited (429).
 */
async function noisyClient(servers) {
  const client = new Member(0, servers, '198.19.255.254');
  await client.send('sign-in page', '/sign-in');
  const windowAtStart = windowStartFor(new Date(), SIGN_IN_PER_IP.windowMs).getTime();
  const statuses = [];
  for (let attempt = 0; attempt < SIGN_IN_PER_IP.limit + attemptsPastLimit; attempt += 1) {
    const answer = await client.postForm(
      'sign in, limited address (form)',
      '/sign-in?_action=auth.signIn',
      { email: 'nobody@example.com', password: 'not the password' },
      [401, 429],
    );
    statuses.push(answer.status);
  }
  const windowAtEnd = windowStartFor(new Date(), SIGN_IN_PER_IP.windowMs).getTime();
  return {
    refused: statuses.filter((status) => status === 401).length,
    limited: statuses.filter((status) => status === 429).length,
    windowRolledOver: windowAtStart !== windowAtEnd,
  };
}

function percentile(sorted, share) {
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

function stepTable() {
  const steps = [...new Set(samples.map((sample) => sample.step))];
  return steps.map((step) => {
    const times = samples
      .filter((sample) => sample.step === step)
      .map((sample) => sample.milliseconds)
      .sort((a, b) => a - b);
    const statuses = {};
    for (const sample of samples.filter((candidate) => candidate.step === step)) {
      statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
    }
    return {
      step,
      requests: times.length,
      statuses,
      p50Ms: Math.round(percentile(times, 0.5)),
      p99Ms: Math.round(percentile(times, 0.99)),
      maxMs: Math.round(times.at(-1) ?? 0),
    };
  });
}

async function startServer(settings) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-load-'));
  // Not this shell's API, error reporting or mail: each server has its embedded API.
  const inherited = Object.entries(process.env).filter(
    ([name]) => !['API_ORIGIN', 'SENTRY_DSN', 'SMTP_URL'].includes(name),
  );
  const env = {
    ...Object.fromEntries(inherited),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_ORIGIN: origin,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'false',
    TRUSTED_PROXIES: 'loopback',
    ...sharedSecrets,
    ...settings,
  };
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { errorLines: [] };
  let pending = '';
  const read = (chunk) => {
    pending += String(chunk);
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (/"level":"(error|fatal)"/.test(line)) log.errorLines.push(line.slice(0, 300));
    }
  };
  child.stderr.on('data', read);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      read(chunk);
      if (String(chunk).includes('Member portal ready')) resolve(undefined);
    });
    void exited.then((code) => {
      reject(new Error(`the server on ${origin} exited with ${code}`));
    });
  });
  return {
    origin,
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function onServer(statement) {
  const client = new pg.Client({ connectionString: databaseServer });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The members' accounts, written straight to the database (one hash: one password for all). */
async function seedMembers(db) {
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const rows = Array.from({ length: memberCount }, (_, index) => ({
    email: `load-${index}@example.com`,
    passwordHash,
    name: `Load${index}`,
    lastName: 'Member',
    // Said "not now" to the phone offer, so sign-in goes straight to the Dashboard.
    mfaDeclinedAt: now,
  }));
  const inserted = await db
    .insert(users)
    .values(rows)
    .returning({ id: users.id, email: users.email });
  return inserted;
}

/** The member at `index` writes as 198.18.x.y (RFC 2544's benchmarking range): its own address. */
const memberAddress = (index) => `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`;

// ── run ──────────────────────────────────────────────────────────────────────────────────────

console.log('Building (npm run build)…');
const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(1);

const databaseName = `load_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
await onServer(`CREATE DATABASE "${databaseName}"`);
const databaseUrl = new URL(databaseServer);
databaseUrl.pathname = `/${databaseName}`;
const servers = [];
const opened = await openDatabase({ databaseUrl: databaseUrl.toString() });
let failed = false;
try {
  const accounts = await seedMembers(opened.db);
  console.log(
    `Seeded ${accounts.length} members in database ${databaseName}; starting two servers…`,
  );
  servers.push(
    ...(await Promise.all([
      startServer({ DATABASE_URL: databaseUrl.toString() }),
      startServer({ DATABASE_URL: databaseUrl.toString() }),
    ])),
  );
  const origins = servers.map((server) => server.origin);

  console.log(
    `${memberCount} members at once, ${rounds} rounds each, on ${origins.join(' and ')}…`,
  );
  const startedAt = performance.now();
  const [noisy] = await Promise.all([
    noisyClient(origins),
    ...accounts.map((account, index) =>
      memberJourney(new Member(index, origins, memberAddress(index)), account.email),
    ),
  ]);
  const seconds = (performance.now() - startedAt) / 1000;

  // The database against what the members saw.
  const memberIds = accounts.map((account) => account.id);
  const storedRequests = await opened.db
    .select({ id: requests.id, title: requests.title })
    .from(requests)
    .where(inArray(requests.userId, memberIds));
  const storedNotes = await opened.db
    .select({ body: requestUpdates.body })
    .from(requestUpdates)
    .where(sql`${requestUpdates.kind} = 'note' and ${requestUpdates.body} like 'Load note %'`);
  const [sessionCounts] = await opened.db
    .select({
      started: sql`count(*)::int`,
      revoked: sql`count(${sessions.revokedAt})::int`,
    })
    .from(sessions)
    .where(inArray(sessions.userId, memberIds));
  const titles = storedRequests.map((row) => row.title);
  const noteBodies = storedNotes.map((row) => row.body);
  const writes = {
    requestsSeen: succeeded.requests.size,
    requestsStored: storedRequests.length,
    requestsMissing: [...succeeded.requests].filter(
      ([title, id]) => !storedRequests.some((row) => row.title === title && row.id === id),
    ).length,
    requestsDuplicated: titles.length - new Set(titles).size,
    notesSeen: succeeded.notes.size,
    notesStored: storedNotes.length,
    notesMissing: [...succeeded.notes].filter((note) => !noteBodies.includes(note)).length,
    notesDuplicated: noteBodies.length - new Set(noteBodies).size,
    sessionsStarted: sessionCounts.started,
    sessionsEndedBySignOut: sessionCounts.revoked,
    signOutsSeen: succeeded.signOuts,
  };

  const table = stepTable();
  const serverErrorLines = servers.flatMap((server) => server.log.errorLines);
  const report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    members: memberCount,
    rounds,
    seconds: Number(seconds.toFixed(1)),
    requests: samples.length,
    requestsPerSecond: Math.round(samples.length / seconds),
    steps: table,
    noisyClient: noisy,
    writes,
    unexpected: unexpected.slice(0, 20),
    unexpectedCount: unexpected.length,
    serverErrorLines: serverErrorLines.slice(0, 20),
  };
  mkdirSync(path.dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\n| step | requests | statuses | p50 | p99 | max |`);
  console.log(`| --- | ---: | --- | ---: | ---: | ---: |`);
  for (const row of table) {
    const statuses = Object.entries(row.statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ');
    console.log(
      `| ${row.step} | ${row.requests} | ${statuses} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.maxMs} ms |`,
    );
  }
  console.log(
    `\n${report.requests} requests in ${report.seconds} s: ${report.requestsPerSecond} requests/s ` +
      `(${report.machine}).`,
  );
  console.log(
    `Limited address: ${noisy.refused} × 401, then ${noisy.limited} × 429` +
      (noisy.windowRolledOver ? ' (its window rolled over during the run: not judged)' : '') +
      '.',
  );
  console.log(`Writes: ${JSON.stringify(writes)}`);

  const problems = [];
  if (unexpected.length > 0) {
    problems.push(
      `${unexpected.length} unexpected answers, e.g. ${JSON.stringify(unexpected.slice(0, 3))}`,
    );
  }
  if (serverErrorLines.length > 0) {
    problems.push(
      `${serverErrorLines.length} error lines in the servers' logs, e.g. ${serverErrorLines[0]}`,
    );
  }
  if (
    !noisy.windowRolledOver &&
    (noisy.refused !== SIGN_IN_PER_IP.limit || noisy.limited !== attemptsPastLimit)
  ) {
    problems.push(`the limited address got ${noisy.refused} × 401 and ${noisy.limited} × 429`);
  }
  if (
    writes.requestsMissing +
      writes.requestsDuplicated +
      writes.notesMissing +
      writes.notesDuplicated >
      0 ||
    writes.requestsStored !== writes.requestsSeen ||
    writes.notesStored !== writes.notesSeen ||
    writes.sessionsEndedBySignOut !== writes.signOutsSeen
  ) {
    problems.push('the database does not hold exactly the writes the members saw succeed');
  }
  if (writes.requestsSeen !== memberCount * rounds || writes.signOutsSeen !== memberCount) {
    problems.push('not every member finished its journey');
  }
  for (const problem of problems) console.error(`FAILED: ${problem}`);
  failed = problems.length > 0;
  if (!failed) console.log('No errors, no lost or duplicated writes.');
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await opened.close();
  await onServer(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
}
process.exit(failed ? 1 : 0);
