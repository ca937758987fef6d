import { expect, test } from '@playwright/test';
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
  expect(server.output()).toContain('TRUSTED_PROXIES must be a number of proxies');
  expect(server.output()).not.toMatch(stackLine);
  await server.stop();
});
