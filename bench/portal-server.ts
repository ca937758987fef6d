import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.mjs';

/** A production server of the build, started by {@link startPortalServer}. */
export interface PortalServer {
  readonly origin: string;
  /** Its process id, to read the processor time it used (`/proc/<pid>/stat`). */
  readonly pid: number;
  /** The error and fatal lines it has logged so far (their first 300 characters). */
  readonly errorLines: readonly string[];
  /** Ends it (SIGTERM, waiting for its requests in flight) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Settings of this shell that would send the measured server elsewhere: another API, an error
 * reporting service, a mail server. The bench's servers run their embedded API and keep to
 * loopback unless a caller names one of them in `settings`.
 */
const notInherited = new Set(['API_ORIGIN', 'SENTRY_DSN', 'SMTP_URL']);

/**
 * Starts `scripts/start.mjs` on the build (`npm run build` first) on a free port, with a data
 * folder of its own and `settings` over this shell's environment, and resolves once it says it is
 * ready; rejects if it exits first. Its standard error is passed on.
 */
export async function startPortalServer(
  settings: Record<string, string> = {},
  port?: number,
): Promise<PortalServer> {
  const serverPort = port ?? (await freePort());
  const origin = `http://127.0.0.1:${serverPort}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  const inherited = Object.entries(process.env).filter(([name]) => !notInherited.has(name));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...Object.fromEntries(inherited),
      HOST: '127.0.0.1',
      PORT: String(serverPort),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDir,
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errorLines: string[] = [];
  const keepErrorLines = () => {
    let pending = '';
    return (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (/"level":"(error|fatal)"/.test(line)) errorLines.push(line.slice(0, 300));
      }
    };
  };
  const fromStderr = keepErrorLines();
  child.stderr.on('data', (chunk: Buffer) => {
    fromStderr(chunk);
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const fromStdout = keepErrorLines();
    child.stdout.on('data', (chunk: Buffer) => {
      fromStdout(chunk);
      if (chunk.toString('utf8').includes('Member portal ready')) resolve();
    });
    void exited.then((code) => {
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`The server on ${origin} exited with ${code}`));
    });
  });
  return {
    origin,
    pid: child.pid ?? 0,
    errorLines,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
