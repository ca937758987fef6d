import type { APIRoute } from 'astro';
import { apiEndpoint } from '../server/api-transport';

/**
 * Readiness: answers once the API is reachable (for the embedded API, once its
 * database is open, migrated and seeded). `npm start` calls it at start-up so
 * that no visitor waits for that; load balancers can probe it.
 */
export const GET: APIRoute = async () => {
  try {
    await apiEndpoint();
    return new Response('ok\n', {
      headers: { 'content-type': 'text/plain', 'cache-control': 'no-store' },
    });
  } catch (error) {
    console.error('Readiness check failed:', error);
    return new Response('unavailable\n', {
      status: 503,
      headers: { 'content-type': 'text/plain' },
    });
  }
};
