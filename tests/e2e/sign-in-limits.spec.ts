import { expect, test } from '@playwright/test';
import { SIGN_IN_PER_IP, windowStartFor } from '../../api/services/rate-limits.ts';
import { inBatches, newFormVisitor, type FormVisitor } from './support/forms';
import { startPortalServer, type PortalServer } from './support/portal-server';

// Each server here has its own database, so spending its sign-in limit touches no other test.
// An unknown email: the attempts must not lock a real account.
const nobody = { email: 'nobody@example.com', password: 'not-a-password' };
const member = { email: 'member@example.com', password: 'portal-demo-2026' };

/** Long enough for a test to spend the limit and try past it, on two busy cores. */
const timeATestTakes = 45_000;

/**
 * Waits, when the limit's window ends too soon, for the next one: windows are aligned to the clock
 * (api/services/rate-limits.ts), and attempts run across an end count from zero again after it.
 */
async function awayFromWindowEnd(): Promise<void> {
  const { windowMs } = SIGN_IN_PER_IP;
  const left = windowStartFor(new Date(), windowMs).getTime() + windowMs - Date.now();
  if (left < timeATestTakes) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

/** Spends the whole sign-in limit of the address the headers lead to. */
async function spendSignInLimit(visitor: FormVisitor, headers: Record<string, string> = {}) {
  await awayFromWindowEnd();
  const statuses = await inBatches(SIGN_IN_PER_IP.limit, 10, () => visitor.signIn(nobody, headers));
  expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_PER_IP.limit);
}

test.describe('the sign-in limit per address, with no proxy in front', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let server: PortalServer;
  let visitor: FormVisitor;

  test.beforeAll(async () => {
    server = await startPortalServer();
    visitor = await newFormVisitor(server.baseURL);
  });

  test.afterAll(async () => {
    await visitor.dispose();
    await server.stop();
  });

  test('cannot be dodged by writing X-Forwarded-For and a forwarded host', async () => {
    await spendSignInLimit(visitor);

    const host = new URL(server.baseURL).host;
    const statuses = await inBatches(20, 10, (index) =>
      visitor.signIn(nobody, {
        'x-forwarded-host': host,
        'x-forwarded-for': `203.0.113.${index + 1}, 127.0.0.1`,
      }),
    );

    expect(statuses.every((status) => status === 429)).toBe(true);
  });
});

test.describe('the sign-in limit per address, behind one trusted proxy', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let server: PortalServer;
  let visitor: FormVisitor;

  test.beforeAll(async () => {
    server = await startPortalServer({ env: { TRUSTED_PROXIES: 'loopback' } });
    visitor = await newFormVisitor(server.baseURL);
  });

  test.afterAll(async () => {
    await visitor.dispose();
    await server.stop();
  });

  // The proxy appends the address it saw to what the client sent.
  const throughProxy = (clientWrote: string | undefined, proxySaw: string) => ({
    'x-forwarded-for': clientWrote ? `${clientWrote}, ${proxySaw}` : proxySaw,
  });

  test('cannot be aimed at another member by claiming their address', async () => {
    const victim = '198.51.100.77';
    await spendSignInLimit(visitor, throughProxy(victim, '203.0.113.9'));

    expect(await visitor.signIn(member, throughProxy(undefined, victim))).toBe(303);
  });

  test('counts the address the proxy saw, whatever the client adds to its left', async () => {
    await spendSignInLimit(visitor, throughProxy(undefined, '203.0.113.10'));

    const statuses = await inBatches(10, 10, (index) =>
      visitor.signIn(nobody, throughProxy(`192.0.2.${index + 1}`, '203.0.113.10')),
    );

    expect(statuses.every((status) => status === 429)).toBe(true);
  });

  test('counts the addresses of one IPv6 /64 together', async () => {
    await spendSignInLimit(visitor, throughProxy(undefined, '2001:db8:7:7::1'));

    expect(await visitor.signIn(nobody, throughProxy(undefined, '2001:db8:7:7::2'))).toBe(429);
    expect(await visitor.signIn(nobody, throughProxy(undefined, '2001:db8:7:8::1'))).toBe(401);
  });
});
