import { expect, test } from '@playwright/test';
import { demoEmployeeLine } from './support/demo-company-sign-in';
import { anonymousVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import { startPortalServer } from './support/portal-server';

/** A Node stack trace line, as `at someFunction (file:line:column)`. */
const stackLine = /^\s+at\s/m;

test('a production server for other machines will not start without an https public origin', async () => {
  const server = await startPortalServer({
    env: { HOST: '0.0.0.0', PUBLIC_ORIGIN: undefined },
    waitFor: 'exit',
  });

  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('set PUBLIC_ORIGIN');
  expect(server.output()).toContain('ALLOW_INSECURE_HTTP=true');
  expect(server.output()).not.toMatch(stackLine);
  await server.stop();
});

test('a plain-HTTP public origin on another host is refused as well', async () => {
  const server = await startPortalServer({
    env: { PUBLIC_ORIGIN: 'http://portal.example.com' },
    waitFor: 'exit',
  });

  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('Refusing to serve portal.example.com over plain HTTP');
  await server.stop();
});

test('a setting with a wrong value stops the server with a message naming it, and no stack', async () => {
  const server = await startPortalServer({
    env: { PORT: 'eighty', TRUSTED_PROXIES: 'all of them' },
    waitFor: 'exit',
  });

  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('PORT must be a port number');
  expect(server.output()).toContain("TRUSTED_PROXIES must list the proxies' addresses or networks");
  expect(server.output()).not.toMatch(stackLine);
  await server.stop();
});

test('a server for production has no demo accounts and no outbox unless named, and says so', async () => {
  const server = await startPortalServer({
    env: { PUBLIC_ORIGIN: 'https://portal.example.com', OUTBOX_VIEWER: undefined },
  });
  try {
    expect(server.output()).toContain(
      'Serving for production: no demo accounts, no outbox viewer (docs/OPERATIONS.md).',
    );
    expect(server.output()).not.toContain('Demo accounts');
    const visitor = await anonymousVisitor(server.baseURL);
    const signIn = await visitor.postForm('/sign-in?_action=auth.signIn', {
      email: member.email,
      password: member.password,
    });
    expect(signIn.status).not.toBe(303);
    expect((await visitor.send('/dev/outbox')).status).toBe(404);
  } finally {
    await server.stop();
  }
});

test('a server for production given demo accounts and the outbox by name warns in one line', async () => {
  const server = await startPortalServer({
    env: {
      PUBLIC_ORIGIN: 'https://portal.example.com',
      SEED_DEMO_DATA: 'true',
      OUTBOX_VIEWER: 'true',
      // Never for production, even when named.
      DEMO_COMPANY_SIGN_IN: 'true',
    },
  });
  try {
    const warning = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('WARNING: serving for production'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain('SEED_DEMO_DATA=true');
    expect(warning[0]).toContain('OUTBOX_VIEWER=true');
    expect(server.output()).toContain('Demo accounts');
    expect(server.output()).not.toMatch(demoEmployeeLine);
  } finally {
    await server.stop();
  }
});

test('a server on this machine alone says it is ready at localhost, where passkeys work', async ({
  page,
}) => {
  const server = await startPortalServer({ env: { PUBLIC_ORIGIN: undefined } });
  try {
    const port = new URL(server.baseURL).port;
    expect(server.output()).toContain(`Member portal ready: http://localhost:${port}\n`);
    await page.goto(`http://localhost:${port}/sign-in`);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  } finally {
    await server.stop();
  }
});
