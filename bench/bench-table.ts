import type { LighthouseScores } from './lighthouse-runs.ts';
import type { BenchCheck } from './bench-check.ts';
import { describeLcpLimit, describeRule, floorLcpMs, lighthouseRule } from './lighthouse-rule.ts';
import { kilobytes, type PageWeight } from './page-weight.ts';

/**
 * What `npm run bench` prints: its figures as Markdown tables that fit a terminal of
 * {@link terminalColumns} columns (the figures and what they are held to, one table per kind of
 * measurement), then the budgets missed. reports/bench.json keeps every row whole.
 */

/** The widest terminal the printout must fit in without wrapping. */
export const terminalColumns = 100;

/** A row of bench/run.mjs: a page in one state, or another thing measured. */
export interface BenchRow {
  readonly route: string;
  readonly state: string;
  readonly weight?: PageWeight;
  /** A script weighed on its own (the monitoring client, session replay), gzip. */
  readonly javaScriptGzipBytes?: number;
  readonly monitoring?: { readonly clientBeforeLoadGzipBytes: number };
  readonly lighthouse?: LighthouseScores;
  readonly throughput?: {
    /** What the server's embedded API runs on. */
    readonly database: 'embedded' | 'PostgreSQL';
    readonly requestsPerSecond: number;
    /** Against the static file on the same server in the same run. */
    readonly shareOfStatic: number;
    /** The server's processor time per request: its web thread and its embedded API's. */
    readonly processorMsPerRequest: number;
    readonly p50Ms: number;
    readonly p99Ms: number;
  };
  readonly checks: readonly BenchCheck[];
}

export interface BenchSettings {
  readonly lighthouseRuns: number;
  readonly connections: number;
  readonly seconds: number;
}

interface Column {
  readonly title: string;
  readonly numeric?: boolean;
  readonly cell: (row: BenchRow) => string;
}

/** `1 run`, `5 runs`. */
export function count(amount: number, singular: string, plural = `${singular}s`): string {
  return `${amount} ${amount === 1 ? singular : plural}`;
}

/** Words wrapped at the terminal's width, lines after the first indented by `indent`. */
export function wrap(text: string, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (candidate.length > terminalColumns && line.trim() !== '') {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = candidate;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** A Markdown table with its columns padded, numbers to the right. */
export function markdownTable(columns: readonly Column[], rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => columns.map((column) => column.cell(row)));
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, 3, ...cells.map((line) => (line[index] ?? '').length)),
  );
  const pad = (value: string, index: number): string => {
    const width = widths[index] ?? 0;
    return columns[index]?.numeric ? value.padStart(width) : value.padEnd(width);
  };
  const line = (values: readonly string[]): string =>
    `| ${values.map((value, index) => pad(value, index)).join(' | ')} |`;
  const rule = `| ${widths
    .map((width, index) =>
      columns[index]?.numeric ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width),
    )
    .join(' | ')} |`;
  return [line(columns.map((column) => column.title)), rule, ...cells.map(line)].join('\n');
}

const kb = (bytes: number): string => kilobytes(bytes).replace(/ KB$/, '');
/** `183%`, `35%`; a share under 10% with its tenth (`2.7%`), where a point is much. */
export const percent = (share: number): string => {
  const points = share * 100;
  return `${points < 10 ? points.toFixed(1) : points.toFixed(0)}%`;
};

/**
 * The throughput figures of a page rendered for every view (none answered from a kept copy):
 * `throughput processor ms a view, rendered every time, PostgreSQL`, and the share of the static
 * file with `rendered every time` before the database.
 */
export const renderedEveryTime = 'rendered every time';
export const renderedProcessorFigure = `throughput processor ms a view, ${renderedEveryTime}`;

/** The figure with a mark when one of `figures` (check names, or a test on them) missed. */
function marked(row: BenchRow, shown: string, figures: (figure: string) => boolean): string {
  return row.checks.some((check) => !check.ok && figures(check.figure)) ? `${shown}*` : shown;
}

const is =
  (...names: string[]) =>
  (figure: string): boolean =>
    names.includes(figure);

/** How a budget reads in a legend, or nothing for what is no budget (the expected status). */
function budgetLabel(check: BenchCheck): string | undefined {
  const { figure, budget } = check;
  if (figure.startsWith('JavaScript')) return `JS ≤ ${kilobytes(budget)}`;
  if (figure === 'HTML (uncompressed)') return `HTML ≤ ${kilobytes(budget)} uncompressed`;
  if (figure.startsWith('HTML')) return `HTML ≤ ${kilobytes(budget)}`;
  if (figure === 'bytes transferred') return `all ≤ ${kilobytes(budget)}`;
  if (figure === 'modules found late') return 'no module found late';
  if (figure.startsWith('text responses')) return 'no text response uncompressed';
  if (figure === 'LCP') return `LCP ≤ ${budget} ms`;
  if (figure === 'LCP against the floor') return `LCP ≤ the floor's + ${floorLcpMs} ms`;
  if (figure.startsWith('throughput')) {
    // `throughput share of the static file, PostgreSQL`: the budget is the database's.
    const database = /, ([^,]+)$/.exec(figure)?.[1];
    const where = database ? ` (${database})` : '';
    if (figure.startsWith(renderedProcessorFigure)) {
      return `CPU ≤ ${budget} ms, rendered every time${where}`;
    }
    const rendered = figure.includes(renderedEveryTime) ? `, ${renderedEveryTime}` : '';
    return `≥ ${percent(budget)} of the static file${rendered}${where}`;
  }
  if (figure === 'status') return undefined;
  const short: Readonly<Record<string, string>> = {
    performance: 'perf',
    accessibility: 'a11y',
    'best practices': 'BP',
  };
  return `${short[figure] ?? figure} ≥ ${budget}`;
}

/** The figures each table shows and whose budgets its legend lists. */
const byteFigures = (figure: string): boolean =>
  /^(JavaScript|HTML|text responses)/.test(figure) ||
  figure === 'bytes transferred' ||
  figure === 'modules found late';
const lighthouseFigures = is(
  'performance',
  'accessibility',
  'best practices',
  'LCP',
  'LCP against the floor',
);
const throughputFigures = (figure: string): boolean => figure.startsWith('throughput');

/**
 * `Budgets …:` then one line per set of routes: the budgets of `figures` they are held to
 * (`allOf` when every route is, first), and last the routes held to none.
 */
export function budgetLegend(
  rows: readonly BenchRow[],
  figures: (figure: string) => boolean,
  allOf = 'every page',
): string {
  const routes = [...new Set(rows.map((row) => row.route))];
  const heldBy = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const check of row.checks.filter((candidate) => figures(candidate.figure))) {
      const label = budgetLabel(check);
      if (label === undefined) continue;
      const held = heldBy.get(label) ?? new Set<string>();
      held.add(row.route);
      heldBy.set(label, held);
    }
  }
  const byRoutes = new Map<string, string[]>();
  for (const [label, held] of heldBy) {
    const key =
      held.size === routes.length ? allOf : routes.filter((route) => held.has(route)).join(', ');
    byRoutes.set(key, [...(byRoutes.get(key) ?? []), label]);
  }
  const unheld = routes.filter((route) => [...heldBy.values()].every((held) => !held.has(route)));
  const lines = [...byRoutes]
    .sort(([first], [second]) => Number(second === allOf) - Number(first === allOf))
    .map(([held, labels]) => `${labels.join(', ')}: ${held}`);
  if (unheld.length > 0) lines.push(`no budget: ${unheld.join(', ')}`);
  if (lines.length === 0) return '';
  return [
    'Budgets (* marks a figure over its budget):',
    ...lines.map((line) => wrap(`- ${line}`, '  ')),
  ].join('\n');
}

function weightTable(rows: readonly BenchRow[]): string {
  const weights = rows.flatMap((row) => (row.weight ? [row.weight] : []));
  const anyStylesheet = weights.some((weight) => weight.cssBytes > 0);
  const columns: Column[] = [
    { title: 'route', cell: (row) => row.route },
    { title: 'state', cell: (row) => row.state },
    {
      title: 'JS KB',
      numeric: true,
      cell: (row) =>
        marked(row, kb(row.weight?.javaScriptGzipBytes ?? 0), (f) => f.startsWith('JavaScript')),
    },
    ...(anyStylesheet
      ? [{ title: 'CSS KB', numeric: true, cell: (row: BenchRow) => kb(row.weight?.cssBytes ?? 0) }]
      : []),
    {
      title: 'HTML KB',
      numeric: true,
      cell: (row) =>
        marked(
          row,
          `${kb(row.weight?.htmlBytes ?? 0)} ${row.weight?.htmlEncoding ?? ''}`,
          is('HTML (compressed)'),
        ),
    },
    {
      title: 'raw',
      numeric: true,
      cell: (row) =>
        marked(row, kb(row.weight?.htmlUncompressedBytes ?? 0), is('HTML (uncompressed)')),
    },
    { title: 'req', numeric: true, cell: (row) => String(row.weight?.requests ?? '') },
    {
      title: 'all KB',
      numeric: true,
      cell: (row) => marked(row, kb(row.weight?.transferredBytes ?? 0), is('bytes transferred')),
    },
  ];
  const styles = anyStylesheet
    ? 'CSS KB: linked stylesheets and those fetched ahead for the next page; styles inline in a page count in its HTML.'
    : 'CSS: no page links a stylesheet or fetches one ahead (0.0 KB on every page): styles are inline in the HTML and count in HTML KB.';
  return [
    wrap(
      'Page weight: every page of the route table in every state, a first visit without a cache. ' +
        'KB of 1,024 bytes as served: scripts gzip, the document br or gzip (raw: the same ' +
        'KB uncompressed); req: the document and each file it loads; all: every byte of them.',
    ),
    '',
    markdownTable(columns, rows),
    '',
    wrap(styles),
    budgetLegend(rows, byteFigures),
  ].join('\n');
}

function scriptTable(rows: readonly BenchRow[]): string {
  const columns: Column[] = [
    { title: 'script', cell: (row) => row.route },
    { title: 'page', cell: (row) => row.state },
    {
      title: 'JS KB',
      numeric: true,
      cell: (row) =>
        marked(row, kb(row.javaScriptGzipBytes ?? 0), (f) => f.startsWith('JavaScript')),
    },
    {
      title: 'before load KB',
      numeric: true,
      cell: (row) => (row.monitoring ? kb(row.monitoring.clientBeforeLoadGzipBytes) : ''),
    },
  ];
  return [
    wrap(
      "Error reporting: what the browser's client adds to a page when the server has a DSN, gzip; " +
        'before load: the part the page asks for before its load event.',
    ),
    '',
    markdownTable(columns, rows),
    '',
    budgetLegend(rows, (figure) => figure.startsWith('JavaScript'), 'every script'),
  ].join('\n');
}

function lighthouseTable(rows: readonly BenchRow[], runs: number): string {
  const score =
    (pick: (scores: NonNullable<BenchRow['lighthouse']>) => number) => (row: BenchRow) =>
      row.lighthouse ? String(pick(row.lighthouse)) : '';
  const columns: Column[] = [
    { title: 'route', cell: (row) => row.route },
    { title: 'state', cell: (row) => row.state },
    {
      title: 'perf',
      numeric: true,
      cell: (row) => marked(row, score((s) => s.performance)(row), is('performance')),
    },
    {
      title: 'a11y',
      numeric: true,
      cell: (row) => marked(row, score((s) => s.accessibility)(row), is('accessibility')),
    },
    {
      title: 'BP',
      numeric: true,
      cell: (row) => marked(row, score((s) => s.bestPractices)(row), is('best practices')),
    },
    { title: 'FCP', numeric: true, cell: score((s) => s.fcpMs) },
    {
      title: 'LCP',
      numeric: true,
      cell: (row) => marked(row, score((s) => s.lcpMs)(row), is('LCP', 'LCP against the floor')),
    },
    { title: 'TBT', numeric: true, cell: score((s) => s.tbtMs) },
    { title: 'CLS', numeric: true, cell: (row) => row.lighthouse?.cls.toFixed(3) ?? '' },
  ];
  const how = runs === 1 ? 'one run per page' : `median of ${count(runs, 'run')} per page`;
  const floor = rows.find((row) => row.route === 'floor')?.lighthouse;
  return [
    wrap(
      `Lighthouse: ${how}, mobile, simulated throttling; FCP, LCP and TBT in ms. A cold cache, ` +
        'but for the signed-in pages, measured as a member arrives: after the sign-in page, in a ' +
        'cache emptied before it, which holds what that page fetched ahead (their stylesheet).',
    ),
    '',
    markdownTable(columns, rows),
    '',
    budgetLegend(rows, lighthouseFigures),
    ...(floor
      ? [
          wrap(
            "floor: the machine's floor, which no page can beat here (bench/floor-page.ts), " +
              'loaded once before each page above: the median of those runs.',
          ),
          wrap(describeRule(lighthouseRule(floor), floor)),
          wrap(describeLcpLimit(floor)),
        ]
      : []),
  ].join('\n');
}

function throughputTable(rows: readonly BenchRow[], settings: BenchSettings): string {
  const columns: Column[] = [
    { title: 'route', cell: (row) => row.route },
    { title: 'state', cell: (row) => row.state },
    { title: 'database', cell: (row) => row.throughput?.database ?? '' },
    {
      title: 'req/s',
      numeric: true,
      cell: (row) => row.throughput?.requestsPerSecond.toFixed(0) ?? '',
    },
    {
      title: 'vs static',
      numeric: true,
      cell: (row) =>
        marked(
          row,
          row.throughput ? percent(row.throughput.shareOfStatic) : '',
          (f) => f.startsWith('throughput') && !f.startsWith(renderedProcessorFigure),
        ),
    },
    {
      title: 'CPU ms',
      numeric: true,
      cell: (row) =>
        marked(row, row.throughput?.processorMsPerRequest.toFixed(1) ?? '', (f) =>
          f.startsWith(renderedProcessorFigure),
        ),
    },
    { title: 'p50', numeric: true, cell: (row) => row.throughput?.p50Ms.toFixed(0) ?? '' },
    { title: 'p99', numeric: true, cell: (row) => row.throughput?.p99Ms.toFixed(0) ?? '' },
  ];
  const pages = rows.filter((row) => row.route !== 'static file');
  const unbudgeted = pages.some(
    (row) => !row.checks.some((check) => throughputFigures(check.figure)),
  );
  return [
    wrap(
      `Throughput (docs/PERFORMANCE.md): ${count(settings.connections, 'connection')}, ` +
        `${settings.seconds} s each, ` +
        'after a warm-up, each page against the static file on the same server in the same run; ' +
        'CPU ms: the server’s processor time per request, its web thread and its embedded ' +
        'API’s together (not PostgreSQL’s); p50 and p99: time to the answer in ms. ' +
        'One server per database (its embedded API on ' +
        'PGlite, or on a PostgreSQL cluster of its own).',
    ),
    '',
    markdownTable(columns, rows),
    '',
    budgetLegend(pages, throughputFigures),
    ...(unbudgeted
      ? [
          // One line, under the table: why 1% is no fault.
          'Signed-in pages are slower: each runs SQL through the API, checks the session and renders React.',
        ]
      : []),
  ].join('\n');
}

/** `SignIn, signed out: performance 94 < 98; LCP 817 ms > 800 ms`, one line per row that missed. */
export function missedBudgets(rows: readonly BenchRow[]): string[] {
  return rows.flatMap((row) => {
    const missed = row.checks.filter((check) => !check.ok);
    if (missed.length === 0) return [];
    const shown = missed.map((check) => check.shown).join('; ');
    return [wrap(`- ${row.route}, ${row.state}: ${shown}`, '  ')];
  });
}

/** The last line: every budget met, or how many were missed. */
export function verdict(rows: readonly BenchRow[]): string {
  const missed = rows.flatMap((row) => row.checks.filter((check) => !check.ok)).length;
  return missed === 0 ? 'every budget met' : `${count(missed, 'budget')} missed`;
}

/** Everything `npm run bench` prints about its figures, before the verdict. */
export function benchReport(
  rows: readonly BenchRow[],
  unmeasured: readonly { readonly route: string; readonly reason: string }[],
  settings: BenchSettings,
): string {
  const weighed = rows.filter((row) => row.weight !== undefined);
  const scripts = rows.filter((row) => !row.weight && row.javaScriptGzipBytes !== undefined);
  const measuredByLighthouse = rows.filter((row) => row.lighthouse !== undefined);
  const measuredForThroughput = rows.filter((row) => row.throughput !== undefined);
  const missed = missedBudgets(rows);
  const sections = [
    weighed.length ? weightTable(weighed) : '',
    scripts.length ? scriptTable(scripts) : '',
    settings.lighthouseRuns > 0 && measuredByLighthouse.length
      ? lighthouseTable(measuredByLighthouse, settings.lighthouseRuns)
      : 'Lighthouse left out (BENCH_LIGHTHOUSE_RUNS=0).',
    measuredForThroughput.length ? throughputTable(measuredForThroughput, settings) : '',
    missed.length ? ['Budgets missed:', ...missed].join('\n') : '',
    unmeasured.length
      ? wrap(
          `Not weighed: ${unmeasured.map(({ route, reason }) => `${route} (${reason})`).join('; ')}.`,
        )
      : '',
  ];
  return `\n${sections.filter(Boolean).join('\n\n')}\n`;
}
