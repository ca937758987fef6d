import { logger } from '../logger.ts';
import { monitoring } from '../monitoring.ts';

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
