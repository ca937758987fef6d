// `npm run scale`: whether the pages members use stay as fast as the data grows. On a production
// build served on PostgreSQL (a throw-away cluster from the machine's packages, or
// SCALE_DATABASE_URL's server, on which it creates and drops databases of its own), it makes two
// databases with the demo data (the dentist request given 200 notes), grows the second to 100,000
// members, 1,000,000 requests and 3,000,000 timeline entries, and gives its demo member 2,000 more
// requests. A server on each, it times the Dashboard, Requests (its first page and its last,
// reached by the pager's cursor), a request's page and a sign-in, one view at a time, each page
// rendered (never a kept copy), the two servers in turn, so that whatever else the machine is doing
// weighs on both alike. Prints the table, writes reports/scale.json, and exits 1 when a time at
// scale is past 1.5× the demo data's.
// Times, so never in `npm test`; that every member query has an index to use is held there
// (tests/api/query-plans.test.ts).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { encodeCursor } from '../api/services/requests/request-cursor.ts';
import { portRange } from '../scripts/free-port.mjs';
import { postgresBinaries, startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { cookieHeaderOf } from './cookie-jar.ts';
import { startPortalServer } from './portal-server.ts';
import { get } from './page-weight.ts';
import { unkeptViews } from './unkept-views.ts';
import { signIn } from './demo-visitors.ts';

const samplesPerPage = Number(process.env.SCALE_SAMPLES ?? 30);
const members = 100_000;
const requestsInAll = 1_000_000;
const entriesPerRequest = 3;
const memberRequests = 2_000;
const notesOnOneRequest = 200;
const allowedGrowth = 1.5;
const demoEmail = 'member@example.com';
const demoPassword = process.env.DEMO_PASSWORD ?? 'portal-demo-2026';
const reportFile = 'reports/scale.json';
portRange();

let signInsMade = 0;
/** A new address for each sign-in, so that the per-address limit never stops the timing. */
const nextAddress = () => {
  signInsMade += 1;
  return `198.18.${Math.floor(signInsMade / 250) % 250}.${(signInsMade % 250) + 1}`;
};

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(1);

const cluster = await databaseServer();
const run = randomBytes(4).toString('hex');
const sites = [];
let failed = false;
try {
  // One after the other: each server makes its database's tables and demo data as it starts.
  for (const kind of ['demo', 'grown']) sites.push(await openSite(`portal_scale_${run}_${kind}`));
  const [demo, grown] = sites;
  for (const site of sites) await addNotes(site.database);
  const seededIn = await growDatabase(grown.database);
  const timed = await timeEverything(demo, grown);
  const rows = timed.map(({ page, demoMs, scaleMs }) => {
    const ratio = scaleMs / demoMs;
    return { page, demoMs, scaleMs, ratio, ok: ratio <= allowedGrowth };
  });
  failed = rows.some((row) => !row.ok);
  print(rows, seededIn);
  mkdirSync(path.dirname(reportFile), { recursive: true });
  writeFileSync(
    reportFile,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), samplesPerPage, seededInSeconds: seededIn, rows }, null, 2)}\n`,
  );
} finally {
  for (const site of sites) {
    await site.database.end();
    await site.server.stop();
    await onServer(cluster.url, `drop database if exists ${site.name} with (force)`);
  }
  cluster.stop();
}
process.exit(failed ? 1 : 0);

/** A database of its own on the cluster, a production server on it, and a client of it. */
async function openSite(name) {
  await onServer(cluster.url, `create database ${name}`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  const server = await startPortalServer({
    DATABASE_URL: url.toString(),
    // Each timed sign-in comes from an address of its own, as the load test's members do.
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'warn',
  });
  const database = new pg.Client({ connectionString: url.toString() });
  await database.connect();
  return { name, server, database };
}

/** SCALE_DATABASE_URL's server, or a throw-away cluster. */
async function databaseServer() {
  if (process.env.SCALE_DATABASE_URL) {
    return { url: process.env.SCALE_DATABASE_URL, stop: () => undefined };
  }
  const binaries = postgresBinaries();
  if (!binaries) {
    console.error(
      "No PostgreSQL on this machine: install Debian's `postgresql` package, name its bin folder " +
        'in POSTGRES_BIN, or give a server in SCALE_DATABASE_URL.',
    );
    process.exit(2);
  }
  return startThrowawayPostgres(binaries);
}

async function onServer(url, statement) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The medians of `samplesPerPage` runs of `onDemo` and of `atScale`, one at a time and in turn
 * (which goes first alternates), after a few of each to warm up.
 */
async function medianPair(onDemo, atScale) {
  for (let warm = 0; warm < 3; warm += 1) {
    await onDemo();
    await atScale();
  }
  const times = { demo: [], scale: [] };
  const timeOnce = async (list, once) => {
    const started = performance.now();
    await once();
    list.push(performance.now() - started);
  };
  for (let sample = 0; sample < samplesPerPage; sample += 1) {
    const inTurn = [() => timeOnce(times.demo, onDemo), () => timeOnce(times.scale, atScale)];
    if (sample % 2 === 1) inTurn.reverse();
    for (const time of inTurn) await time();
  }
  return { demoMs: median(times.demo), scaleMs: median(times.scale) };
}

function median(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** What one site's member views: each page as a function that fetches it once. */
async function viewsOf({ server, database }) {
  const cookie = cookieHeaderOf(
    await signIn(server.origin, demoEmail, demoPassword, { 'x-forwarded-for': nextAddress() }),
  );
  // Each view a new address, so that every one is rendered: the server would otherwise send the
  // copy it kept of the first.
  const unkept = unkeptViews();
  const page = (address) => async () => {
    const answer = await get(`${server.origin}${unkept(address)}`, cookie);
    if (answer.status !== 200) throw new Error(`${address} answered ${answer.status}`);
  };
  return {
    dashboard: page('/dashboard'),
    requests: page('/requests'),
    lastPage: page(await lastOpenPageAddress(database)),
    noted: page(`/requests/${await mostNotedRequest(database)}`),
    signIn: () =>
      signIn(server.origin, demoEmail, demoPassword, { 'x-forwarded-for': nextAddress() }),
  };
}

async function timeEverything(demo, grown) {
  const [onDemo, atScale] = [await viewsOf(demo), await viewsOf(grown)];
  const pages = [
    ['Dashboard', 'dashboard'],
    ['Requests, first page', 'requests'],
    ['Requests, last page', 'lastPage'],
    [`a request with ${notesOnOneRequest} notes`, 'noted'],
    ['sign-in (password hashing included)', 'signIn'],
  ];
  const rows = [];
  for (const [page, view] of pages) {
    rows.push({ page, ...(await medianPair(onDemo[view], atScale[view])) });
  }
  return rows;
}

/**
 * The Open tab's last page as the pager reaches it: after the last request of the page before
 * (on the demo data, the first page itself).
 */
async function lastOpenPageAddress(database) {
  const { rows } = await database.query(
    `select id,
            to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
       from requests
      where user_id = (select id from users where email = $1)
        and status in ('submitted', 'in_progress', 'waiting_on_member')
      order by updated_at desc, created_at desc, id desc`,
    [demoEmail],
  );
  const lastPageStart = Math.floor((rows.length - 1) / 10) * 10;
  const before = rows[lastPageStart - 1];
  if (!before) return '/requests?tab=Open';
  const cursor = encodeCursor({
    updatedAt: before.updated,
    createdAt: before.created,
    id: before.id,
  });
  return `/requests?tab=Open&after=${cursor}`;
}

async function mostNotedRequest(database) {
  const { rows } = await database.query(
    `select requests.id from requests
       join request_updates on request_updates.request_id = requests.id
      where requests.user_id = (select id from users where email = $1)
      group by requests.id order by count(*) desc limit 1`,
    [demoEmail],
  );
  return rows[0]?.id;
}

/** Gives the demo member's dentist request its 200 notes, before any timing. */
async function addNotes(database) {
  await database.query(
    `insert into request_updates (request_id, kind, author, body, created_at)
     select (select requests.id from requests join users on users.id = requests.user_id
              where users.email = $1 and requests.title = 'A pediatric dentist near home'),
            'note', case when n % 2 = 0 then 'concierge' else 'member' end,
            'Note number ' || n || ' on the dentist.', now() - interval '1 day' + n * interval '1 second'
       from generate_series(1, $2) as n`,
    [demoEmail, notesOnOneRequest],
  );
  await database.query('analyze');
}

/** Grows the database in a few statements; answers how long it took, in seconds. */
async function growDatabase(database) {
  const started = performance.now();
  console.log(
    `Growing the database: ${members} members, ${requestsInAll} requests, ` +
      `${requestsInAll * entriesPerRequest} timeline entries…`,
  );
  const step = (label, statement, parameters = []) => {
    const at = performance.now();
    return database.query(statement, parameters).then(() => {
      console.log(`  ${label}: ${((performance.now() - at) / 1000).toFixed(1)} s`);
    });
  };
  await step(
    'members',
    `insert into users (email, password_hash, name, last_name, created_at, updated_at)
     select 'scale-' || n || '@example.com',
            (select password_hash from users where email = $1), 'Member', 'Number ' || n,
            now() - n * interval '1 minute', now() - n * interval '1 minute'
       from generate_series(1, $2) as n`,
    [demoEmail, members],
  );
  const { rows: firstMember } = await database.query(
    `select min(id) as id from users where email like 'scale-%'`,
  );
  await step(
    'requests',
    `with categories as (select array_agg(id order by id) as ids from request_categories)
     insert into requests (user_id, category_id, title, details, status, created_at, updated_at)
     select $3::int + n % $2, categories.ids[1 + n % array_length(categories.ids, 1)],
            'Request ' || n, 'Details of request ' || n,
            (array['submitted', 'in_progress', 'waiting_on_member', 'completed', 'cancelled'])[1 + n % 5],
            now() - n * interval '1 minute', now() - n * interval '30 seconds'
       from generate_series(1, $1) as n, categories`,
    [requestsInAll, members, firstMember[0]?.id],
  );
  await step(
    'timeline entries',
    `insert into request_updates (request_id, kind, author, body, created_at)
     select requests.id, case when entry = 1 then 'created' else 'note' end,
            case when entry = 2 then 'concierge' else 'member' end,
            case when entry = 1 then '' else 'A note on the request.' end,
            requests.created_at + (entry - 1) * interval '1 minute'
       from requests
       cross join generate_series(1, $1) as entry
      where requests.title like 'Request %'`,
    [entriesPerRequest],
  );
  await step(
    "the demo member's requests",
    `with made as (
       insert into requests (user_id, category_id, title, status, created_at, updated_at)
       select (select id from users where email = $1), 'everyday-errands', 'Errand ' || n,
              'in_progress', now() - interval '30 days' - n * interval '1 minute',
              now() - interval '30 days' - n * interval '1 minute'
         from generate_series(1, $2) as n
       returning id, created_at)
     insert into request_updates (request_id, kind, author, created_at)
     select id, 'created', 'member', created_at from made`,
    [demoEmail, memberRequests],
  );
  // Vacuumed as well as analysed: a database that grew to this size over months has been vacuumed
  // by autovacuum long since; grown in a minute, it would be vacuumed while the pages are timed.
  await step('vacuum and statistics', 'vacuum analyze');
  return (performance.now() - started) / 1000;
}

function print(rows, seededIn) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(
    `\nScale (docs/PERFORMANCE.md): median of ${samplesPerPage} one at a time, the two databases in turn, in ms; grown in ${seededIn.toFixed(0)} s.\n`,
  );
  console.log(line(['page', 'demo data', 'at scale', 'ratio', `≤ ${allowedGrowth}×`]));
  console.log(line(['---', '---:', '---:', '---:', '---']));
  for (const row of rows) {
    console.log(
      line([
        row.page,
        row.demoMs.toFixed(1),
        row.scaleMs.toFixed(1),
        `${row.ratio.toFixed(2)}×`,
        row.ok ? 'ok' : 'MISSED',
      ]),
    );
  }
}
