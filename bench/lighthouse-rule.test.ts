import { describe, expect, it } from 'vitest';
import {
  describeLcpLimit,
  describeRule,
  lcpCheck,
  lcpLimitMs,
  lighthouseRule,
  performanceChecks,
} from './lighthouse-rule.ts';

describe('lighthouseRule', () => {
  it('holds pages to 98 when the floor scores 98 or more, or was not measured', () => {
    expect(lighthouseRule({ performance: 99, lcpMs: 640 })).toEqual({
      kind: 'absolute',
      minimum: 98,
    });
    expect(lighthouseRule({ performance: 98, lcpMs: 700 })).toEqual({
      kind: 'absolute',
      minimum: 98,
    });
    expect(lighthouseRule(undefined)).toEqual({ kind: 'absolute', minimum: 98 });
  });

  it('holds pages within 2 points and 50 ms of LCP of a floor under 98', () => {
    expect(lighthouseRule({ performance: 96, lcpMs: 778 })).toEqual({
      kind: 'floor',
      minimum: 94,
      maxLcpMs: 828,
    });
  });
});

describe('performanceChecks', () => {
  it('passes a page at the absolute budget and fails one under it', () => {
    const rule = lighthouseRule({ performance: 100, lcpMs: 600 });
    expect(performanceChecks({ performance: 98, lcpMs: 900 }, rule)).toEqual([
      expect.objectContaining({ figure: 'performance', ok: true, budget: 98 }),
    ]);
    expect(performanceChecks({ performance: 97, lcpMs: 700 }, rule)[0]).toMatchObject({
      ok: false,
      shown: 'performance 97 < 98',
    });
  });

  it('under the floor rule, fails a page too far under the floor’s score or over its LCP', () => {
    const rule = lighthouseRule({ performance: 96, lcpMs: 700 });
    expect(
      performanceChecks({ performance: 94, lcpMs: 750 }, rule).every((check) => check.ok),
    ).toBe(true);
    const [score, lcp] = performanceChecks({ performance: 93, lcpMs: 751 }, rule);
    expect(score).toMatchObject({ ok: false, shown: 'performance 93 < 94' });
    expect(lcp).toMatchObject({
      figure: 'LCP against the floor',
      ok: false,
      shown: "LCP 751 ms > the floor's + 50 ms (750 ms)",
    });
  });

  it('leaves the LCP to the LCP check where the floor’s + 50 ms is no stricter than it', () => {
    for (const floorLcpMs of [778, 840]) {
      const floor = { performance: 96, lcpMs: floorLcpMs };
      const checks = performanceChecks({ performance: 94, lcpMs: 2000 }, lighthouseRule(floor));
      expect(checks.map((check) => check.figure)).toEqual(['performance']);
      expect(lcpCheck({ lcpMs: 2000 }, floor).ok).toBe(false);
    }
  });
});

describe('describeRule', () => {
  it('says which rule applied and why', () => {
    const high = { performance: 99, lcpMs: 640 };
    expect(describeRule(lighthouseRule(high), high)).toBe(
      'Performance rule: at least 98 (the floor scored 99).',
    );
    const low = { performance: 96, lcpMs: 778 };
    expect(describeRule(lighthouseRule(low), low)).toBe(
      "Performance rule: the floor's, since the floor scored 96, under 98: each page at least 94 " +
        '(2 points under it) with an LCP of at most 828 ms (50 ms over its 778 ms).',
    );
  });
});

describe('lcpLimitMs', () => {
  it('is 800 ms wherever the floor paints within it, or was not measured', () => {
    expect(lcpLimitMs({ performance: 100, lcpMs: 652 })).toBe(800);
    expect(lcpLimitMs({ performance: 96, lcpMs: 800 })).toBe(800);
    expect(lcpLimitMs(undefined)).toBe(800);
  });

  it('is 50 ms over the floor where the floor itself paints after 800 ms', () => {
    expect(lcpLimitMs({ performance: 100, lcpMs: 816 })).toBe(866);
  });
});

describe('lcpCheck', () => {
  it('passes a page at the limit and fails one a millisecond over, saying which limit', () => {
    const quick = { performance: 100, lcpMs: 652 };
    expect(lcpCheck({ lcpMs: 800 }, quick)).toMatchObject({ figure: 'LCP', ok: true, budget: 800 });
    expect(lcpCheck({ lcpMs: 801 }, quick)).toMatchObject({
      ok: false,
      shown: 'LCP 801 ms > 800 ms',
    });
    const slow = { performance: 100, lcpMs: 816 };
    expect(lcpCheck({ lcpMs: 866 }, slow)).toMatchObject({ ok: true, budget: 866 });
    expect(lcpCheck({ lcpMs: 867 }, slow)).toMatchObject({
      ok: false,
      shown: "LCP 867 ms > 866 ms, the floor's + 50 ms",
    });
  });
});

describe('describeLcpLimit', () => {
  it('says which LCP limit applied and why', () => {
    expect(describeLcpLimit({ performance: 100, lcpMs: 652 })).toBe('LCP rule: at most 800 ms.');
    expect(describeLcpLimit({ performance: 100, lcpMs: 816 })).toBe(
      "LCP rule: the floor's, since the floor painted at 816 ms, over 800: each page at most " +
        '866 ms (50 ms over it).',
    );
  });
});
