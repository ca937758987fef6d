import { expect, test } from '@playwright/test';
import { mimeTextParts, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Emails leave by SMTP when the operator sets SMTP_URL (docs/PRODUCT.md §10): the production
 * server's API thread (bundled by the build, scripts/bundle-api-thread.mjs) hands the outbox's
 * messages to a mail server, here one of the test's own on loopback, and the link in the message
 * works in the browser.
 */

let smtp: SmtpSink;
let server: PortalServer;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startPortalServer({ env: { SMTP_URL: smtp.url } });
});

test.afterAll(async () => {
  await server.stop();
  await smtp.close();
});

test('a reset email leaves by SMTP, and its link opens the page to choose a new password', async ({
  page,
}) => {
  const email = 'member@example.com';
  await page.goto(`${server.baseURL}/forgot-password`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'emailed a link' })).toBeVisible();

  const toMember = () => smtp.received.filter(({ to }) => to.includes(email));
  await expect.poll(() => toMember().length).toBe(1);
  const [message] = toMember();
  expect(message?.raw).toMatch(/^Subject: Reset your .* password/m);
  const text = mimeTextParts(message?.raw ?? '')['text/plain'] ?? '';
  const link = new RegExp(`${server.baseURL}/reset-password/[\\w-]+`).exec(text)?.[0];
  expect(link).toBeDefined();

  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
});
