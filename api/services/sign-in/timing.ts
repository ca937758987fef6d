import { setTimeout as sleep } from 'node:timers/promises';

/**
 * No sign-in answers sooner than this after it started. One argon2 computation takes 30 to 40 ms
 * here and the lockout transaction a few more, which only known emails pay; waiting out the same
 * floor for every answer leaves no difference to measure.
 */
export const SIGN_IN_MINIMUM_DURATION_MS = 150;

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
