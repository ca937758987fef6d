import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, gracefulStop, shortLivedServerFlags } from './portal-server';

/**
 * The reference API on its own (`npm run api`: api/serve.ts), on a free loopback port, for web
 * servers to call at API_ORIGIN.
 */
export interface ApiServer {
  /** `http://127.0.0.1:<port>`, for a web server's API_ORIGIN. */
  readonly origin: string;
  /** Everything the process printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and removes its files. Safe to repeat. */
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Starts the API with `env` on top of this process's environment (API_HOST, API_PORT and a
 * DATA_DIR of its own are set here), and returns once its `/readyz` answers 200: its database
 * is open, migrated and seeded. Always `stop()` it.
 */
export async function startApiServer(
  env: Readonly<Record<string, string>>,
  timeoutMs = 30_000,
): Promise<ApiServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'api-server-'));
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', ...shortLivedServerFlags, path.join(root, 'api/serve.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        API_HOST: '127.0.0.1',
        API_PORT: String(port),
        DATA_DIR: dataDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const chunks: string[] = [];
  const output = (): string => chunks.join('');
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => {
      resolve();
    });
  });
  process.once('exit', () => {
    child.kill('SIGKILL');
  });

  const stop = gracefulStop(child, exited, dataDir);

  const deadline = Date.now() + timeoutMs;
  while (!(await isReady(origin))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The API at ${origin} did not become ready\n── output ──\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, output, stop };
}

/**
 * Runs the API with `env` on top of this process's environment (API_HOST and a free API_PORT set
 * here; give it a DATA_DIR) until it exits, for settings with which it must refuse to start: its
 * exit code and everything it printed.
 */
export async function runApiServerUntilExit(
  env: Readonly<Record<string, string>>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', ...shortLivedServerFlags, path.join(root, 'api/serve.ts')],
    {
      cwd: root,
      env: { ...process.env, API_HOST: '127.0.0.1', API_PORT: String(await freePort()), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const chunks: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => {
    child.once('close', resolve);
  });
  clearTimeout(killer);
  return { code, output: chunks.join('') };
}

async function isReady(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/readyz`);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
