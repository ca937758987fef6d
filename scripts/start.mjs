// Serves the production build (dist/) with the standalone Node server and says
// where it listens. The embedded API starts with the server and prints the
// demo accounts when it seeds them.
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '4321';
process.env.HOST = host;
process.env.PORT = port;

await import('../dist/server/entry.mjs');
console.log(`\nMember portal: http://${host === '0.0.0.0' ? 'localhost' : host}:${port}\n`);
