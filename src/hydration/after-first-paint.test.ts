import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './after-first-paint';
import { fakePaintReports } from './fake-paint-reports';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('afterFirstPaint', () => {
  it('starts nothing until the browser reports that the page has painted', () => {
    const paints = fakePaintReports();
    const start = vi.fn();
    afterFirstPaint(start);
    expect(start).not.toHaveBeenCalled();

    paints.report('first-paint');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts once, however many paints are reported after', () => {
    const paints = fakePaintReports();
    const start = vi.fn();
    afterFirstPaint(start);
    paints.report('first-paint');
    paints.report('first-contentful-paint');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('asks for paints reported before it was called, so a page already painted starts at once', () => {
    const paints = fakePaintReports();
    afterFirstPaint(vi.fn());
    expect(paints.observed).toEqual([{ type: 'paint', buffered: true }]);
  });
});
