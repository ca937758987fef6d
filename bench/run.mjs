// `npm run bench`: the budgets of docs/PRODUCT.md §14, measured on a production build served on a
// fresh database: the weight of every page of the route table in every state (bench/page-weight.ts,
// shared with the byte-budget browser test), Lighthouse on the main pages, the throughput of the
// first visit and of the signed-in pages on the embedded default and on PostgreSQL (a second
// server on a throw-away cluster), and what the browser's error-reporting client adds to a page
// when a DSN is set (bench/monitoring-weight.ts, on a server whose DSN points at a loopback sink).
// Prints one table, writes it to reports/bench.json, exits 1 when a budget is missed.
// Nothing but 127.0.0.1 is reached: Chromium resolves no other host.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { portRange } from '../scripts/free-port.mjs';
import { startPortalServer } from './portal-server.ts';
import { postgresBinaries, startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { startReportSink } from '../tests/e2e/support/report-sink.ts';
import {
  benchReport,
  percent,
  renderedEveryTime,
  renderedProcessorFigure,
  verdict,
} from './bench-table.ts';
import { unkeptViews } from './unkept-views.ts';
import { floorHeaders, startFloorPage } from './floor-page.ts';
import { lcpCheck, lighthouseRule, performanceChecks } from './lighthouse-rule.ts';
import { lighthouseBesideFloor } from './lighthouse-runs.ts';
import { offlineChromiumFlags, startChromium } from './offline-chromium.ts';
import { measureMonitoringClient, monitoringBudgetCheck } from './monitoring-weight.ts';
import { byteBudgetChecks, kilobytes, measurePage, planVisits } from './page-weight.ts';
import { prepareDemo } from './demo-visitors.ts';
import { processorMs } from './processor-time.ts';
import { paths } from '../src/routes.ts';

const port = Number(process.env.BENCH_PORT ?? 4398);
const origin = `http://127.0.0.1:${port}`;
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const demoPassword = process.env.DEMO_PASSWORD ?? 'portal-demo-2026';
const reportFile = 'reports/bench.json';
// Read now, so that a wrong TEST_PORT_RANGE stops the bench before the build, not minutes after.
const testPortRange = portRange();

/**
 * §14: Lighthouse, mobile default throttling; performance by the rule of
 * bench/lighthouse-rule.ts.
 */
const lighthouseBudgets = { accessibility: 100, bestPractices: 100 };
/** §14: server-rendered GET /sign-in against a small static file. */
const signInThroughputShare = 0.35;
/**
 * §14: the signed-in pages members use every day against the static file, by the
 * database the server's embedded API runs on.
 */
const signedInThroughputShare = { embedded: 0.02, PostgreSQL: 0.06 };
/**
 * §14: the same pages rendered for every view (none sent again from a kept copy), with the API on
 * PostgreSQL: the processor time of a view, its web thread's and its embedded API's together, and
 * the share of the static file.
 */
const renderedViewBudgets = { PostgreSQL: { processorMs: 8, share: 0.05 } };

/** The pages Lighthouse loads: route and state, as planVisits names them. */
const lighthousePages = [
  ['SignIn', 'signed out'],
  ['SignUp', 'signed out, no companySlug'],
  ['MfaEnrollment', 'MFA enrollment required'],
  ['Dashboard', 'member'],
  ['Account', 'member'],
  ['AccountSecurity', 'member'],
  ['AccountDevices', 'member'],
  ['AccountActivity', 'member'],
  ['AccountData', 'member'],
  ['Requests', 'member'],
  ['Request', 'member'],
];
/**
 * The pages whose throughput is measured, against a static file: the first visit, and the
 * signed-in pages members use every day (the request is one with notes and a file).
 */
const throughputPages = [
  ['SignIn', 'signed out'],
  ['Dashboard', 'member'],
  ['Requests', 'member'],
  ['Requests', 'member, closed tab'],
  ['Request', 'member'],
  ['RequestCategory', 'member'],
];
/**
 * Pages measured a second time with every view a new address (a query the page ignores), so that
 * none is served from the copy the server keeps of a member's page: what a view costs when the
 * member's data has just changed, held to {@link renderedViewBudgets}.
 */
const unkeptThroughputPages = [
  ['Dashboard', 'member'],
  ['Requests', 'member'],
  ['Request', 'member'],
  ['RequestCategory', 'member'],
];
const staticFile = '/robots.txt';
/** The check that every module a page's scripts need is asked for at once (bench/page-weight.ts). */
const lateModulesFigure = 'modules found late';
/** The page the monitoring client is weighed on (it is the same on every page). */
const monitoringPage = ['SignIn', 'signed out'];

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(1);

// Without a DSN, even one set in this shell: the route budgets are measured without monitoring.
const server = await startPortalServer(
  {
    SENTRY_DSN: '',
    // The reset-password page is visited with the token of a real emailed link.
    OUTBOX_VIEWER: 'true',
  },
  port,
);

const rows = [];
try {
  const demo = await prepareDemo(origin, demoPassword);
  const { visits, unmeasured } = planVisits();

  for (const visit of visits) {
    const address = visit.path(demo);
    const weight = await measurePage(origin, address, demo.cookies[visit.visitor]);
    const checks = byteBudgetChecks(visit, weight).map((check) => ({
      ...check,
      shown: check.figure.startsWith('text responses')
        ? `uncompressed: ${weight.uncompressed.join(', ')}`
        : check.figure === lateModulesFigure
          ? `found late: ${weight.modulesFoundLate.join(', ')}`
          : `${shortName(check.figure)} ${kilobytes(check.value)} > ${kilobytes(check.budget)}`,
    }));
    if (weight.status !== visit.status) {
      checks.push({
        figure: 'status',
        value: weight.status,
        budget: visit.status,
        ok: false,
        shown: `status ${weight.status}, not ${visit.status}`,
      });
    }
    rows.push({ route: visit.route, state: visit.state, path: address, visit, weight, checks });
  }

  rows.push(...(await monitoringRows(rowOf(...monitoringPage))));

  if (lighthouseRuns > 0) {
    const chromium = await startChromium(chromiumPath, testPortRange);
    const floorPage = await startFloorPage(await signInHeaders());
    try {
      const measured = lighthousePages.map(([route, state]) => rowOf(route, state));
      const dashboard = rowOf('Dashboard', 'member');
      // Shown, not held to a budget: a member whose browser lost the stylesheet waits for it once.
      const coldDashboard = {
        route: 'Dashboard',
        state: 'member, cold cache',
        path: dashboard.path,
        checks: [],
      };
      const visits = [
        ...measured.map((row) => ({
          row,
          url: `${origin}${row.path}`,
          cookie: demo.cookies[row.visit.visitor],
          // A member reaches a signed-in page from the sign-in page, which fetched its stylesheet.
          arriveFrom: row.visit.signedInPage ? `${origin}${paths.signIn}` : undefined,
        })),
        { row: coldDashboard, url: `${origin}${dashboard.path}`, cookie: demo.cookies.member },
      ];
      const { pages, floor } = await lighthouseBesideFloor(
        chromium.port,
        visits,
        floorPage.url,
        lighthouseRuns,
      );
      for (const { visit, scores } of pages) visit.row.lighthouse = scores;
      // The floor, measured beside the pages, says which performance rule they are held to.
      const rule = lighthouseRule(floor);
      for (const row of measured) {
        const scores = row.lighthouse;
        row.checks.push(
          ...performanceChecks(scores, rule),
          atLeast('accessibility', scores.accessibility, lighthouseBudgets.accessibility),
          atLeast('best practices', scores.bestPractices, lighthouseBudgets.bestPractices),
          lcpCheck(scores, floor),
        );
      }
      rows.push(coldDashboard, {
        route: 'floor',
        state: "one heading, SignIn's headers",
        path: floorPage.url,
        lighthouse: floor,
        checks: [],
      });
    } finally {
      await floorPage.stop();
      await chromium.stop();
    }
  }

  rows.push(...(await throughputRows('embedded', server, demo)));
  rows.push(...(await throughputOnPostgres()));

  report(rows, unmeasured);
} finally {
  await server.stop();
}

const missed = rows.flatMap((row) => row.checks.filter((check) => !check.ok));
console.log(verdict(rows));
process.exit(missed.length ? 1 : 0);

/**
 * The monitoring client's row (held to its budget) and session replay's (shown only): the page
 * loaded in Chromium from a second server, whose DSN points at a sink on loopback, and from the
 * first, which has none.
 */
async function monitoringRows(pageRow) {
  const sink = await startReportSink();
  const monitored = await startPortalServer({
    SENTRY_DSN: sink.dsn,
    SENTRY_ENVIRONMENT: 'bench',
  });
  try {
    const monitoring = await measureMonitoringClient({
      withDsn: `${monitored.origin}${pageRow.path}`,
      withoutDsn: `${origin}${pageRow.path}`,
      chromiumPath,
      chromiumArgs: offlineChromiumFlags,
    });
    const check = monitoringBudgetCheck(monitoring);
    const page = `${pageRow.route}, ${pageRow.state}`;
    return [
      {
        route: 'monitoring client',
        state: `${page}, SENTRY_DSN set`,
        path: pageRow.path,
        monitoring,
        javaScriptGzipBytes: monitoring.clientGzipBytes,
        checks: [
          {
            ...check,
            shown: `JS ${kilobytes(check.value)} > ${kilobytes(check.budget)}`,
          },
        ],
      },
      {
        route: 'session replay',
        state: `${page}, lazily after the client`,
        path: pageRow.path,
        javaScriptGzipBytes: monitoring.replayGzipBytes,
        checks: [],
      },
    ];
  } finally {
    await monitored.stop();
    await sink.close();
  }
}

function rowOf(route, state) {
  const row = rows.find((candidate) => candidate.route === route && candidate.state === state);
  if (!row) throw new Error(`No page ${route} (${state}) in the route table's visits`);
  return row;
}

function shortName(figure) {
  if (figure.startsWith('JavaScript')) return 'JS';
  if (figure.startsWith('HTML')) return 'HTML';
  return 'transferred';
}

function atLeast(figure, value, budget) {
  return { figure, value, budget, ok: value >= budget, shown: `${figure} ${value} < ${budget}` };
}

/** Prints the tables (Markdown, for docs/PERFORMANCE.md too) and writes the rows as JSON. */
function report(measured, unmeasured) {
  console.log(benchReport(measured, unmeasured, { lighthouseRuns, connections, seconds }));

  mkdirSync(path.dirname(reportFile), { recursive: true });
  writeFileSync(
    reportFile,
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        settings: { lighthouseRuns, throughputSeconds: seconds, connections },
        rows: measured.map(
          ({
            route,
            state,
            path: address,
            weight,
            monitoring,
            javaScriptGzipBytes,
            lighthouse: scores,
            throughput,
            checks,
          }) => ({
            route,
            state,
            path: address,
            weight,
            monitoring,
            javaScriptGzipBytes,
            lighthouse: scores,
            throughput,
            checks: checks.map(({ figure, value, budget, ok }) => ({ figure, value, budget, ok })),
          }),
        ),
        unmeasured,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Written to ${reportFile}.`);
}

/** The headers SignIn is sent with, for the floor page (bench/floor-page.ts) to send too. */
async function signInHeaders() {
  const signIn = await fetch(`${origin}/sign-in`);
  await signIn.arrayBuffer();
  return floorHeaders(signIn.headers);
}

/**
 * The throughput rows of one server: the static file's, then each page's against it. One server,
 * one run: every figure is compared with the static file's of the same minutes.
 */
async function throughputRows(database, server, demo) {
  const staticRun = await requestsPerSecond(server, staticFile, '');
  const measured = [
    {
      route: 'static file',
      state: staticFile,
      path: staticFile,
      throughput: { database, ...staticRun, shareOfStatic: 1 },
      checks: [],
    },
  ];
  for (const [route, state] of throughputPages) {
    const visit = rowOf(route, state).visit;
    const address = visit.path(demo);
    const run = await requestsPerSecond(server, address, demo.cookies[visit.visitor]);
    const share = run.requestsPerSecond / staticRun.requestsPerSecond;
    const budget = route === 'SignIn' ? signInThroughputShare : signedInThroughputShare[database];
    measured.push({
      route,
      state,
      path: address,
      throughput: { database, ...run, shareOfStatic: share },
      checks: [
        {
          figure: `throughput share of the static file, ${database}`,
          value: share,
          budget,
          ok: share >= budget,
          shown: `${percent(share)} of static < ${percent(budget)} (${database})`,
        },
      ],
    });
  }
  for (const [route, state] of unkeptThroughputPages) {
    const visit = rowOf(route, state).visit;
    const address = visit.path(demo);
    const run = await requestsPerSecond(server, address, demo.cookies[visit.visitor], {
      everyViewNew: true,
    });
    const share = run.requestsPerSecond / staticRun.requestsPerSecond;
    const budget = renderedViewBudgets[database];
    measured.push({
      route,
      state: `${state}, page not kept`,
      path: address,
      throughput: { database, ...run, shareOfStatic: share },
      checks: budget
        ? [
            {
              figure: `throughput share of the static file, ${renderedEveryTime}, ${database}`,
              value: share,
              budget: budget.share,
              ok: share >= budget.share,
              shown: `${percent(share)} of static < ${percent(budget.share)}, ${renderedEveryTime} (${database})`,
            },
            {
              figure: `${renderedProcessorFigure}, ${database}`,
              value: run.processorMsPerRequest,
              budget: budget.processorMs,
              ok: run.processorMsPerRequest <= budget.processorMs,
              shown: `${run.processorMsPerRequest.toFixed(1)} ms of processor > ${budget.processorMs} ms (${database})`,
            },
          ]
        : [],
    });
  }
  return measured;
}

/**
 * The same pages on a second server whose embedded API runs on PostgreSQL: a throw-away cluster
 * from the machine's packages, as the tests use (scripts/throwaway-postgres.mjs).
 */
async function throughputOnPostgres() {
  const binaries = postgresBinaries();
  if (!binaries) {
    throw new Error(
      "No PostgreSQL on this machine for the bench's PostgreSQL rows: install Debian's " +
        '`postgresql` package, or name its bin folder in POSTGRES_BIN.',
    );
  }
  const postgres = await startThrowawayPostgres(binaries);
  try {
    const onPostgres = await startPortalServer({
      SENTRY_DSN: '',
      OUTBOX_VIEWER: 'true',
      DATABASE_URL: postgres.url,
    });
    try {
      const demo = await prepareDemo(onPostgres.origin, demoPassword);
      return await throughputRows('PostgreSQL', onPostgres, demo);
    } finally {
      await onPostgres.stop();
    }
  } finally {
    postgres.stop();
  }
}

/**
 * Requests per second for one address, with the median and 99th percentile of the time to an
 * answer and the server's processor time per request (its web thread and its embedded API's,
 * bench/processor-time.ts): a warm-up, then `connections` clients for `seconds`. With
 * `everyViewNew`, each request adds a query of its own (`view=<n>`), which the pages ignore and
 * the kept copies' keys do not.
 */
async function requestsPerSecond(server, address, cookie, { everyViewNew = false } = {}) {
  const serverOrigin = server.origin;
  const unkept = unkeptViews();
  const options = {
    url: `${serverOrigin}${address}`,
    connections,
    headers: { 'accept-encoding': 'br, gzip', ...(cookie ? { cookie } : {}) },
    ...(everyViewNew
      ? {
          requests: [
            {
              setupRequest: (request) => ({ ...request, path: unkept(address) }),
            },
          ],
        }
      : {}),
  };
  await autocannon({ ...options, duration: Math.min(3, seconds) });
  const processorBefore = processorMs(server.pid);
  const result = await autocannon({ ...options, duration: seconds });
  const processorUsed = processorMs(server.pid) - processorBefore;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${address}: ${result.non2xx} answers other than 2xx and ${result.errors} errors`,
    );
  }
  return {
    requestsPerSecond: result.requests.average,
    processorMsPerRequest: processorUsed / Math.max(1, result.requests.total),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
