import { describe, expect, it, vi } from 'vitest';
import { logger } from './logger.ts';
import { onShutdown, runShutdownTasks } from './shutdown.ts';

describe('shutdown tasks', () => {
  it('runs every task once and waits for all of them', async () => {
    const finished: string[] = [];
    onShutdown(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished.push('slow');
    });
    onShutdown(() => {
      finished.push('quick');
      return Promise.resolve();
    });

    await runShutdownTasks();
    expect(finished.sort()).toEqual(['quick', 'slow']);

    await runShutdownTasks();
    expect(finished).toHaveLength(2);
  });

  it('logs a task that fails and still finishes the others', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const other = vi.fn(() => Promise.resolve());
    onShutdown(() => Promise.reject(new Error('database already gone')));
    onShutdown(other);

    await runShutdownTasks();
    expect(other).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith(
      { err: new Error('database already gone') },
      'a shutdown task failed',
    );
    error.mockRestore();
  });
});
