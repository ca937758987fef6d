import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeInBatches, repeatingPass } from './repeating-pass.ts';
import { logger } from '../../platform/logger.ts';

describe('repeatingPass', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('runs a pass every interval once started, and none before', async () => {
    const pass = vi.fn(() => Promise.resolve());
    const passes = repeatingPass(pass, 1000, String);

    await vi.advanceTimersByTimeAsync(5000);
    expect(pass).not.toHaveBeenCalled();

    passes.start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(pass).toHaveBeenCalledTimes(3);
    await passes.stop();
  });

  it('logs a failed pass and goes on with the next', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const pass = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error('database away'))
      .mockResolvedValue(undefined);
    const passes = repeatingPass(pass, 1000, (error) => `Sweeping failed: ${String(error)}`);

    passes.start();
    await vi.advanceTimersByTimeAsync(2000);

    expect(loggedError).toHaveBeenCalledWith(
      { err: new Error('database away') },
      'Sweeping failed: Error: database away',
    );
    expect(pass).toHaveBeenCalledTimes(2);
    await passes.stop();
  });

  it('never runs two passes at once: the pause starts when a pass ends', async () => {
    let finish = () => {};
    const pass = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const passes = repeatingPass(pass, 1000, String);

    passes.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pass).toHaveBeenCalledTimes(1);

    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(2);
    finish();
    await passes.stop();
  });

  it('stops only once the pass in flight has finished, and runs no more', async () => {
    let finish = () => {};
    const pass = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const passes = repeatingPass(pass, 1000, String);
    passes.start();
    await vi.advanceTimersByTimeAsync(1000);

    let stopped = false;
    const stopping = passes.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);

    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pass).toHaveBeenCalledTimes(1);
  });
});

describe('removeInBatches', () => {
  it('asks for batches until one comes back short, and adds up what they removed', async () => {
    const left = [3, 3, 1, 3];
    const removeBatch = vi.fn((batchSize: number) =>
      Promise.resolve(Math.min(batchSize, left.shift() ?? 0)),
    );

    const removed = await removeInBatches(removeBatch, { batchSize: 3, maxBatches: 10 });

    expect(removed).toBe(7);
    expect(removeBatch).toHaveBeenCalledTimes(3);
    expect(removeBatch).toHaveBeenCalledWith(3);
  });

  it('stops after the most batches a pass may run, though more are due', async () => {
    const removeBatch = vi.fn((batchSize: number) => Promise.resolve(batchSize));

    const removed = await removeInBatches(removeBatch, { batchSize: 100, maxBatches: 4 });

    expect(removed).toBe(400);
    expect(removeBatch).toHaveBeenCalledTimes(4);
  });
});
