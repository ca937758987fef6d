import { logger } from './logger.ts';

/**
 * Work to finish before the process exits, e.g. the embedded API's (its outbox worker's message
 * in flight, its database). The production entry point (scripts/start.mjs) runs it once the
 * requests in flight are answered. It loads this file as it is while the server build bundles
 * its own copy, so the list lives on the global object.
 */
type ShutdownTask = () => Promise<void>;

const sharedByBothCopies = globalThis as unknown as Record<symbol, unknown>;
const tasksKey = Symbol.for('member-portal.shutdown-tasks');
const tasks = ((sharedByBothCopies[tasksKey] as Set<ShutdownTask> | undefined) ??=
  new Set<ShutdownTask>());

/** Runs `task` at shutdown, after the last request has been answered. */
export function onShutdown(task: ShutdownTask): void {
  tasks.add(task);
}

/** Runs every task once, all at once; a failure is logged and the others still finish. */
export async function runShutdownTasks(): Promise<void> {
  const running = [...tasks];
  tasks.clear();
  const outcomes = await Promise.allSettled(running.map((task) => task()));
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      logger.error({ err: outcome.reason }, 'a shutdown task failed');
    }
  }
}
