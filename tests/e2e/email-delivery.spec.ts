import { expect, test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { listenOnFreePort } from '../../scripts/free-port.mjs';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Emails leave by SMTP when the operator sets SMTP_URL (docs/PRODUCT.md §10): the production
 * server's API thread (bundled by the build, scripts/bundle-api-thread.mjs) hands the outbox's
 * messages to a mail server, here one of the test's own on loopback, and the link in the message
 * works in the browser.
 */

interface Received {
  readonly to: readonly string[];
  readonly raw: string;
}

let smtp: SMTPServer;
let server: PortalServer;
const received: Received[] = [];

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  smtp = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'outbox' && auth.password === 'secret') {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await listenOnFreePort(smtp.server);
  server = await startPortalServer({
    env: { SMTP_URL: `smtp://outbox:secret@127.0.0.1:${String(port)}` },
  });
});

test.afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => {
    smtp.close(resolve);
  });
});

/** A message's text as written, from its quoted-printable transfer encoding. */
function unquoted(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

test('a reset email leaves by SMTP, and its link opens the page to choose a new password', async ({
  page,
}) => {
  const email = 'member@example.com';
  await page.goto(`${server.baseURL}/forgot-password`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'emailed a link' })).toBeVisible();

  await expect.poll(() => received.filter(({ to }) => to.includes(email)).length).toBe(1);
  const [message] = received.filter(({ to }) => to.includes(email));
  const text = unquoted(message?.raw ?? '');
  expect(text).toMatch(/^Subject: Reset your .* password/m);
  const link = new RegExp(`${server.baseURL}/reset-password/[\\w-]+`).exec(text)?.[0];
  expect(link).toBeDefined();

  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
});
