/**
 * What the browser's error-reporting client adds to a page when the server has a DSN, held to
 * docs/PRODUCT.md §14: errors only, at most 30 KB gzip, loaded after the page is interactive;
 * session replay loaded lazily (its weight is shown, not budgeted). Used by `npm run bench`.
 *
 * The page is loaded in Chromium twice, from two servers of the same build: one with a DSN, one
 * without. The scripts the first asks for and the second does not are what the DSN adds. Session
 * replay is the session-replay chunk and what only it brings in (following imports from the
 * page's own scripts, never through that chunk, does not reach it); everything else the DSN adds
 * is the monitoring client. Each script counts as page-weight.ts counts JavaScript: its body,
 * gzipped on its own.
 */
import { chromium, type Page } from '@playwright/test';
import { budgets, gzipBytesAsServed, type BudgetCheck } from './page-weight.ts';
import { importsOf, inlineScriptsOf, scriptReferencesOf } from './page-references.ts';

/** The chunk of src/lib/session-replay.ts: the build names a chunk after its entry module. */
const replayChunk = /\/session-replay\.[\w-]+\.js$/;

/** How long a page may take to load session replay: it waits for the browser to be idle twice. */
const replayTimeoutMs = 20_000;

/** A script the browser asked for while the page loaded. */
export interface RequestedScript {
  readonly url: string;
  /** Its body, gzipped on its own. */
  readonly gzipBytes: number;
  /** The modules it imports, statically or dynamically, as absolute addresses. */
  readonly imports: readonly string[];
  /** Whether the browser asked for it once the page's `load` event had begun. */
  readonly afterLoad: boolean;
}

/** One script of the monitoring client or of session replay, by path. */
export interface MonitoringScriptWeight {
  readonly path: string;
  readonly gzipBytes: number;
  readonly afterLoad: boolean;
}

/** What the DSN adds to a page, in two parts. */
export interface MonitoringWeight {
  /** The client (loader, error reporting and what they import), gzip: held to the budget. */
  readonly clientGzipBytes: number;
  /** The part of the client the browser asked for before `load` (the page's own loader). */
  readonly clientBeforeLoadGzipBytes: number;
  readonly clientScripts: readonly MonitoringScriptWeight[];
  /** Session replay, loaded lazily after the client, gzip: shown for information. */
  readonly replayGzipBytes: number;
  readonly replayScripts: readonly MonitoringScriptWeight[];
}

const pathOf = (url: string): string => new URL(url).pathname;

/**
 * Splits what a DSN adds to a page into the monitoring client and session replay.
 *
 * @param withDsn every script the page asked for with a DSN
 * @param pageScripts the addresses the page itself refers to (script elements, imports of inline
 *   scripts): where the client starts
 * @param withoutDsn the addresses of every script the same page asked for without a DSN
 */
export function monitoringWeight(
  withDsn: readonly RequestedScript[],
  pageScripts: readonly string[],
  withoutDsn: readonly string[],
): MonitoringWeight {
  const alwaysLoaded = new Set(withoutDsn.map(pathOf));
  const requested = new Map(withDsn.map((script) => [pathOf(script.url), script]));
  const added = [...requested.values()].filter((script) => !alwaysLoaded.has(pathOf(script.url)));
  if (added.length === 0) {
    throw new Error('The page asked for no script it does not ask for without a DSN');
  }

  // Follows imports through every script, added or not: a chunk the page loads anyway may lead on.
  const reachedFrom = (starts: readonly string[], stopAt: (path: string) => boolean) => {
    const reached = new Set<string>();
    const pending = [...starts];
    while (pending.length > 0) {
      const path = pending.pop() ?? '';
      const script = requested.get(path);
      if (!script || reached.has(path) || stopAt(path)) continue;
      reached.add(path);
      pending.push(...script.imports.map(pathOf));
    }
    return reached;
  };
  const fromPage = reachedFrom(pageScripts.map(pathOf), (path) => replayChunk.test(path));
  const replayRoots = added
    .map((script) => pathOf(script.url))
    .filter((path) => replayChunk.test(path));
  const fromReplay = reachedFrom(replayRoots, (path) => fromPage.has(path));
  // Whatever the DSN adds that replay alone does not bring in counts against the budget.
  const inReplay = (script: RequestedScript) => fromReplay.has(pathOf(script.url));

  const weigh = (scripts: RequestedScript[]) => ({
    gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    scripts: scripts.map(({ url, gzipBytes, afterLoad }) => ({
      path: pathOf(url),
      gzipBytes,
      afterLoad,
    })),
  });
  const clientPart = weigh(added.filter((script) => !inReplay(script)));
  const replayPart = weigh(added.filter(inReplay));
  return {
    clientGzipBytes: clientPart.gzipBytes,
    clientBeforeLoadGzipBytes: clientPart.scripts
      .filter((script) => !script.afterLoad)
      .reduce((sum, script) => sum + script.gzipBytes, 0),
    clientScripts: clientPart.scripts,
    replayGzipBytes: replayPart.gzipBytes,
    replayScripts: replayPart.scripts,
  };
}

/** The budget the monitoring client is held to. */
export function monitoringBudgetCheck(weight: MonitoringWeight): BudgetCheck {
  return {
    figure: 'JavaScript the monitoring client adds (gzip)',
    value: weight.clientGzipBytes,
    budget: budgets.monitoringClient,
    ok: weight.clientGzipBytes <= budgets.monitoringClient,
  };
}

export interface MonitoringMeasurement {
  /** The page's address on the server with a DSN. */
  readonly withDsn: string;
  /** The same page on a server of the same build without one. */
  readonly withoutDsn: string;
  readonly chromiumPath: string;
  /** Chromium's switches: the caller's, which keep it off every host but loopback. */
  readonly chromiumArgs: readonly string[];
}

/**
 * Loads the page in Chromium from both servers, as a first visit, and weighs what the DSN adds.
 * Any request for an address other than 127.0.0.1 is refused and fails the measurement.
 */
export async function measureMonitoringClient(
  measurement: MonitoringMeasurement,
): Promise<MonitoringWeight> {
  const browser = await chromium.launch({
    executablePath: measurement.chromiumPath,
    args: [...measurement.chromiumArgs],
  });
  const refused: string[] = [];
  try {
    const load = async (url: string, untilReplay: boolean) => {
      const context = await browser.newContext();
      await context.route(
        (address) => address.hostname !== '127.0.0.1',
        (route) => {
          refused.push(route.request().url());
          return route.abort('blockedbyclient');
        },
      );
      const page = await context.newPage();
      try {
        const answer = await page.goto(url, { waitUntil: 'networkidle' });
        if (answer?.status() !== 200) throw new Error(`${url} answered ${answer?.status()}`);
        if (untilReplay) await replayLoaded(page);
        const html = await answer.text();
        return { html, scripts: await scriptsRequested(page) };
      } finally {
        await context.close();
      }
    };
    const without = await load(measurement.withoutDsn, false);
    const withDsn = await load(measurement.withDsn, true);
    if (refused.length > 0) {
      throw new Error(`The page asked for addresses off loopback: ${refused.join(', ')}`);
    }

    const scripts = await Promise.all(
      withDsn.scripts.map(async ({ url, afterLoad }) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        const body = await response.text();
        return {
          url,
          afterLoad,
          gzipBytes: gzipBytesAsServed(body),
          imports: importsOf(body).map((address) => new URL(address, url).href),
        };
      }),
    );
    const pageScripts = [
      ...scriptReferencesOf(withDsn.html),
      ...inlineScriptsOf(withDsn.html).flatMap(importsOf),
    ].map((address) => new URL(address, measurement.withDsn).href);
    return monitoringWeight(
      scripts,
      pageScripts,
      without.scripts.map((script) => script.url),
    );
  } finally {
    await browser.close();
  }
}

/** Waits until the page has asked for the session-replay chunk, the last part to load. */
async function replayLoaded(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      (pattern) =>
        performance
          .getEntriesByType('resource')
          .some((entry) => new RegExp(pattern).test(new URL(entry.name).pathname)),
      replayChunk.source,
      { timeout: replayTimeoutMs },
    );
  } catch (error) {
    throw new Error(
      `${page.url()} asked for no session-replay chunk within ${replayTimeoutMs / 1000} s`,
      { cause: error },
    );
  }
  await page.waitForLoadState('networkidle');
}

/** The scripts the page asked for, each with whether `load` had begun by then. */
async function scriptsRequested(page: Page): Promise<{ url: string; afterLoad: boolean }[]> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    const loadStart = navigation?.loadEventStart ?? 0;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => /\.m?js$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ url: entry.name, afterLoad: entry.startTime >= loadStart }));
  });
}
