import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work`, then waits until at least `minimumMs` have passed since it started, whether it
 * succeeded or failed: for answers whose duration must not depend on what the work found.
 */
export async function withMinimumDuration<T>(
  minimumMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const remaining = minimumMs - (performance.now() - started);
    if (remaining > 0) await sleep(remaining);
  }
}
