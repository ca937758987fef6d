import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './after-first-paint';
import { fakePaintReports } from './fake-paint-reports';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('starts nothing until the browser reports that the page has painted its content', () => {
    const paints = fakePaintReports();
    const start = vi.fn();
    afterFirstPaint(start);
    expect(start).not.toHaveBeenCalled();

    // A first paint of the background alone is not enough.
    paints.report('first-paint');
    vi.runAllTimers();
    expect(start).not.toHaveBeenCalled();

    paints.report('first-contentful-paint');
    expect(start).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts each waiting script in a task of its own, not all in the task that reports the paint', () => {
    const paints = fakePaintReports();
    const started: string[] = [];
    afterFirstPaint(() => started.push('first island'));
    afterFirstPaint(() => started.push('second island'));
    paints.report('first-contentful-paint');
    expect(started).toEqual([]);
    // One queued task for each.
    expect(vi.getTimerCount()).toBe(2);

    vi.runAllTimers();
    expect(started).toEqual(['first island', 'second island']);
  });

  it('starts once, however many paints are reported after', () => {
    const paints = fakePaintReports();
    const start = vi.fn();
    afterFirstPaint(start);
    paints.report('first-paint', 'first-contentful-paint');
    paints.report('first-contentful-paint');
    vi.runAllTimers();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('asks for paints reported before it was called, so a page already painted starts at once', () => {
    const paints = fakePaintReports();
    afterFirstPaint(vi.fn());
    expect(paints.observed).toEqual([{ type: 'paint', buffered: true }]);
  });
});
