import type { Database } from '../../db/client.ts';
import { MINUTE, type Clock } from '../../../platform/clock.ts';
import { removeQueuedStorageFiles, removeUnattachedFiles } from '../files/files.ts';
import { removeInBatches, repeatingPass, type RepeatingPass } from '../repeating-pass.ts';
import type { FileStorage } from '../files/storage/file-storage.ts';

interface UnattachedFileSweeperOptions {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  /** Pause between passes of a started sweeper (default 10 minutes). */
  intervalMs?: number;
}

export interface UnattachedFileSweeper extends RepeatingPass {
  /**
   * One pass: removes every file due (unattached too long, or of a deleted account), in batches.
   * Resolves to the number removed.
   */
  removeDue(): Promise<number>;
}

const BATCH_SIZE = 100;
/** Bounds one pass (removeInBatches). */
const MAX_BATCHES_PER_PASS = 10;

/**
 * Removes the files nobody attached within an hour (UNATTACHED_FILE_LIFETIME_MS, files.ts), and
 * those of deleted accounts that storage still holds (a store that failed at the deletion), in
 * the API process, like the outbox worker: several servers may run one each, as the removal skips
 * rows another is removing. A pass every 10 minutes keeps an unwanted file, and the room it takes
 * in its member's quota, at most 10 minutes past its life.
 */
export function createUnattachedFileSweeper(
  options: UnattachedFileSweeperOptions,
): UnattachedFileSweeper {
  const { db, clock, storage } = options;
  const intervalMs = options.intervalMs ?? 10 * MINUTE;

  const batches = { batchSize: BATCH_SIZE, maxBatches: MAX_BATCHES_PER_PASS };
  async function removeDue(): Promise<number> {
    const unattached = await removeInBatches(
      (batchSize) => removeUnattachedFiles(db, storage, clock.now(), batchSize),
      batches,
    );
    const queued = await removeInBatches(
      (batchSize) => removeQueuedStorageFiles(db, storage, batchSize),
      batches,
    );
    return unattached + queued;
  }

  return {
    removeDue,
    ...repeatingPass(removeDue, intervalMs, (error) => {
      const message = error instanceof Error ? error.message : String(error);
      return `Removing unattached files failed: ${message}`;
    }),
  };
}
