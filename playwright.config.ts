import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests run against the production build (`astro build`), served by
 * the real Node entry point on a fresh embedded database, in Debian's Chromium.
 * The browser is never downloaded: see scripts/test.mjs for the check.
 */
const port = Number(process.env.E2E_PORT ?? 4399);
const baseURL = `http://127.0.0.1:${port}`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromiumPath)) {
  throw new Error(
    `No Chromium at ${chromiumPath}. Install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
}

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/support/data-template.ts',
  // Tests spread over the workers one by one, except a file that starts a server of its own for
  // all its tests: it says `mode: 'default'` and runs in one worker, so the server starts once.
  // Three workers: four starved each other's journeys on a slower machine (decision 075).
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  forbidOnly: true,
  // Two shared cores run the workers, their servers, PostgreSQL and the tests that start servers
  // of their own: a step that takes 200 ms on a quiet machine has been seen to take over 5 s, and
  // a journey of 20 s alone over 60 s (decision 075).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL,
    // A failed test keeps its trace: each action, the page's DOM before and after it, console and
    // network. Without the screencast, which made Chromium draw and encode frames through every
    // test, passing or not: a fifth of the browser tests' time (docs/decisions/068-browser-tests-cpu.md).
    trace: { mode: 'retain-on-failure', screenshots: false },
    locale: 'en-US',
    timezoneId: 'UTC',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromiumPath,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node scripts/serve-e2e.mjs',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM lets scripts/serve-e2e.mjs remove its temporary database.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: baseURL,
      SESSION_SECRET: 'e2e-only-session-secret-not-for-production-use',
      DEMO_COMPANY_SIGN_IN: 'false',
      KIT_GALLERY: 'true',
      OUTBOX_VIEWER: 'true',
    },
  },
});
