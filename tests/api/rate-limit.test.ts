// @module-tag database
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitBuckets } from '../../api/db/schema/index.ts';
import { rateLimitKey } from '../../platform/client-address.ts';
import { TrustedProxies } from '../../platform/trusted-proxies.ts';
import { MINUTE } from '../../platform/clock.ts';
import { SIGN_IN_PER_IP, windowStartFor } from '../../api/services/rate-limits.ts';
import {
  jsonRequest,
  randomClientAddress,
  startTestApi,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApi,
} from './support.ts';

describe('sign-in rate limit per client address', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ trustedProxies: TrustedProxies.thisProcess });
  });

  afterAll(async () => {
    await api.close();
  });

  it('answers 429 with Retry-After after 60 attempts from one address in 10 minutes', async () => {
    const clientAddress = randomClientAddress();
    const credentials = { email: uniqueEmail(), password: TEST_PASSWORD };
    for (let attempt = 1; attempt <= 60; attempt += 1) {
      const response = await api.signIn(credentials, { clientAddress });
      expect(response.status).toBe(401);
    }

    const response = await api.signIn(credentials, { clientAddress });

    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      error: 'Too many attempts. Please wait a few minutes and try again.',
    });
    const windowEnd =
      windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs).getTime() + 10 * MINUTE;
    expect(response.headers.get('Retry-After')).toBe(
      String(Math.ceil((windowEnd - api.clock.now().getTime()) / 1000)),
    );
  });

  it('refuses even the right password while the limit holds, and lets it in once the window has passed', async () => {
    const clientAddress = randomClientAddress();
    const account = await api.createUser();
    const windowStart = windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs);
    await api.db.insert(rateLimitBuckets).values({
      key: `sign_in:ip:${rateLimitKey(clientAddress)}`,
      windowStart,
      count: SIGN_IN_PER_IP.limit,
    });

    expect((await api.signIn(account, { clientAddress })).status).toBe(429);

    api.clock.set(new Date(windowStart.getTime() + SIGN_IN_PER_IP.windowMs));
    expect((await api.signIn(account, { clientAddress })).status).toBe(200);
  });

  it('counts each address separately', async () => {
    const busyAddress = randomClientAddress();
    const account = await api.createUser();
    const windowStart = windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs);
    await api.db.insert(rateLimitBuckets).values({
      key: `sign_in:ip:${rateLimitKey(busyAddress)}`,
      windowStart,
      count: SIGN_IN_PER_IP.limit,
    });

    expect((await api.signIn(account, { clientAddress: randomClientAddress() })).status).toBe(200);
  });

  it('does not count malformed requests against the limit', async () => {
    const clientAddress = randomClientAddress();
    const windowStart = windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs);
    await api.db.insert(rateLimitBuckets).values({
      key: `sign_in:ip:${rateLimitKey(clientAddress)}`,
      windowStart,
      count: SIGN_IN_PER_IP.limit,
    });

    const response = await api.app.request(
      '/api/v1/users/sign_in',
      jsonRequest({ user: { email: 'not an email' } }, { 'X-Forwarded-For': clientAddress }),
    );

    expect(response.status).toBe(400);
  });
});

describe('sign-in rate limit without a trusted proxy', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ trustedProxies: TrustedProxies.none });
  });

  afterAll(async () => {
    await api.close();
  });

  it('ignores X-Forwarded-For, so a client cannot escape the limit by inventing addresses', async () => {
    const account = await api.createUser();
    const windowStart = windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs);
    // Called in-process there is no socket, so every request shares the "unknown" address.
    await api.db
      .insert(rateLimitBuckets)
      .values({ key: 'sign_in:ip:unknown', windowStart, count: SIGN_IN_PER_IP.limit });

    const response = await api.signIn(account, { clientAddress: randomClientAddress() });

    expect(response.status).toBe(429);
  });
});
