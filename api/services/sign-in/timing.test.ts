import { describe, expect, it } from 'vitest';
import { withMinimumDuration } from './timing.ts';

describe('withMinimumDuration', () => {
  it('answers no sooner than the minimum when the work is quick', async () => {
    const started = performance.now();
    await expect(withMinimumDuration(40, () => Promise.resolve('done'))).resolves.toBe('done');
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });

  it('waits out the minimum for a failure too', async () => {
    const started = performance.now();
    await expect(
      withMinimumDuration(40, () => Promise.reject(new Error('no such account'))),
    ).rejects.toThrow('no such account');
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });

  it('adds nothing to work that takes longer than the minimum', async () => {
    const started = performance.now();
    await withMinimumDuration(1, () => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
