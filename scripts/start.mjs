// Serves the production build (dist/): Astro's own handler (hashed assets with
// long cache lifetimes, then the server-rendered pages) behind compression,
// which @astrojs/node does not do, with copies of one page for first visits to
// SignIn (src/server/first-visit/first-visit-pages.ts). Checks the configuration first, waits until
// the server is ready (the embedded API opens its database and prints the demo
// accounts), then says where it listens.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import { clientAddressFrom } from '../platform/client-address.ts';
import { runEmbeddedApiInThread } from '../api/embedded-thread-client.ts';
import { offerDemoIdentityProvider } from '../src/server/api/demo-identity-provider.ts';
import { runShutdownTasks } from '../platform/shutdown.ts';
import { productionConveniencesLine } from '../platform/settings.ts';
import {
  currentRequestContext,
  logger,
  requestIdFor,
  withRequestContext,
  withRequestId,
} from '../platform/logger.ts';
import { clientAddressHeader } from '../src/lib/internal-headers.ts';
import { loggablePath } from '../src/lib/token-redaction.ts';
import { staticFiles } from './static-files.mjs';
import { insecureServingProblem, localAddress, parseConfig } from '../src/server/config.ts';
import {
  builtEditorOrigin,
  builtWithGitHubModeEditor,
  contentEditorSettingsProblem,
} from '../src/server/content-editor-settings.ts';
import { cookieName, xsrfCookieName } from '../src/server/session/cookies.ts';
import { bodyLimitOfRequest, countedRequestBody } from '../src/server/http/request-bodies.ts';
import { FirstVisitPages } from '../src/server/first-visit/first-visit-pages.ts';
import { pageBrotliParams } from '../src/server/http/content-coding.ts';
import { sessionSecret } from '../src/server/secret.ts';
import { isWellSignedXsrfToken, issueXsrfToken } from '../src/server/session/xsrf.ts';
import { matchRoute } from '../src/route-matching.ts';
import { firstVisitCopyPaths } from '../src/routes.ts';
import { allowedHosts } from '../src/server/http/allowed-hosts.ts';
import { REQUEST_ID_HEADER } from '../contract/headers.ts';

// React and other dependencies pick their production builds from this (several times faster).
process.env.NODE_ENV ??= 'production';
process.env.ASTRO_NODE_AUTOSTART = 'disabled';

/** Stops before serving anything, with a message for people and no stack. */
function refuseToStart(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

let settings;
try {
  settings = parseConfig(process.env);
} catch (error) {
  refuseToStart(error instanceof Error ? error.message : String(error));
}
const insecure = insecureServingProblem(settings);
if (insecure) refuseToStart(insecure);
/** The folder holding `dist/`, wherever the server was started from. */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const gitHubModeEditor = builtWithGitHubModeEditor(projectRoot);
const editorProblem = gitHubModeEditor
  ? contentEditorSettingsProblem(process.env, builtEditorOrigin(projectRoot))
  : undefined;
if (editorProblem) refuseToStart(editorProblem);
if (!settings.secureCookies) {
  console.warn(
    'Serving over plain HTTP on this machine only: cookies are not Secure. ' +
      'In production set PUBLIC_ORIGIN=https://… (see docs/OPERATIONS.md).',
  );
}

if (settings.servesProduction) {
  console.log(
    productionConveniencesLine({
      demoData: settings.seedDemoData,
      outboxViewer: settings.outboxViewer,
    }),
  );
}

// Error reporting starts before the server exists, so that it sees every request; without a DSN
// nothing of it is loaded.
if (settings.monitoring) {
  const { startServerMonitoring } = await import('../src/server/monitoring/server-monitoring.ts');
  startServerMonitoring(settings.monitoring);
}

// The embedded API (when there is no API_ORIGIN) runs in a worker thread of its own: its queries,
// and PGlite's whole database, run on the other core, beside the pages being rendered. The build
// bundles it into one module (scripts/bundle-api-thread.mjs).
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const apiThreadEntry = new URL('../dist/api/embedded-thread.mjs', import.meta.url);
if (!existsSync(entry) || !existsSync(apiThreadEntry)) {
  refuseToStart('There is no build to serve yet: run `npm run build` first (or `npm start`).');
}
runEmbeddedApiInThread(apiThreadEntry);
// Started only when the settings ask for it (never for production): src/server/config.ts.
offerDemoIdentityProvider(
  new URL('./identity-providers/demo-identity-provider.ts', import.meta.url),
);
const { handler, options } = await import(entry.href);
const serveStatic = staticFiles(projectRoot);

// A first visit to SignIn gets a copy of one rendered page with its own token
// (src/server/first-visit/first-visit-pages.ts); a minute old, the copy is made again.
const firstVisits = new FirstVisitPages({
  paths: firstVisitCopyPaths,
  cookieName: xsrfCookieName,
  newToken: () => issueXsrfToken(sessionSecret(), undefined),
  isAnonymousToken: (token) => isWellSignedXsrfToken(token, sessionSecret(), undefined),
  maxAgeMs: 60_000,
});

// Brotli for those that accept it, else gzip; only bodies worth compressing, with the settings
// every page is compressed with (src/server/http/content-coding.ts).
const compress = compression({ threshold: 1024, brotli: { params: pageBrotliParams } });

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

/**
 * The visitor's address, worked out once from the socket and the proxies the operator declared
 * (TRUSTED_PROXIES, by address), handed to the pages in a header that only this server writes.
 * Astro's own `clientAddress` would believe the left-most `X-Forwarded-For` entry, which the
 * client writes.
 */
function passClientAddress(request) {
  const address = clientAddressFrom(
    request.socket.remoteAddress,
    request.headers['x-forwarded-for'],
    settings.trustedProxies,
  );
  // Always written, so that nothing a client sends under this name survives.
  request.headers[clientAddressHeader] = address ?? '';
}

/** A path that is not valid percent-encoding names nothing here; Astro's router would throw on it. */
function refuseMalformedPath(request, response) {
  try {
    decodeURI(request.url ?? '/');
    return false;
  } catch {
    response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Bad request.\n');
    return true;
  }
}

/** No route takes a body this large; refuse it before a byte of it is read. */
function refuseOversizedBody(request, response) {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (!(declared > options.bodySizeLimit)) return false;
  response.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  response.end('Request body too large.\n');
  return true;
}

const hosts = allowedHosts({
  publicOrigin: settings.publicOrigin,
  contentEditorOrigin: gitHubModeEditor ? settings.contentEditorOrigin : undefined,
  port: settings.port,
});
/** In GitHub mode the content editor's host, where no member page is served (not even a copy). */
const editorHost =
  gitHubModeEditor && settings.contentEditorOrigin
    ? new URL(settings.contentEditorOrigin).host
    : undefined;
/** Probes reach a server by whatever name its platform gives it; they read nothing kept. */
const probes = new Set(['Health', 'Ready']);

/**
 * Answers 421 to a request for a name that is not this server's (src/server/http/allowed-hosts.ts),
 * before any other work: nothing is rendered, kept or logged for a made-up `Host`.
 */
function refuseOtherHosts(request, response) {
  if (hosts.allows(request.headers.host)) return false;
  const match = matchRoute(new URL(request.url ?? '/', 'http://entry.invalid').pathname);
  if (match.kind === 'page' && probes.has(match.route.name)) return false;
  response.writeHead(421, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(
    `This server answers as ${settings.publicOrigin ?? `http://${hosts.names[0]}`}. Open that ` +
      'address; an operator sets it with PUBLIC_ORIGIN (docs/OPERATIONS.md).\n',
  );
  return true;
}

/**
 * Counts the body as it arrives, chunked or not, and cuts it at what its route takes from this
 * visitor (src/server/http/request-bodies.ts): whoever reads past that gets an error the pages answer
 * with 413. Astro reads a request's `body` in place of the stream when one is set.
 */
function countBody(request, response) {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const limit = bodyLimitOfRequest(request, cookieName('session'));
  request.body = countedRequestBody(request, response, limit);
}

/**
 * Gives the request its id (the one a trusted proxy sent, when the socket is one; else a new
 * one): in the answer's `X-Request-Id`, in the request header the pages read (always overwritten,
 * like the client address), and on every log line written while serving it, the last of which
 * says how it ended.
 */
function identifyRequest(request, response) {
  const requestId = requestIdFor(
    request.headers[REQUEST_ID_HEADER],
    settings.trustedProxies.trusts(request.socket.remoteAddress),
  );
  request.headers[REQUEST_ID_HEADER] = requestId;
  response.setHeader('X-Request-Id', requestId);
  return requestId;
}

/**
 * Logs the request's last line once its answer is done: how it ended, how long it took, and how
 * many SQL statements the embedded API sent for it.
 */
function logWhenDone(request, response) {
  const startedAt = performance.now();
  const context = currentRequestContext();
  response.once('close', () => {
    withRequestContext(context, () => {
      logger.info(
        {
          method: request.method,
          path: loggablePath(request.url ?? '/'),
          status: response.statusCode,
          durationMs: Math.round(performance.now() - startedAt),
          ...(context.databaseStatements > 0
            ? { databaseStatements: context.databaseStatements }
            : {}),
          ...(response.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
  });
}

let stopping = false;

const server = createServer((request, response) => {
  // A stopping server answers what it was sent, then lets the connection go.
  if (stopping) response.setHeader('connection', 'close');
  withRequestId(identifyRequest(request, response), () => {
    logWhenDone(request, response);
    if (refuseOtherHosts(request, response)) return;
    if (refuseOversizedBody(request, response)) return;
    countBody(request, response);
    if (refuseMalformedPath(request, response)) return;
    if (serveStatic(request, response)) return;
    const onEditorHost =
      editorHost !== undefined && request.headers.host?.toLowerCase() === editorHost;
    if (!onEditorHost && firstVisits.serve(request, response)) return;
    passClientAddress(request);
    compress(request, response, () => {
      keepWriteCallbacks(response);
      firstVisits.watch(response);
      handler(request, response);
    });
  });
});
await new Promise((resolve) => server.listen(settings.port, settings.host, () => resolve()));

/**
 * Graceful shutdown (SIGTERM from the orchestrator, or Ctrl-C): take no new connections, answer
 * the requests in flight, then let the embedded API finish its own work in flight (the outbox
 * worker's message) and close its database. Whatever is still running after
 * SHUTDOWN_TIMEOUT_MS is cut off.
 */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: answering the requests in flight');
  const deadline = setTimeout(() => {
    logger.error(
      { timeoutMs: settings.shutdownTimeoutMs },
      'stopping: work still in flight after the shutdown timeout; exiting anyway',
    );
    process.exit(1);
  }, settings.shutdownTimeoutMs);
  deadline.unref();
  const closed = new Promise((resolve) => server.close(resolve));
  // Keep-alive connections outlive their last answer; let each go as soon as it is idle.
  server.closeIdleConnections();
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  await closed;
  clearInterval(idleSweep);
  await runShutdownTasks();
  logger.info('stopped');
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void stop(signal);
  });
}

const inUrl = (host) => (host.includes(':') ? `[${host}]` : host);
const local = settings.host === '0.0.0.0' ? '127.0.0.1' : inUrl(settings.host);
const readiness = await fetch(`http://${local}:${settings.port}/readyz`);
if (!readiness.ok) {
  if (!settings.apiOrigin) {
    console.error(
      `The server started but is not ready (${readiness.status}); see the errors above.`,
    );
    process.exit(1);
  }
  // A separate API may start after this server; /readyz says when it answers.
  console.warn(
    `The API at ${settings.apiOrigin} does not answer yet; /readyz answers 503 until it does.`,
  );
}
console.log(`\nMember portal ready: ${localAddress(settings)}\n`);
