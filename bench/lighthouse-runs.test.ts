import { describe, expect, it } from 'vitest';
import { medianScores, type LighthouseScores } from './lighthouse-runs.ts';

const run = (figures: Partial<LighthouseScores>): LighthouseScores => ({
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  fcpMs: 700,
  lcpMs: 750,
  tbtMs: 20,
  cls: 0,
  ...figures,
});

describe('medianScores', () => {
  it('takes the median of each figure on its own, not the figures of a median run', () => {
    const median = medianScores([
      run({ performance: 90, lcpMs: 700, tbtMs: 400 }),
      run({ performance: 98, lcpMs: 900, tbtMs: 100 }),
      run({ performance: 95, lcpMs: 800, tbtMs: 10 }),
    ]);
    expect(median).toMatchObject({ performance: 95, lcpMs: 800, tbtMs: 100 });
  });

  it('rounds the times to whole milliseconds and keeps layout shift as measured', () => {
    const median = medianScores([run({ fcpMs: 701.6, cls: 0.0123 })]);
    expect(median).toMatchObject({ fcpMs: 702, cls: 0.0123 });
  });
});
