import type { APIRoute } from 'astro';
import { logger } from '../../platform/logger.ts';
import { apiEndpoint, type ApiEndpoint } from '../server/api/transport';

/** How long the API has to answer the probe before this server counts it as down. */
const probeTimeoutMs = 2_000;

/** The API's own readiness: its database answers (api/routes/health.ts). */
const probePath = '/readyz';

const headers = { 'content-type': 'text/plain', 'cache-control': 'no-store' };

/**
 * Readiness, "ready to serve members: the API and its database answer". Asks the API's
 * `GET /readyz` through the same transport the pages use, which must answer 200 within 2 seconds;
 * then 200 `ok`, else 503 `unavailable`, and the reason is logged.
 *
 * The embedded API (no API_ORIGIN) exists only once its database is open, migrated and seeded,
 * and the first probe waits for that (the first start takes a few seconds); `npm start` calls it
 * at start-up so that no visitor waits. With API_ORIGIN set, it answers 503 for as long as that
 * API, or its database, does not answer. Load balancers send members only to a ready server;
 * no answer is cached.
 */
export const GET: APIRoute = async () => {
  const problem = await apiProblem();
  if (problem === undefined) return new Response('ok\n', { headers });
  logger.warn({ problem }, `readiness check failed: ${problem}`);
  return new Response('unavailable\n', { status: 503, headers });
};

/** Why the API cannot serve right now, or undefined when it answered. */
async function apiProblem(): Promise<string | undefined> {
  let endpoint: ApiEndpoint;
  try {
    endpoint = await apiEndpoint();
  } catch (error) {
    return `the API could not be opened (${describe(error)})`;
  }
  const { transport, baseUrl } = endpoint;
  try {
    const signal = AbortSignal.timeout(probeTimeoutMs);
    const request = new Request(new URL(probePath, baseUrl), {
      headers: { accept: 'application/json' },
      signal,
    });
    // `fetch` honours the signal; the embedded API's in-process `fetch` does not, hence the race.
    const response = await Promise.race([transport(request), rejectOnAbort(signal)]);
    void response.body?.cancel().catch(() => undefined);
    if (response.status === 200) return undefined;
    return `the API at ${baseUrl} answered ${response.status} to GET ${probePath}`;
  } catch (error) {
    return `the API at ${baseUrl} did not answer GET ${probePath} (${describe(error)})`;
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      { once: true },
    );
  });
}

/** One line, no stack: the error and, for `fetch failed`, the network error behind it. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${probeTimeoutMs / 1000} s`;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.replace(/\s+/g, ' ');
}
