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
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../api/db/client.ts';
import { requests, requestUpdates, sessions, users } from '../api/db/schema/index.ts';
import { hashPassword } from '../api/services/sign-in/passwords.ts';
import { cookieHeaderOf, keepSetCookie } from './cookie-jar.ts';
import { startPortalServer } from './portal-server.ts';
import { SIGN_IN_PER_IP, windowStartFor } from '../api/services/rate-limits.ts';
import { portRange } from '../scripts/free-port.mjs';

const databaseServer = process.env.LOAD_DATABASE_URL;
const memberCount = Number(process.env.LOAD_MEMBERS ?? 200);
const rounds = Number(process.env.LOAD_ROUNDS ?? 2);
const reportFile = 'reports/load.json';
const password = 'load-test passphrase 2026';
/** Shared by both servers, as every copy of the site must share them. */
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

/** Both servers' settings: no demo data, loopback trusted as the members' proxy. */
function serverSettings(databaseUrl) {
  return {
    DATABASE_URL: databaseUrl.toString(),
    SEED_DEMO_DATA: 'false',
    TRUSTED_PROXIES: 'loopback',
    ...sharedSecrets,
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
const memberAddress = (index) => `198.18.${Math.floor(index / 250) % 256}.${(index % 250) + 1}`;

/** Every step's p99 under this, for a count of members to be served. */
const servedWithinMs = 1000;

/** Processor time used so far, in seconds: by these processes (threads included), and by all. */
function processorSeconds(pids) {
  const ticksPerSecond = 100;
  const used = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // utime and stime: the 14th and 15th fields, counted after the name.
      return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
    } catch {
      return Number.NaN;
    }
  };
  const [cpuLine = ''] = (() => {
    try {
      return readFileSync('/proc/stat', 'utf8').split('\n');
    } catch {
      return [];
    }
  })();
  const [, ...counts] = cpuLine.trim().split(/\s+/).map(Number);
  // user, nice, system, irq, softirq, steal: busy; idle and iowait are not.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = counts;
  return {
    servers: pids.reduce((sum, pid) => sum + used(pid), 0),
    machine: (user + nice + system + irq + softirq + steal) / ticksPerSecond,
  };
}

/**
 * One wave: the first `count` members all at once, each its journey (without the noisy client),
 * from addresses no earlier wave used. Answers every step's p99, the slowest step, and what the
 * servers and the whole machine used of its cores meanwhile.
 */
async function wave(accounts, origins, pids, count, addressOffset) {
  samples.length = 0;
  const before = processorSeconds(pids);
  const startedAt = performance.now();
  await Promise.all(
    accounts
      .slice(0, count)
      .map((account, index) =>
        memberJourney(
          new Member(index, origins, memberAddress(addressOffset + index)),
          account.email,
        ),
      ),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  const after = processorSeconds(pids);
  const steps = stepTable();
  const slowest = steps.reduce((worst, step) => (step.p99Ms > worst.p99Ms ? step : worst));
  return {
    members: count,
    served: slowest.p99Ms < servedWithinMs,
    slowestStep: slowest.step,
    slowestP99Ms: slowest.p99Ms,
    signInP50Ms: steps.find((step) => step.step === 'sign in (form)')?.p50Ms ?? 0,
    requestsPerSecond: Math.round(samples.length / seconds),
    serverCores: Number(((after.servers - before.servers) / seconds).toFixed(2)),
    machineBusyShare: Number(
      ((after.machine - before.machine) / seconds / cpus().length).toFixed(2),
    ),
  };
}

/**
 * The largest count of members arriving together whose every step's p99 stays under a second:
 * doubling from 10 until a count is not served (or the accounts run out), then halving the gap
 * until it is within a tenth. Answers the waves in the order run and the largest count served.
 */
async function searchCapacity(accounts, origins, pids, knownMiss) {
  const waves = [];
  let addressOffset = accounts.length;
  const run = async (count) => {
    const result = await wave(accounts, origins, pids, count, addressOffset);
    addressOffset += count;
    waves.push(result);
    console.log(
      `  ${count} members: slowest ${result.slowestStep} p99 ${result.slowestP99Ms} ms, ` +
        `${result.requestsPerSecond} requests/s, servers ${result.serverCores} cores, ` +
        `machine ${Math.round(result.machineBusyShare * 100)}% busy`,
    );
    return result;
  };
  let served;
  let missed = knownMiss;
  for (let count = Math.min(10, accounts.length); ; count = Math.min(count * 2, accounts.length)) {
    if (missed && count >= missed.members) break;
    const result = await run(count);
    if (!result.served) {
      missed = result;
      break;
    }
    served = result;
    if (count === accounts.length) break;
  }
  while (served && missed && missed.members - served.members > Math.max(1, served.members / 10)) {
    const result = await run(Math.round((served.members + missed.members) / 2));
    if (result.served) served = result;
    else missed = result;
  }
  return { waves, served, missed };
}

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
      startPortalServer(serverSettings(databaseUrl)),
      startPortalServer(serverSettings(databaseUrl)),
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
  const requestsSent = samples.length;

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
  const mainSlowest = table.reduce((worst, step) => (step.p99Ms > worst.p99Ms ? step : worst));
  console.log(
    `\nHow many members at once keep every step's p99 under ${servedWithinMs} ms? Waves of ` +
      `members arriving together, ${rounds} rounds each, no noisy client:`,
  );
  const capacity = await searchCapacity(
    accounts,
    origins,
    servers.map((server) => server.pid),
    mainSlowest.p99Ms < servedWithinMs
      ? undefined
      : { members: memberCount, slowestStep: mainSlowest.step, slowestP99Ms: mainSlowest.p99Ms },
  );
  const serverErrorLines = servers.flatMap((server) => server.errorLines);
  const report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    members: memberCount,
    rounds,
    seconds: Number(seconds.toFixed(1)),
    requests: requestsSent,
    requestsPerSecond: Math.round(requestsSent / seconds),
    steps: table,
    noisyClient: noisy,
    writes,
    capacity: {
      servedWithinMs,
      largestServed: capacity.served?.members ?? 0,
      firstNotServed: capacity.missed ?? null,
      waves: capacity.waves,
    },
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
  const { served, missed } = capacity;
  console.log(
    served
      ? `Largest count of members at once with every p99 under ${servedWithinMs} ms: ` +
          `${served.members}${missed ? '' : ` (every count tried, up to ${accounts.length})`}` +
          (missed
            ? `; at ${missed.members}, ${missed.slowestStep} took ${missed.slowestP99Ms} ms (p99)` +
              (missed.serverCores === undefined
                ? ''
                : `, the servers used ${missed.serverCores} of ${cpus().length} cores and the ` +
                  `machine was ${Math.round(missed.machineBusyShare * 100)}% busy; sign-in's ` +
                  `p50 was ${missed.signInP50Ms} ms`)
            : '') +
          '.'
      : `Not even ${Math.min(10, accounts.length)} members at once had every p99 under ${servedWithinMs} ms.`,
  );

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
