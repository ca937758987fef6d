import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runApiServerUntilExit, startApiServer } from './support/api-server';
import { runDevServerUntilExit } from './support/dev-server';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * One process per embedded database (docs/OPERATIONS.md, "Data"): `npm run preview` and
 * `npm run api` both keep PGlite in DATA_DIR/pglite (./data by default), and a second process on
 * a folder in use refuses to start, in one line, rather than share it and lose what the other
 * one writes. A holder that was killed does not keep the next one out.
 */

// A fresh database seeds its demo data on start, and a test here starts two or three processes:
// half a minute each on two busy cores.
test.describe.configure({ timeout: 150_000 });

let dataDir: string;
const servers: Array<{ stop(): Promise<void> }> = [];

test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-data-folder-'));
});

test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

async function startPortal(waitFor: 'ready' | 'exit' = 'ready'): Promise<PortalServer> {
  const server = await startPortalServer({ dataDir, waitFor });
  servers.push(server);
  return server;
}

/** The refusal, for the folder of this test, whoever holds it. */
const refusal = () =>
  new RegExp(
    `^The data folder ${escaped(path.join(dataDir, 'pglite'))} is in use by another process \\(pid \\d+\\): stop it, or give this one DATA_DIR=… of its own, or use DATABASE_URL\\.$`,
    'mu',
  );

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** Says it in that one line: no stack, no readiness failure, nothing else about it. */
function expectOneLineRefusal(output: string): void {
  expect(output).toMatch(refusal());
  expect(output.split('\n').filter((line) => line.includes('data folder'))).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /mu);
  expect(output).not.toContain('not ready');
  expect(output).not.toContain('readiness check failed');
}

test('a second web server on the data folder of a running one refuses to start, in one line', async () => {
  await startPortal();
  const second = await startPortal('exit');
  expect(await second.exited).toBe(1);
  expectOneLineRefusal(second.output());
});

test('a web server refuses the data folder of the API running alone, in one line', async () => {
  servers.push(await startApiServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, 60_000));
  const web = await startPortal('exit');
  expect(await web.exited).toBe(1);
  expectOneLineRefusal(web.output());
});

test('npm run dev refuses the data folder of a running web server as it starts, in one line', async () => {
  await startPortal();
  const { code, output } = await runDevServerUntilExit({ dataDir });
  expect(code).toBe(1);
  expectOneLineRefusal(output);
  // Before it served anything: it never said where it listens.
  expect(output).not.toMatch(/Local\s+http/u);
});

test('the API alone refuses the data folder of a running web server, in one line', async () => {
  await startPortal();
  const { code, output } = await runApiServerUntilExit({ DATA_DIR: dataDir });
  expect(code).toBe(1);
  expectOneLineRefusal(output);
  expect(output).not.toContain('Reference API listening');
});

test('a web server killed on its data folder does not keep the next one from starting there', async () => {
  const first = await startPortal();
  await first.kill();
  // It had no chance to let the folder go.
  expect(existsSync(path.join(dataDir, 'pglite', 'process.lock'))).toBe(true);

  const next = await startPortal();
  expect((await fetch(`${next.baseURL}/readyz`)).status).toBe(200);
  // And the folder is now the new one's.
  const third = await startPortal('exit');
  expect(await third.exited).toBe(1);
});
