// Serves the production build (dist/): Astro's own handler (hashed assets with
// long cache lifetimes, then the server-rendered pages) behind compression,
// which @astrojs/node does not do. Waits until the server is ready (the
// embedded API opens its database and prints the demo accounts), then says
// where it listens.
import { createServer } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
// React and other dependencies pick their production builds from this (several times faster).
process.env.NODE_ENV ??= 'production';

const { handler } = await import('../dist/server/entry.mjs');
// Brotli for those that accept it, else gzip; only bodies worth compressing. Quality 4, not
// brotli's default 11: pages are compressed on every request, and 11 costs more than it saves.
const compress = compression({
  threshold: 1024,
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
});

/**
 * `compression` replaces `response.write` with one that drops its callback;
 * Astro relies on that callback to destroy the socket when a page fails
 * mid-stream. Pass it on once the chunk is handed over.
 */
function keepWriteCallbacks(response) {
  const write = response.write;
  response.write = function writeWithCallback(chunk, encoding, callback) {
    const done = typeof encoding === 'function' ? encoding : callback;
    const accepted =
      typeof encoding === 'function' ? write.call(this, chunk) : write.call(this, chunk, encoding);
    if (done) process.nextTick(done);
    return accepted;
  };
}

const server = createServer((request, response) => {
  compress(request, response, () => {
    keepWriteCallbacks(response);
    handler(request, response);
  });
});
await new Promise((resolve) => server.listen(port, host, () => resolve(undefined)));

const local = host === '0.0.0.0' ? '127.0.0.1' : host;
const readiness = await fetch(`http://${local}:${port}/healthz`);
if (!readiness.ok) {
  console.error(`The server started but is not ready (${readiness.status}); see the errors above.`);
  process.exit(1);
}
console.log(`\nMember portal ready: http://${host === '0.0.0.0' ? 'localhost' : host}:${port}\n`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    // Keep-alive connections would hold the close open; nothing here is worth waiting for.
    server.closeAllConnections();
  });
}
