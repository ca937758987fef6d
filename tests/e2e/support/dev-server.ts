import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { freePort } from './portal-server';
import { copyOfProject } from './project-copy';

/**
 * `npm run dev` (Astro's development server, `astro dev`) as a newcomer runs it, but on a copy of
 * the project in a temporary folder: a test may change its files as an editor would without
 * touching the working tree, and its DATA_DIR, `.astro`, Vite's dependency cache and everything
 * else it writes go with the folder.
 */
export interface DevServer {
  /** `http://127.0.0.1:<port>`, the development server's address. */
  readonly baseURL: string;
  /** The copy's root, whose files the server serves and watches. */
  readonly root: string;
  /** Everything the server printed so far, stdout and stderr interleaved. */
  output(): string;
  /**
   * What it printed until it said where it listens, before this fixture asked it for anything:
   * what `npm run dev` prints of its own accord as it starts.
   */
  readonly startOutput: string;
  /** Stops the server and everything it started, and removes the copy. Safe to repeat. */
  stop(): Promise<void>;
  /** With `holdableContentStoreReads`: holding the server's reads of Astro's content store. */
  readonly contentStoreReads?: ContentStoreReads;
}

/** Holds the development server's next read of Astro's content store, as a busy machine may. */
export interface ContentStoreReads {
  /** The next read is held once it has read the store's file, until `release()`. */
  hold(): void;
  /** Whether a read is held now. */
  isHeld(): boolean;
  release(): void;
}

const pollIntervalMs = 250;
const stopGraceMs = 5_000;

/** Every server still running, killed if this process exits without stopping them. */
const running = new Set<number>();
process.once('exit', () => {
  for (const group of running) killGroup(group, 'SIGKILL');
});

export interface DevServerOptions {
  /** How long the server has to answer `/readyz`. */
  readonly timeoutMs?: number;
  /**
   * The server's DATA_DIR, which the caller makes and removes; without it, a folder beside the
   * copy, removed with it.
   */
  readonly dataDir?: string;
  /**
   * Whether the copy's server lets the test hold its reads of the content store
   * (`contentStoreReads`), by a Vite plugin of the tests' added to the copy's configuration.
   */
  readonly holdableContentStoreReads?: boolean;
}

/** Astro's line saying where the development server listens, printed once it is ready to serve. */
const listeningLine = /^\S*\s*Local\s+http:\/\/\S+/mu;

/**
 * Starts `npm run dev` on a copy of the project and a free loopback port, and returns once it has
 * said where it listens and `/readyz` answers 200; always `stop()` it.
 */
export async function startDevServer({
  timeoutMs = 150_000,
  dataDir,
  holdableContentStoreReads = false,
}: DevServerOptions = {}): Promise<DevServer> {
  const server = await launchDevServer(dataDir, holdableContentStoreReads);
  let startOutput: string;
  try {
    const deadline = AbortSignal.timeout(timeoutMs);
    startOutput = await untilListening(server, deadline, timeoutMs);
    for (;;) {
      if (server.exitCode() !== undefined) {
        throw new Error(
          `npm run dev exited (${String(server.exitCode())}) before /readyz answered`,
        );
      }
      if (deadline.aborted) throw new Error(`/readyz did not answer within ${timeoutMs / 1000} s`);
      // The first request compiles the page: it may take seconds, and is answered once done.
      const ready = await fetch(`${server.baseURL}/readyz`, { signal: deadline }).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    }
  } catch (error) {
    await server.stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n── npm run dev output ──\n${server.output()}`);
  }
  return { ...server, startOutput };
}

/**
 * Runs `npm run dev` on a copy of the project until it exits by itself, for a server that must
 * refuse to start; gives up (and stops it) after `timeoutMs`.
 */
export async function runDevServerUntilExit({
  timeoutMs = 150_000,
  dataDir,
}: DevServerOptions = {}): Promise<{ code: number | null | undefined; output: string }> {
  const server = await launchDevServer(dataDir, false);
  const deadline = Date.now() + timeoutMs;
  while (server.exitCode() === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
  const code = server.exitCode();
  const output = server.output();
  await server.stop();
  return { code, output };
}

/** Resolves with what the server printed once it says where it listens. */
async function untilListening(
  server: LaunchedDevServer,
  deadline: AbortSignal,
  timeoutMs: number,
): Promise<string> {
  for (;;) {
    const output = server.output();
    if (listeningLine.test(output)) return output;
    if (server.exitCode() !== undefined) {
      throw new Error(`npm run dev exited (${String(server.exitCode())}) before it listened`);
    }
    if (deadline.aborted)
      throw new Error(`npm run dev did not listen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

interface LaunchedDevServer extends Omit<DevServer, 'startOutput'> {
  /** Its exit code once it has exited (null for a signal), undefined while it runs. */
  exitCode(): number | null | undefined;
}

async function launchDevServer(
  dataDir: string | undefined,
  holdableContentStoreReads: boolean,
): Promise<LaunchedDevServer> {
  const { folder, root } = copyOfProject('portal-dev-');
  const contentStoreReads = holdableContentStoreReads
    ? withHoldableContentStoreReads(folder, root)
    : undefined;

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const settings: Record<string, string | undefined> = {
    ...process.env,
    API_ORIGIN: undefined,
    DATABASE_URL: undefined,
    PUBLIC_ORIGIN: undefined,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir ?? path.join(folder, 'data'),
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    npm_config_update_notifier: 'false',
  };
  const env = Object.fromEntries(
    Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  // A process group of its own: npm starts a shell, which starts Astro, which starts esbuild;
  // stopping the group stops them all.
  const child = spawn('npm', ['run', 'dev'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const group = child.pid;
  if (group !== undefined) running.add(group);

  const chunks: string[] = [];
  const output = (): string => chunks.join('');
  const onOutput = (chunk: Buffer): void => {
    chunks.push(chunk.toString('utf8'));
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('error', (error) => {
      chunks.push(`\n[dev-server] could not run npm: ${error.message}\n`);
      if (child.pid === undefined) {
        exitCode = null;
        resolve();
      }
    });
    child.once('close', (code) => {
      exitCode = code;
      resolve();
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (group !== undefined && exitCode === undefined) {
        killGroup(group, 'SIGTERM');
        const killer = setTimeout(() => {
          killGroup(group, 'SIGKILL');
        }, stopGraceMs);
        await exited;
        clearTimeout(killer);
        // What the shell or npm left behind, were it still running.
        killGroup(group, 'SIGKILL');
      }
      if (group !== undefined) running.delete(group);
      rmSync(folder, { recursive: true, force: true });
    })();
    return stopping;
  };

  return {
    baseURL,
    root,
    output,
    exitCode: () => exitCode,
    stop,
    ...(contentStoreReads && { contentStoreReads }),
  };
}

/**
 * Adds `tests/e2e/support/held-content-store-reads.mjs` to the Vite plugins of the copy at `root`,
 * its configuration kept whole under another name; the plugin's signal files live in a folder
 * beside the copy, which the server does not watch.
 */
function withHoldableContentStoreReads(folder: string, root: string): ContentStoreReads {
  const signals = path.join(folder, 'content-store-reads');
  mkdirSync(signals);
  renameSync(path.join(root, 'astro.config.mjs'), path.join(root, 'astro.config.project.mjs'));
  writeFileSync(
    path.join(root, 'astro.config.mjs'),
    [
      "import config from './astro.config.project.mjs';",
      "import { heldContentStoreReads } from './tests/e2e/support/held-content-store-reads.mjs';",
      'export default {',
      '  ...config,',
      `  vite: { ...config.vite, plugins: [...(config.vite?.plugins ?? []), heldContentStoreReads(${JSON.stringify(signals)})] },`,
      '};',
      '',
    ].join('\n'),
  );
  const hold = path.join(signals, 'hold');
  const held = path.join(signals, 'held');
  return {
    hold: () => {
      rmSync(held, { force: true });
      writeFileSync(hold, '');
    },
    isHeld: () => existsSync(held) && existsSync(hold),
    release: () => {
      rmSync(hold, { force: true });
    },
  };
}

/** Signals every process of the group; a group that has gone already is no error. */
function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Resolves once Vite's client in `page` has said it is connected: from then on a saved file
 * reloads the page. Listening starts before the page is opened, so the message cannot be missed.
 */
export function viteClientConnected(page: Page, baseURL: string): Promise<void> {
  const address = baseURL.replace('http:', 'ws:');
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().startsWith(address)) return;
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"connected"')) resolve();
      });
    });
  });
}

/**
 * Playwright's `test` with a development server of its own per worker (`devServer`), the pages'
 * addresses on it: a fresh copy compiles and opens its database before the first page.
 */
export const devServerTest = base.extend<
  { devServerOutputOnFailure: undefined },
  { devServer: DevServer; devServerOptions: DevServerOptions }
>({
  devServerOptions: [{}, { scope: 'worker', option: true }],
  devServer: [
    async ({ devServerOptions }, use) => {
      const server = await startDevServer(devServerOptions);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ devServer }, use) => {
    await use(devServer.baseURL);
  },
  // What the server printed is the first thing to read when a test on it fails: a reload Vite
  // decided on, a compile error, a schema refused.
  devServerOutputOnFailure: [
    async ({ devServer }, use, testInfo) => {
      const before = devServer.output().length;
      await use(undefined);
      if (testInfo.status !== testInfo.expectedStatus) {
        const output = devServer.output().slice(before);
        await testInfo.attach('npm run dev output during the test', {
          body: output,
          contentType: 'text/plain',
        });
        // The reporter prints an attachment's first 300 characters; CI's log is all there is.
        process.stderr.write(`── npm run dev output during "${testInfo.title}" ──\n${output}\n`);
      }
    },
    { auto: true },
  ],
});
