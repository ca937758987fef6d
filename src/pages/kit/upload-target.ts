import type { APIRoute } from 'astro';
import { kitGalleryEnabled } from './_enabled';

/** Pause between body chunks under `?throttle=1`, so uploads take long enough to watch. */
const THROTTLE_PAUSE_MS = 25;

function pause(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

async function drain(body: ReadableStream<Uint8Array> | null, throttle: boolean): Promise<number> {
  if (!body) return 0;
  const reader = body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return received;
    received += value.byteLength;
    // Not reading fills the socket buffers, which slows the sender: the browser's upload
    // progress then moves in visible steps.
    if (throttle) await pause(THROTTLE_PAUSE_MS);
  }
}

/** What a dropped answer promises and what it actually sends before the connection ends. */
const PROMISED_BYTES = 1024;
const TRUNCATED_BODY = 'partial';

/**
 * A stand-in storage address for the kit gallery's uploader and its browser tests. PUT answers
 * 200 once the whole body is read; `?fail=500` answers 500 with a text; `?drop=1` drops the
 * connection; `?throttle=1` reads slowly. 404 unless the gallery is enabled.
 *
 * Dropping the connection: an endpoint cannot reach the socket. Erroring the response stream
 * makes astro/app/node destroy the socket, but only from a write callback that response wrappers
 * such as `compression` (scripts/start.mjs) never call, so the answer hangs instead. With
 * `Connection: close` and a short body, Chromium accepts the short body as complete. What works
 * everywhere: promise more bytes (Content-Length) than are sent and keep the connection open.
 * Node counts the answer as done; the browser waits for the rest until Node closes the idle
 * connection (its keep-alive timeout, 5 s by default) and then reports a network error.
 * `Cache-Control: no-transform` keeps compression (which would drop the length) out of it.
 */
export const PUT: APIRoute = async ({ request, url }) => {
  if (!kitGalleryEnabled()) return new Response('Not found', { status: 404 });

  const received = await drain(request.body, url.searchParams.get('throttle') === '1');

  if (url.searchParams.get('drop') === '1') {
    return new Response(TRUNCATED_BODY, {
      status: 200,
      headers: {
        // No compression layer may re-frame the answer (and so fix its length).
        'cache-control': 'no-store, no-transform',
        'content-length': String(PROMISED_BYTES),
        'content-type': 'application/octet-stream',
      },
    });
  }
  if (url.searchParams.get('fail') === '500') {
    return new Response('Simulated storage failure', {
      status: 500,
      headers: { 'content-type': 'text/plain' },
    });
  }
  return new Response(null, { status: 200, headers: { 'x-received-bytes': String(received) } });
};

/** Anything but PUT is not how storage is used. */
export const ALL: APIRoute = () => {
  if (!kitGalleryEnabled()) return new Response('Not found', { status: 404 });
  return new Response('Method not allowed', { status: 405, headers: { allow: 'PUT' } });
};
