/**
 * Lighthouse on a page of the portal, in the Chromium `npm run bench` starts: the median of each
 * figure over a number of runs, with Lighthouse's defaults (mobile, simulated throttling). A page
 * is measured with a cold cache, or as a member arrives at it: after the page named in `arriveFrom`,
 * in a cache emptied before it, so that what that page fetched ahead (the signed-in pages'
 * stylesheet, docs/decisions/073) is there, as it is for every member who has just signed in.
 */
import lighthouse from 'lighthouse';

export interface LighthouseScores {
  readonly performance: number;
  readonly accessibility: number;
  readonly bestPractices: number;
  readonly fcpMs: number;
  readonly lcpMs: number;
  readonly tbtMs: number;
  readonly cls: number;
}

export interface LighthouseVisit {
  readonly url: string;
  /** The visitor's cookies, sent with Lighthouse's requests. */
  readonly cookie?: string | undefined;
  /** A page opened first, without cookies, whose cache the measured page finds. */
  readonly arriveFrom?: string | undefined;
}

/** Lighthouse runs that end in one of these errors say nothing about the page: run again. */
const retriedLighthouseErrors = 3;

/** How long the page arrived from may take to fetch ahead what it names. */
const arrivalTimeoutMs = 15_000;

/** Lighthouse's figures for one page: the median of each over `runs` runs. */
export async function lighthouseMedian(
  debuggingPort: number,
  visit: LighthouseVisit,
  runs: number,
): Promise<LighthouseScores> {
  const measured: LighthouseScores[] = [];
  while (measured.length < runs) measured.push(await lighthouseRun(debuggingPort, visit));
  return medianScores(measured);
}

/**
 * Lighthouse's figures for each page, and for the floor page (bench/floor-page.ts) loaded once
 * before each of them: the floor's median is taken over the same minutes as the pages, however
 * the machine's speed drifts while they run.
 */
export async function lighthouseBesideFloor<Visit extends LighthouseVisit>(
  debuggingPort: number,
  visits: readonly Visit[],
  floorUrl: string,
  runs: number,
): Promise<{
  readonly pages: { readonly visit: Visit; readonly scores: LighthouseScores }[];
  readonly floor: LighthouseScores;
}> {
  const floorRuns: LighthouseScores[] = [];
  const pages: { visit: Visit; scores: LighthouseScores }[] = [];
  for (const visit of visits) {
    floorRuns.push(await lighthouseRun(debuggingPort, { url: floorUrl }));
    pages.push({ visit, scores: await lighthouseMedian(debuggingPort, visit, runs) });
  }
  return { pages, floor: medianScores(floorRuns) };
}

/** The median of each figure over some runs. */
export function medianScores(runs: readonly LighthouseScores[]): LighthouseScores {
  const median = (pick: (scores: LighthouseScores) => number): number => {
    const sorted = runs.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  return {
    performance: median((run) => run.performance),
    accessibility: median((run) => run.accessibility),
    bestPractices: median((run) => run.bestPractices),
    fcpMs: Math.round(median((run) => run.fcpMs)),
    lcpMs: Math.round(median((run) => run.lcpMs)),
    tbtMs: Math.round(median((run) => run.tbtMs)),
    cls: median((run) => run.cls),
  };
}

/**
 * One Lighthouse run. A run that fails on Chromium's side (about one in ten ends in NO_NAVSTART
 * here) is run again.
 */
async function lighthouseRun(
  debuggingPort: number,
  { url, cookie, arriveFrom }: LighthouseVisit,
): Promise<LighthouseScores> {
  for (let attempt = 1; ; attempt += 1) {
    if (arriveFrom) {
      await forgetOrigin(debuggingPort, new URL(url).origin);
      await visitUntilFetchedAhead(debuggingPort, arriveFrom);
    }
    // Lighthouse resets a page's storage but not its cookies: those an earlier run or the page
    // arrived from was given (an XSRF token) would go with this run's request and push aside the
    // visitor's own.
    await devtools(await browserTarget(debuggingPort), [['Storage.clearCookies', {}]]);
    const result = await lighthouse(url, {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      extraHeaders: cookie ? { Cookie: cookie } : null,
      disableStorageReset: Boolean(arriveFrom),
    });
    const lhr = result?.lhr;
    const failure = lhr?.runtimeError?.code;
    if (lhr && !failure && lhr.finalDisplayedUrl !== url) {
      // A page that sent Lighthouse elsewhere (a guard's redirect) would report another page's figures.
      throw new Error(`Lighthouse asked for ${url} and measured ${lhr.finalDisplayedUrl}`);
    }
    if (lhr && !failure) {
      const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      return {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        fcpMs: audit('first-contentful-paint'),
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
      };
    }
    if (attempt >= retriedLighthouseErrors) {
      throw new Error(`Lighthouse failed on ${url} ${attempt} times: ${failure ?? 'no result'}`);
    }
  }
}

interface DevtoolsTarget {
  readonly id?: string;
  readonly webSocketDebuggerUrl: string;
}

async function browserTarget(debuggingPort: number): Promise<DevtoolsTarget> {
  const response = await fetch(`http://127.0.0.1:${debuggingPort}/json/version`);
  return (await response.json()) as DevtoolsTarget;
}

/** Empties the browser's HTTP cache and what `origin` stored, as Lighthouse's own reset does. */
async function forgetOrigin(debuggingPort: number, origin: string): Promise<void> {
  const tab = await openTab(debuggingPort, 'about:blank');
  try {
    await devtools(tab, [
      ['Network.clearBrowserCache', {}],
      [
        'Storage.clearDataForOrigin',
        { origin, storageTypes: 'local_storage,indexeddb,service_workers,cache_storage' },
      ],
    ]);
  } finally {
    await closeTab(debuggingPort, tab);
  }
}

/**
 * Opens `address` in a tab of its own and closes it once every stylesheet it fetches ahead
 * (`<link rel="prefetch" as="style">`) has arrived; fails if it names none.
 */
async function visitUntilFetchedAhead(debuggingPort: number, address: string): Promise<void> {
  const tab = await openTab(debuggingPort, address);
  const fetchedAhead = `(() => {
    if (document.readyState !== 'complete') return false;
    const links = [...document.querySelectorAll('link[rel="prefetch"][as="style"]')];
    if (links.length === 0) return 'none';
    return links.every((link) =>
      performance.getEntriesByName(link.href).some((entry) => entry.responseEnd > 0));
  })()`;
  try {
    const deadline = Date.now() + arrivalTimeoutMs;
    for (;;) {
      // While the tab is still loading its page there is nothing to evaluate in: ask again.
      const answer = await devtools(tab, [
        ['Runtime.evaluate', { expression: fetchedAhead, returnByValue: true }],
      ]).then(
        ([result]) => result as { result?: { value?: unknown } } | undefined,
        () => undefined,
      );
      const value = answer?.result?.value;
      if (value === 'none') throw new Error(`${address} fetches no stylesheet ahead`);
      if (value === true) return;
      if (Date.now() > deadline) throw new Error(`${address} did not fetch its stylesheet ahead`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await closeTab(debuggingPort, tab);
  }
}

async function openTab(debuggingPort: number, address: string): Promise<DevtoolsTarget> {
  const response = await fetch(
    `http://127.0.0.1:${debuggingPort}/json/new?${encodeURIComponent(address)}`,
    { method: 'PUT' },
  );
  return (await response.json()) as DevtoolsTarget;
}

async function closeTab(debuggingPort: number, tab: DevtoolsTarget): Promise<void> {
  await fetch(`http://127.0.0.1:${debuggingPort}/json/close/${tab.id ?? ''}`);
}

/** Sends DevTools protocol commands to a target, one after the other; answers their results. */
async function devtools(
  target: DevtoolsTarget,
  commands: readonly (readonly [string, Record<string, unknown>])[],
): Promise<unknown[]> {
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  try {
    const results: unknown[] = [];
    for (const [index, [method, params]] of commands.entries()) {
      results.push(
        await new Promise((resolve, reject) => {
          const onMessage = (event: MessageEvent) => {
            const answer = JSON.parse(String(event.data)) as {
              id?: number;
              result?: unknown;
              error?: { message: string };
            };
            if (answer.id !== index + 1) return;
            socket.removeEventListener('message', onMessage);
            if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
            else resolve(answer.result);
          };
          socket.addEventListener('message', onMessage);
          socket.send(JSON.stringify({ id: index + 1, method, params }));
        }),
      );
    }
    return results;
  } finally {
    socket.close();
  }
}
