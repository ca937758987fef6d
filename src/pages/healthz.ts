import type { APIRoute } from 'astro';

/**
 * Liveness, "the process is up": answers `ok` at once, asking nothing, so that a load balancer
 * restarts a server only when the process itself is stuck. Whether it can serve members is
 * `/readyz`. Never cached.
 */
export const GET: APIRoute = () =>
  new Response('ok\n', { headers: { 'content-type': 'text/plain', 'cache-control': 'no-store' } });
