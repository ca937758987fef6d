import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, type PortRange } from '../scripts/free-port.mjs';

/**
 * Chromium's switches for every launch the bench makes: every host but 127.0.0.1 resolves to
 * nothing, and the browser's own background traffic (updates, sync, safe browsing) is off.
 */
export const offlineChromiumFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-quic',
  '--metrics-recording-only',
];

export interface RunningChromium {
  /** Its DevTools port, for Lighthouse. */
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Debian's Chromium, headless and offline but for loopback, in a profile of its own. Chromium picks
 * its debugging port itself (no other process can take it in between) unless `portRange` (the
 * probe's TEST_PORT_RANGE) confines it.
 */
export async function startChromium(
  chromiumPath: string,
  portRange: PortRange | null,
): Promise<RunningChromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-bench-chromium-'));
  const requestedPort = portRange === null ? 0 : await freePort(portRange);
  const chromium = spawn(
    chromiumPath,
    [
      ...offlineChromiumFlags,
      `--remote-debugging-port=${requestedPort}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    chromium.stderr.on('data', (chunk) => {
      output += String(chunk);
      const listening = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    chromium.on('exit', (code) => {
      reject(new Error(`Chromium exited with ${code}:\n${output}`));
    });
  });
  return {
    port,
    stop: async () => {
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      chromium.kill();
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
