import type { Database } from '../../db/client.ts';
import { HOUR, type Clock } from '../../../platform/clock.ts';
import { removeInBatches, repeatingPass, type RepeatingPass } from '../repeating-pass.ts';
import { deleteExpiredSecurityEvents } from '../audit/security-events.ts';

interface SecurityEventSweeperOptions {
  db: Database;
  clock: Clock;
  /** Pause between passes of a started sweeper (default 1 hour). */
  intervalMs?: number;
}

export interface SecurityEventSweeper extends RepeatingPass {
  /** One pass: deletes every event past its 90 days, in batches. Resolves to the number deleted. */
  removeDue(): Promise<number>;
}

const BATCH_SIZE = 1000;
/** Bounds one pass (removeInBatches). */
const MAX_BATCHES_PER_PASS = 20;

/**
 * Deletes the security events older than SECURITY_EVENT_RETENTION_DAYS, in the API process like the
 * unattached-file sweeper. Several servers may each run one: a row two of them delete at once is
 * deleted once. An hour between passes keeps an event at most an hour past its 90 days, and small
 * batches keep each statement's locks short.
 */
export function createSecurityEventSweeper(
  options: SecurityEventSweeperOptions,
): SecurityEventSweeper {
  const { db, clock } = options;
  const intervalMs = options.intervalMs ?? HOUR;

  const removeDue = () =>
    removeInBatches((batchSize) => deleteExpiredSecurityEvents(db, clock.now(), batchSize), {
      batchSize: BATCH_SIZE,
      maxBatches: MAX_BATCHES_PER_PASS,
    });

  return {
    removeDue,
    ...repeatingPass(removeDue, intervalMs, (error) => {
      const message = error instanceof Error ? error.message : String(error);
      return `Removing old security events failed: ${message}`;
    }),
  };
}
