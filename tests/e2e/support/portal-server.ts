import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort as sharedFreePort } from '../../../scripts/free-port.mjs';

/**
 * Extra copies of the production server (`dist/`, served by `scripts/serve-e2e.mjs` on a fresh
 * PGlite in a temporary folder), for tests of settings the shared server of playwright.config.ts
 * does not have: another API_ORIGIN, a setting that must stop the server at start-up, and so on.
 * Needs the build (`npx astro build`), like every browser test.
 */

/**
 * Node's flags for a server a test starts and stops within seconds. PGlite's WebAssembly is
 * compiled by V8's baseline compiler alone: the optimizing compiler would compile its hot
 * functions again in the background, which costs about 0.8 s of CPU a start on two cores and
 * is never repaid by a server that serves a few pages (docs/decisions/068-browser-tests-cpu.md).
 */
export const shortLivedServerFlags: readonly string[] = ['--liftoff-only'];

export interface PortalServerOptions {
  /**
   * Environment variables on top of this process's and the defaults (HOST, PORT, PUBLIC_ORIGIN,
   * SESSION_SECRET; API_ORIGIN and DATABASE_URL removed so the server has its own embedded API
   * and database). `undefined` removes a variable. They may replace the defaults too, e.g.
   * `HOST: '0.0.0.0'` (`baseURL` stays on 127.0.0.1); a PORT of your own makes `baseURL` wrong
   * (use `port` instead).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The port to listen on (default a free one), for a server whose address another process must
   * know before it starts, e.g. the PUBLIC_ORIGIN of an API it calls: take one with `freePort()`.
   */
  readonly port?: number;
  /**
   * What to wait for before returning: `ready` (default) until the server prints that it is
   * ready, which it does once `/readyz` has answered (the embedded API has opened and seeded its
   * database), and throws if it exits first; `exit`
   * until it exits, for servers that must refuse to start (then see `exited` and `output()`);
   * `nothing` returns as soon as the process runs.
   */
  readonly waitFor?: 'ready' | 'exit' | 'nothing';
  /** How long `waitFor` may take, in milliseconds (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * The server's DATA_DIR (its PGlite database, signing keys and files), which then outlives it:
   * a server started later on the same folder finds everything this one committed. The caller
   * makes and removes the folder. Without it, the server has a fresh one, removed when it stops.
   */
  readonly dataDir?: string;
  /**
   * For a server that answers thousands of requests (hostile strings): V8 keeps optimizing
   * PGlite's hot functions, which repays itself there; others start with `shortLivedServerFlags`.
   */
  readonly servesThousands?: boolean;
  /**
   * The project whose build (`dist/`) the server serves: this one unless given, e.g. a copy built
   * with settings of its own (./project-copy.ts).
   */
  readonly projectRoot?: string;
}

export interface PortalServer {
  /** `http://127.0.0.1:<port>`, the server's address (also its PUBLIC_ORIGIN by default). */
  readonly baseURL: string;
  /** Everything the server printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its files. Safe to repeat. */
  stop(): Promise<void>;
  /**
   * Ends the server at once with SIGKILL, as a crash or an out-of-memory kill would: nothing in
   * flight is answered and nothing is closed. Resolves once the process is gone.
   */
  kill(): Promise<void>;
  /** Settles when the process has exited: its exit code, or null if a signal ended it. */
  readonly exited: Promise<number | null>;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readyLine = 'Member portal ready';
const pollIntervalMs = 100;
const stopGraceMs = 5_000;

/** Every server still running, killed if this process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * A loopback port that nothing listened on a moment ago: the system's choice, or one of
 * TEST_PORT_RANGE (scripts/free-port.mjs, shared with the bench and `npm test`).
 */
export function freePort(): Promise<number> {
  return sharedFreePort();
}

/**
 * The `stop()` of a server the tests started: SIGTERM, then SIGKILL if it is still running after
 * {@link stopGraceMs}, and once it has exited, its `folder` removed. Every call after the first
 * returns the first call's promise, so a test and its `afterAll` may both stop it.
 */
export function gracefulStop(
  child: ChildProcess,
  exited: Promise<unknown>,
  folder: string,
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
        await exited;
        clearTimeout(killer);
      }
      rmSync(folder, { recursive: true, force: true });
    })();
    return stopping;
  };
}

/**
 * Names the DATA_DIR that ./data-template.ts prepared (migrated and seeded) once per run:
 * scripts/serve-e2e.mjs starts from a copy of it instead of migrating and seeding a new database,
 * seconds saved on every server the tests start.
 */
export const dataTemplateVariable = 'PORTAL_DATA_TEMPLATE';

/**
 * Settings that leave a fresh server's data as the template's (the demo data seeded, the same
 * embedded PGlite): a server with any other setting of its own starts from an empty folder.
 */
const settingsKeepingTheTemplate = new Set([
  'DEMO_COMPANY_SIGN_IN',
  'OUTBOX_VIEWER',
  'SMTP_URL',
  'KIT_GALLERY',
  'LOG_LEVEL',
  'TRUSTED_PROXIES',
  'API_TIMEOUT_MS',
  'MEMBER_PAGE_CACHE_MB',
  'SHUTDOWN_TIMEOUT_MS',
  'SENTRY_DSN',
  'SENTRY_ENVIRONMENT',
  'SENTRY_RELEASE',
]);

function startsFromDataTemplate(options: PortalServerOptions): boolean {
  return (
    options.dataDir === undefined &&
    Object.keys(options.env ?? {}).every((name) => settingsKeepingTheTemplate.has(name))
  );
}

/** Starts an extra production server on a free loopback port ({@link freePort}); always `stop()` it. */
export async function startPortalServer(options: PortalServerOptions = {}): Promise<PortalServer> {
  // A fresh embedded database on two shared cores under the whole suite can take half a minute.
  const { waitFor = 'ready', timeoutMs = 60_000 } = options;
  const port = options.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  // serve-e2e.mjs makes its database folder in the system's temporary folder; point that at one
  // of ours, so that nothing is left behind even when the server is killed before it cleans up.
  const scratch = mkdtempSync(path.join(tmpdir(), 'portal-server-'));

  const settings: Record<string, string | undefined> = {
    ...process.env,
    [dataTemplateVariable]: startsFromDataTemplate(options)
      ? process.env[dataTemplateVariable]
      : undefined,
    API_ORIGIN: undefined,
    DATABASE_URL: undefined,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_ORIGIN: baseURL,
    SESSION_SECRET: 'e2e-only-session-secret-not-for-production-use',
    // The demo company's provider costs every server a start; the specs that try it turn it on.
    DEMO_COMPANY_SIGN_IN: 'false',
    ...options.env,
    ...(options.dataDir === undefined ? {} : { DATA_DIR: options.dataDir }),
    TMPDIR: scratch,
  };
  const env = Object.fromEntries(
    Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

  // serve-e2e.mjs gives the server a fresh DATA_DIR; a folder of the caller's needs the plain
  // entry point. The Node that runs the tests (Node 24 from the `node` devDependency), not
  // whatever is on PATH.
  const entryPoint = options.dataDir === undefined ? 'scripts/serve-e2e.mjs' : 'scripts/start.mjs';
  const project = options.projectRoot ?? root;
  const nodeFlags = options.servesThousands ? [] : shortLivedServerFlags;
  const child = spawn(process.execPath, [...nodeFlags, path.join(project, entryPoint)], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  const chunks: string[] = [];
  const output = (): string => chunks.join('');
  const onOutput = (chunk: Buffer): void => {
    chunks.push(chunk.toString('utf8'));
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);

  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      chunks.push(`\n[portal-server] could not run the server: ${error.message}\n`);
      if (child.pid === undefined) resolve(null);
    });
    child.once('close', (code) => {
      resolve(code);
    });
  });
  void exited.then(() => {
    running.delete(child);
  });

  const stop = gracefulStop(child, exited, scratch);

  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await stop();
  };

  const server: PortalServer = { baseURL, output, stop, kill, exited };
  if (waitFor === 'nothing') return server;
  try {
    if (waitFor === 'exit') await settlesWithin(exited, timeoutMs, 'exit');
    else await untilReady(server, timeoutMs);
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n── server output ──\n${output()}`);
  }
  return server;
}

/**
 * Waits until the server says it is ready; throws if it exits first. Answering `/healthz` is not
 * enough: the pages can answer before the embedded API has opened its database, and a first sign-in
 * then waits for it (seen to take over 30 s on a slower machine under the whole suite).
 */
async function untilReady(server: PortalServer, timeoutMs: number): Promise<void> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let exitCode: number | null | undefined;
  void server.exited.then((code) => {
    exitCode = code;
  });
  while (!deadline.aborted) {
    if (exitCode !== undefined) {
      throw new Error(`The server exited (${String(exitCode)}) before it was ready`);
    }
    if (server.output().includes(readyLine)) return;
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
  throw new Error(`The server was not ready within ${timeoutMs / 1000} s`);
}

async function settlesWithin(promise: Promise<unknown>, timeoutMs: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`The server did not ${what} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
