import { describe, expect, it } from 'vitest';
import type { BenchCheck } from './bench-check.ts';
import {
  benchReport,
  count,
  terminalColumns,
  verdict,
  wrap,
  type BenchRow,
  type BenchSettings,
} from './bench-table.ts';
import { byteBudgetChecks, planVisits, type PageWeight } from './page-weight.ts';
import type { LighthouseScores } from './lighthouse-runs.ts';
import { isSignedInPage, pageRoutes } from '../src/routes.ts';

const { visits, unmeasured } = planVisits();
/** The printout with its wrapped sentences joined again. */
const unwrapped = (printed: string): string => printed.replaceAll('\n', ' ');
const settings: BenchSettings = { lighthouseRuns: 5, connections: 10, seconds: 10 };

/** A page's weight as the bench measured it on 2026-11-25 (docs/PERFORMANCE.md), give or take. */
function weightOf(route: string, overrides: Partial<PageWeight> = {}): PageWeight {
  // The terms and the NotFound page are words alone: no island.
  const islands = route !== 'NotFound' && route !== 'Terms';
  const signedIn = pageRoutes.some((page) => page.name === route && isSignedInPage(page));
  return {
    status: route === 'NotFound' ? 404 : 200,
    htmlBytes: 7_577,
    htmlEncoding: route === 'SignIn' ? 'gzip' : 'br',
    htmlUncompressedBytes: signedIn ? 31_250 : 45_500,
    javaScriptGzipBytes: islands ? 74_342 : 512,
    onDemandJavaScriptGzipBytes: 0,
    cssBytes: 0,
    transferredBytes: 69_734,
    requests: 6,
    hasIslands: islands,
    uncompressed: [],
    styles: { renderBlocking: [], prefetched: [], undefinedCustomProperties: [] },
    modulesFoundLate: [],
    ...overrides,
  };
}

const shownAs = (check: Omit<BenchCheck, 'shown'>): BenchCheck => ({
  ...check,
  shown: `${check.figure} ${check.value} > ${check.budget}`,
});

function lighthouseChecks(performance: number, lcpMs: number): BenchCheck[] {
  return [
    { figure: 'performance', value: performance, budget: 98, ok: performance >= 98 },
    { figure: 'accessibility', value: 100, budget: 100, ok: true },
    { figure: 'best practices', value: 100, budget: 100, ok: true },
    { figure: 'LCP', value: lcpMs, budget: 800, ok: lcpMs <= 800 },
  ].map(shownAs);
}

const lighthouse = (performance: number, lcpMs: number) => ({
  performance,
  accessibility: 100,
  bestPractices: 100,
  fcpMs: 783,
  lcpMs,
  tbtMs: 295,
  cls: 0,
});

/** Every row the bench prints, shaped as bench/run.mjs makes them. */
function benchRows(overrides: Partial<PageWeight> = {}): BenchRow[] {
  const pages: BenchRow[] = visits.map((visit) => {
    const weight = weightOf(visit.route, overrides);
    return {
      route: visit.route,
      state: visit.state,
      weight,
      checks: byteBudgetChecks(visit, weight).map(shownAs),
    };
  });
  const withLighthouse = (route: string, state: string, performance: number, lcpMs: number) => {
    const index = pages.findIndex((row) => row.route === route && row.state === state);
    const row = pages[index];
    if (row === undefined) throw new Error(`No ${route} (${state})`);
    pages[index] = {
      ...row,
      lighthouse: lighthouse(performance, lcpMs),
      checks: [...row.checks, ...lighthouseChecks(performance, lcpMs)],
    };
  };
  withLighthouse('SignIn', 'signed out', 94, 817);
  withLighthouse('SignUp', 'signed out, no companySlug', 98, 790);
  withLighthouse('Dashboard', 'member', 98, 792);
  withLighthouse('AccountSecurity', 'member', 99, 701);
  withLighthouse('AccountDevices', 'member', 99, 690);
  withLighthouse('AccountActivity', 'member', 99, 688);
  const throughputRows: BenchRow[] = [];
  const throughput = (
    database: 'embedded' | 'PostgreSQL',
    route: string,
    state: string,
    requestsPerSecond: number,
  ) => {
    const staticRate = database === 'embedded' ? 3870 : 4012;
    const shareOfStatic = requestsPerSecond / staticRate;
    const budget = route === 'SignIn' ? 0.35 : database === 'embedded' ? 0.02 : 0.06;
    const measured = {
      database,
      requestsPerSecond,
      processorMsPerRequest: 3000 / requestsPerSecond,
      p50Ms: 1000 / requestsPerSecond,
      p99Ms: 99,
    };
    if (route === 'SignIn') {
      throughputRows.push({
        route: 'static file',
        state: '/robots.txt',
        throughput: { ...measured, requestsPerSecond: staticRate, shareOfStatic: 1, p50Ms: 1 },
        checks: [],
      });
    }
    throughputRows.push({
      route,
      state,
      throughput: { ...measured, shareOfStatic },
      checks: [
        shownAs({
          figure: `throughput share of the static file, ${database}`,
          value: shareOfStatic,
          budget,
          ok: shareOfStatic >= budget,
        }),
      ],
    });
  };
  throughput('embedded', 'SignIn', 'signed out', 7091);
  throughput('embedded', 'Dashboard', 'member', 106);
  throughput('embedded', 'Requests', 'member', 48);
  throughput('PostgreSQL', 'SignIn', 'signed out', 7200);
  throughput('PostgreSQL', 'Dashboard', 'member', 251);
  throughput('PostgreSQL', 'Requests', 'member, closed tab', 300);
  const renderedEveryView = (route: string, requestsPerSecond: number, processorMs: number) => {
    const shareOfStatic = requestsPerSecond / 4012;
    throughputRows.push({
      route,
      state: 'member, page not kept',
      throughput: {
        database: 'PostgreSQL',
        requestsPerSecond,
        processorMsPerRequest: processorMs,
        p50Ms: 40,
        p99Ms: 90,
        shareOfStatic,
      },
      checks: [
        shownAs({
          figure: 'throughput share of the static file, rendered every time, PostgreSQL',
          value: shareOfStatic,
          budget: 0.05,
          ok: shareOfStatic >= 0.05,
        }),
        shownAs({
          figure: 'throughput processor ms a view, rendered every time, PostgreSQL',
          value: processorMs,
          budget: 8,
          ok: processorMs <= 8,
        }),
      ],
    });
  };
  renderedEveryView('Dashboard', 241, 7.1);
  renderedEveryView('Requests', 180, 9.4);
  return [
    ...pages,
    {
      route: 'monitoring client',
      state: 'SignIn, signed out, SENTRY_DSN set',
      javaScriptGzipBytes: 29_428,
      monitoring: { clientBeforeLoadGzipBytes: 1_025 },
      checks: [
        shownAs({
          figure: 'JavaScript the monitoring client adds (gzip)',
          value: 29_428,
          budget: 30_720,
          ok: true,
        }),
      ],
    },
    {
      route: 'session replay',
      state: 'SignIn, signed out, lazily after the client',
      javaScriptGzipBytes: 44_102,
      checks: [],
    },
    {
      route: 'floor',
      state: "one heading, SignIn's headers",
      lighthouse: lighthouse(96, 759),
      checks: [],
    },
    ...throughputRows,
  ];
}

describe('benchReport', () => {
  const printed = benchReport(benchRows(), unmeasured, settings);

  /** The report of the same rows, the floor's Lighthouse figures changed by `changes`. */
  const reportWithFloor = (changes: Partial<LighthouseScores>): string =>
    benchReport(
      benchRows().map((row) =>
        row.route === 'floor' && row.lighthouse
          ? { ...row, lighthouse: { ...row.lighthouse, ...changes } }
          : row,
      ),
      unmeasured,
      settings,
    );

  it(`fits every line in a terminal of ${terminalColumns} columns`, () => {
    const tooWide = printed.split('\n').filter((line) => line.length > terminalColumns);
    expect(tooWide).toEqual([]);
  });

  it('keeps every figure measured, with its unit in the header or the caption', () => {
    expect(printed).toMatch(
      /\| SignIn +\| signed out +\| +72\.6 \| +7\.4 gzip \| +44\.4 \| +6 \| +68\.1 \|/,
    );
    expect(printed).toMatch(
      /\| Dashboard +\| member +\| +72\.6 \| +7\.4 br \| +30\.5 \| +6 \| +68\.1 \|/,
    );
    expect(printed).toMatch(/\| JS KB \| +HTML KB \| {2}raw \| req \| all KB \|/);
    expect(printed).toMatch(
      /\| monitoring client \| SignIn, signed out, SENTRY_DSN set +\| +28\.7 \| +1\.0 \|/,
    );
    expect(printed).toMatch(/\| session replay +\| .* \| +43\.1 \| +\|/);
    expect(printed).toMatch(
      /\| floor +\| one heading, SignIn's headers +\| +96 \| +100 \| +100 \| +783 \| +759 \| +295 \| 0\.000 \|/,
    );
    expect(unwrapped(printed)).toContain('FCP, LCP and TBT in ms');
    expect(printed).toMatch(
      /\| SignIn +\| signed out +\| embedded +\| +7091 \| +183% \| +0\.4 \| +0 \| +99 \|/,
    );
    expect(printed).toMatch(
      /\| Dashboard +\| member +\| embedded +\| +106 \| +2.7% \| +28\.3 \| +9 \| +99 \|/,
    );
    expect(printed).toMatch(
      /\| static file \| \/robots\.txt +\| embedded +\| +3870 \| +100% \| +0\.4 \| +1 \|/,
    );
    expect(printed).toMatch(
      /\| Dashboard +\| member +\| PostgreSQL \| +251 \| +6.3% \| +12\.0 \| +4 \| +99 \|/,
    );
  });

  it('says the styles are inline in the HTML instead of showing CSS 0.0 KB on every page', () => {
    expect(printed).not.toContain('CSS KB');
    expect(unwrapped(printed)).toContain(
      'CSS: no page links a stylesheet or fetches one ahead (0.0 KB on every page): styles are inline in the HTML and count in HTML KB.',
    );
  });

  it('shows the stylesheets in a column of their own when a page links one', () => {
    const withStylesheet = benchReport(benchRows({ cssBytes: 2_048 }), unmeasured, settings);
    expect(withStylesheet).toMatch(/\| JS KB \| CSS KB \| +HTML KB \|/);
    expect(withStylesheet).toMatch(/\| +72\.6 \| +2\.0 \| +7\.4 gzip \|/);
    expect(unwrapped(withStylesheet)).toContain('styles inline in a page count in its HTML');
  });

  it('says under the Lighthouse table which performance rule the floor of the run set', () => {
    const [, afterLighthouse = ''] = unwrapped(printed).split('Lighthouse:');
    expect(afterLighthouse).toContain(
      "Performance rule: the floor's, since the floor scored 96, under 98: each page at least 94",
    );
    expect(unwrapped(reportWithFloor({ performance: 99 }))).toContain(
      'Performance rule: at least 98 (the floor scored 99).',
    );
  });

  it('says under the Lighthouse table that the floor was loaded beside the pages', () => {
    expect(unwrapped(printed)).toContain(
      'loaded once before each page above: the median of those runs.',
    );
  });

  it('says under the Lighthouse table which LCP limit the floor of the run set', () => {
    expect(unwrapped(printed)).toContain('LCP rule: at most 800 ms.');
    expect(unwrapped(reportWithFloor({ lcpMs: 816 }))).toContain(
      "LCP rule: the floor's, since the floor painted at 816 ms, over 800: each page at most 866 ms",
    );
  });

  it('says how many Lighthouse runs each figure is the median of, in words that fit the number', () => {
    expect(printed).toContain('Lighthouse: median of 5 runs per page, mobile');
    const once = benchReport(benchRows(), unmeasured, { ...settings, lighthouseRuns: 1 });
    expect(once).toContain('Lighthouse: one run per page, mobile');
    expect(once).not.toContain('1 runs');
    const none = benchReport(
      benchRows().filter((row) => row.route !== 'floor'),
      unmeasured,
      { ...settings, lighthouseRuns: 0 },
    );
    expect(none).toContain('Lighthouse left out (BENCH_LIGHTHOUSE_RUNS=0).');
    expect(benchReport(benchRows(), unmeasured, { ...settings, connections: 1 })).toContain(
      'Throughput (docs/PERFORMANCE.md): 1 connection, 10 s each',
    );
  });

  it('holds each page to the budget of the database its server runs on, and marks a miss', () => {
    const [, afterThroughput = ''] = printed.split('Throughput');
    expect(afterThroughput).toMatch(/^ \(docs\/PERFORMANCE\.md\): /);
    expect(afterThroughput).toContain(
      '- ≥ 35% of the static file (embedded), ≥ 35% of the static file (PostgreSQL): SignIn\n',
    );
    expect(afterThroughput).toContain(
      '- ≥ 2.0% of the static file (embedded), ≥ 6.0% of the static file (PostgreSQL), ≥ 5.0% of the static\n  file, rendered every time (PostgreSQL), CPU ≤ 8 ms, rendered every time (PostgreSQL): Dashboard,\n  Requests\n',
    );
    // 48 of 3,870 is 1.2%, under the embedded budget; 300 of 4,012 on PostgreSQL is 7.5%.
    expect(printed).toMatch(/\| Requests +\| member +\| embedded +\| +48 \| +1.2%\* \|/);
    expect(printed).toMatch(
      /\| Requests +\| member, closed tab +\| PostgreSQL \| +300 \| +7.5% \|/,
    );
    expect(printed).toContain('- Requests, member: throughput share of the static file, embedded');
  });

  it('holds a page rendered for every view to its processor time and share, and marks a miss', () => {
    // 241 of 4,012 is 6.0%, at 7.1 ms; 180 of 4,012 is 4.5%, at 9.4 ms: both over.
    expect(printed).toMatch(
      /\| Dashboard +\| member, page not kept +\| PostgreSQL \| +241 \| +6\.0% \| +7\.1 \|/,
    );
    expect(printed).toMatch(
      /\| Requests +\| member, page not kept +\| PostgreSQL \| +180 \| +4\.5%\* \| +9\.4\* \|/,
    );
    expect(unwrapped(printed)).toContain(
      '- Requests, member, page not kept: throughput share of the static file, rendered every time,',
    );
    expect(unwrapped(printed)).toContain(
      'throughput processor ms a view, rendered every time,   PostgreSQL 9.4 > 8',
    );
  });

  it('lists each budget once with the pages held to it', () => {
    expect(printed).toContain(
      [
        'Budgets (* marks a figure over its budget):',
        '- HTML ≤ 14.0 KB, no text response uncompressed, no module found late: every page',
        // Wrapped at the terminal's width, the next line indented.
        '- JS ≤ 100.0 KB, HTML ≤ 35.0 KB uncompressed: AboutUs, AboutYou, ContactInfo, Dashboard,\n  AccountSecurity, AccountDevices, AccountActivity, Requests, RequestCategory, Request, Account,\n  AccountData',
        '- JS ≤ 75.0 KB: SignIn, CompanySignIn, CompanySignInLink, SignUp, ForgotPassword, ResetPassword,\n  MfaEnrollment, UnlockUser, ConfirmEmail',
        '- all ≤ 100.0 KB: SignIn',
        '- JS ≤ 3.0 KB: Terms, NotFound',
      ].join('\n'),
    );
    expect(printed).toContain(
      '- perf ≥ 98, a11y ≥ 100, BP ≥ 100, LCP ≤ 800 ms: SignIn, SignUp, Dashboard, AccountSecurity,\n  AccountDevices, AccountActivity\n- no budget: floor',
    );
    expect(printed).toContain('- JS ≤ 30.0 KB: monitoring client\n- no budget: session replay');
  });

  it('marks each figure over its budget and lists every miss after the tables', () => {
    expect(printed).toMatch(
      /\| SignIn +\| signed out +\| +94\* \| +100 \| +100 \| +783 \| +817\* \|/,
    );
    expect(printed).toContain(
      'Budgets missed:\n- SignIn, signed out: performance 94 > 98; LCP 817 > 800\n',
    );
    const heavy = benchReport(benchRows({ htmlBytes: 15_000 }), unmeasured, settings);
    expect(heavy).toMatch(/\| +14\.6 br\* \|/);
    expect(heavy).toContain('- NotFound, member: HTML (compressed) 15000 > 14336');
  });
});

describe('verdict', () => {
  it('counts the budgets missed, one in the singular', () => {
    const row = (ok: boolean): BenchRow => ({
      route: 'SignIn',
      state: 'signed out',
      checks: [{ figure: 'LCP', value: 817, budget: 800, ok, shown: 'LCP 817 ms > 800 ms' }],
    });
    expect(verdict([row(true)])).toBe('every budget met');
    expect(verdict([row(false)])).toBe('1 budget missed');
    expect(verdict([row(false), row(false)])).toBe('2 budgets missed');
  });
});

describe('count and wrap', () => {
  it('write a number with its noun in the singular or the plural', () => {
    expect(count(1, 'run')).toBe('1 run');
    expect(count(0, 'run')).toBe('0 runs');
  });

  it('wrap words at the terminal width, indenting the lines after the first', () => {
    const wrapped = wrap(`- ${'word '.repeat(40).trim()}`, '  ');
    expect(wrapped.split('\n').every((line) => line.length <= terminalColumns)).toBe(true);
    expect(wrapped.split('\n')[1]).toMatch(/^ {2}word/);
  });
});
