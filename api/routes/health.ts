import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { ApiDependencies } from '../http/context.ts';
import { logger } from '../../platform/logger.ts';

/** How long the database has to answer the readiness probe before it counts as unreachable. */
const DATABASE_PROBE_TIMEOUT_MS = 2_000;

const plainText = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/**
 * For load balancers: `GET /healthz`, the process is up (it answers without asking anything), and
 * `GET /readyz`, the database answers `SELECT 1` within 2 seconds. `ok` or `unavailable`, never
 * cached; a failed probe is logged with why.
 */
export function createHealthRoutes(dependencies: Pick<ApiDependencies, 'db'>) {
  const { db } = dependencies;
  return new Hono()
    .get('/healthz', () => new Response('ok\n', { headers: plainText }))
    .get('/readyz', async () => {
      try {
        await withinProbeTimeout(db.execute(sql`select 1`));
        return new Response('ok\n', { headers: plainText });
      } catch (error) {
        logger.warn({ err: error }, 'readiness: the database did not answer');
        return new Response('unavailable\n', { status: 503, headers: plainText });
      }
    });
}

async function withinProbeTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${DATABASE_PROBE_TIMEOUT_MS / 1000} s`));
    }, DATABASE_PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
