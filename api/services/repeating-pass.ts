import { logger } from '../../platform/logger.ts';
import { monitoring } from '../../platform/monitoring.ts';

/** Background work that runs one pass at a time, a pause after each (the outbox, the sweeper). */
export interface RepeatingPass {
  /** Runs a pass every interval, never two at once. */
  start(): void;
  /** Stops the passes; resolves once the pass in flight, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` once started, the pause counted from the end of the previous
 * pass. A failed pass is logged with `describeFailure` and the next one runs as planned; the timer
 * never keeps the process alive by itself.
 */
export function repeatingPass(
  pass: () => Promise<unknown>,
  intervalMs: number,
  describeFailure: (error: unknown) => string,
): RepeatingPass {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  function schedule(): void {
    timer = setTimeout(runPass, intervalMs);
    timer.unref();
  }

  function runPass(): void {
    timer = undefined;
    inFlight = pass()
      .then(
        () => undefined,
        (error: unknown) => {
          logger.error({ err: error }, describeFailure(error));
          monitoring.reportError(error);
        },
      )
      .finally(() => {
        inFlight = undefined;
        if (running) schedule();
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      if (!inFlight) schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

/**
 * One pass of a sweeper: calls `removeBatch(batchSize)` until it removes fewer than a batch (none
 * left) or `maxBatches` have run, so that a long backlog never holds up a stop; the next pass goes
 * on with it. Resolves to the number removed.
 */
export async function removeInBatches(
  removeBatch: (batchSize: number) => Promise<number>,
  { batchSize, maxBatches }: { batchSize: number; maxBatches: number },
): Promise<number> {
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const count = await removeBatch(batchSize);
    removed += count;
    if (count < batchSize) break;
  }
  return removed;
}
