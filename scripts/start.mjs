// Serves the production build (dist/) with the standalone Node server, waits
// until it is ready (the embedded API opens its database and prints the demo
// accounts), then says where it listens.
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '4321';
process.env.HOST = host;
process.env.PORT = port;

await import('../dist/server/entry.mjs');

const address = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
const response = await fetch(`http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/healthz`);
if (!response.ok) {
  console.error(`The server started but is not ready (${response.status}); see the errors above.`);
  process.exit(1);
}
console.log(`\nMember portal ready: ${address}\n`);
