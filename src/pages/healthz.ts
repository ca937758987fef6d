import type { APIRoute } from 'astro';
import { apiEndpoint, type ApiEndpoint } from '../server/api-transport';

/** How long the API has to answer the probe before this server counts it as down. */
const probeTimeoutMs = 2_000;

/**
 * A call every implementation of the API contract answers without side effects: the current
 * user, with no credentials, is 401 (and touches no data).
 */
const probePath = '/api/v1/users/current';

const headers = { 'content-type': 'text/plain', 'cache-control': 'no-store' };

/**
 * Readiness, "ready to serve: the API answers". Asks the API itself, through the same transport
 * the pages use: `GET /api/v1/users/current` without credentials, which must answer within
 * 2 seconds and below 500 (it answers 401). Then 200 `ok`; a network error, a timeout or a 5xx
 * answers 503 `unavailable` and logs why.
 *
 * The embedded API (no API_ORIGIN) exists only once its database is open, migrated and seeded,
 * and this waits for that (the first start takes a few seconds); `npm start` calls it at
 * start-up so that no visitor waits. With API_ORIGIN set, it answers 503 for as long as that
 * API does not answer. Load balancers can probe it; no answer is cached.
 */
export const GET: APIRoute = async () => {
  const problem = await apiProblem();
  if (problem === undefined) return new Response('ok\n', { headers });
  console.error(`Readiness check failed: ${problem}`);
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
    if (response.status < 500) return undefined;
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
