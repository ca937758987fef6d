import type { BenchCheck } from './bench-check.ts';

/**
 * Which Lighthouse performance budget a run holds pages to (docs/PRODUCT.md §14): at least
 * {@link performanceBudget}, or, where the bench's floor page itself scores below it on this
 * machine, within {@link floorPoints} points of the floor's score and {@link floorLcpMs} ms of its
 * LCP, measured in the same run. The floor is a page no page can beat here (bench/floor-page.ts).
 */
export const performanceBudget = 98;
export const floorPoints = 2;
export const floorLcpMs = 50;
/** §14: a page's largest contentful paint, on a machine whose floor paints within it. */
export const lcpBudgetMs = 800;

export type LighthouseRule =
  | { readonly kind: 'absolute'; readonly minimum: number }
  | { readonly kind: 'floor'; readonly minimum: number; readonly maxLcpMs: number };

/** The floor's figures a rule is read from. */
interface FloorScores {
  readonly performance: number;
  readonly lcpMs: number;
}

/** The rule for this run: the absolute one unless the floor scored below it. */
export function lighthouseRule(floor: FloorScores | undefined): LighthouseRule {
  if (!floor || floor.performance >= performanceBudget) {
    return { kind: 'absolute', minimum: performanceBudget };
  }
  return {
    kind: 'floor',
    minimum: floor.performance - floorPoints,
    maxLcpMs: floor.lcpMs + floorLcpMs,
  };
}

/** The rule in words, for the line under the Lighthouse table. */
export function describeRule(rule: LighthouseRule, floor: FloorScores | undefined): string {
  const floorSaid = floor ? ` (the floor scored ${floor.performance})` : '';
  if (rule.kind === 'absolute') {
    return `Performance rule: at least ${performanceBudget}${floorSaid}.`;
  }
  return (
    `Performance rule: the floor's, since the floor scored ${floor?.performance ?? '?'}, under ` +
    `${performanceBudget}: each page at least ${rule.minimum} (${floorPoints} points under it) ` +
    `with an LCP of at most ${rule.maxLcpMs} ms (${floorLcpMs} ms over its ${floor?.lcpMs ?? '?'} ms).`
  );
}

/**
 * The largest LCP a page may have in a run: {@link lcpBudgetMs}, or, where the floor itself paints
 * later than that on this machine, {@link floorLcpMs} ms over the floor's, as the floor's rule
 * allows for its score: no page can paint before the floor.
 */
export function lcpLimitMs(floor: FloorScores | undefined): number {
  return floor && floor.lcpMs > lcpBudgetMs ? floor.lcpMs + floorLcpMs : lcpBudgetMs;
}

/** The check of a page's LCP against {@link lcpLimitMs}. */
export function lcpCheck(
  scores: { readonly lcpMs: number },
  floor: FloorScores | undefined,
): BenchCheck {
  const limit = lcpLimitMs(floor);
  const over =
    limit === lcpBudgetMs ? `${limit} ms` : `${limit} ms, the floor's + ${floorLcpMs} ms`;
  return {
    figure: 'LCP',
    value: scores.lcpMs,
    budget: limit,
    ok: scores.lcpMs <= limit,
    shown: `LCP ${scores.lcpMs} ms > ${over}`,
  };
}

/** What the LCP budget is in a run, for the line under the Lighthouse table. */
export function describeLcpLimit(floor: FloorScores | undefined): string {
  if (!floor || floor.lcpMs <= lcpBudgetMs) return `LCP rule: at most ${lcpBudgetMs} ms.`;
  return (
    `LCP rule: the floor's, since the floor painted at ${floor.lcpMs} ms, over ` +
    `${lcpBudgetMs}: each page at most ${lcpLimitMs(floor)} ms (${floorLcpMs} ms over it).`
  );
}

/**
 * The checks of a page's performance under `rule`: its score, and with the floor's rule its LCP
 * where that is stricter than {@link lcpCheck}'s limit (a floor painting within 750 ms); otherwise
 * that check says it already.
 */
export function performanceChecks(
  scores: { readonly performance: number; readonly lcpMs: number },
  rule: LighthouseRule,
): BenchCheck[] {
  const checks: BenchCheck[] = [
    {
      figure: 'performance',
      value: scores.performance,
      budget: rule.minimum,
      ok: scores.performance >= rule.minimum,
      shown: `performance ${scores.performance} < ${rule.minimum}`,
    },
  ];
  if (rule.kind === 'floor' && rule.maxLcpMs < lcpBudgetMs) {
    checks.push({
      figure: 'LCP against the floor',
      value: scores.lcpMs,
      budget: rule.maxLcpMs,
      ok: scores.lcpMs <= rule.maxLcpMs,
      shown: `LCP ${scores.lcpMs} ms > the floor's + ${floorLcpMs} ms (${rule.maxLcpMs} ms)`,
    });
  }
  return checks;
}
