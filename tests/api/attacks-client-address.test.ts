import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitBuckets } from '../../api/db/schema/index.ts';
import { rateLimitKey } from '../../platform/client-address.ts';
import { TrustedProxies } from '../../platform/trusted-proxies.ts';
import { SIGN_IN_PER_IP, windowStartFor } from '../../api/services/rate-limits.ts';
import {
  jsonRequest,
  randomClientAddress,
  startTestApi,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApi,
} from './support.ts';

/**
 * The per-address limits (docs/PRODUCT.md §11.3) count the address the proxies the operator
 * lists in `TRUSTED_PROXIES` saw, and only theirs: a caller that reaches the API directly is
 * counted by its own socket address whatever it writes in `X-Forwarded-For`, and cannot choose
 * the request id either. The socket is faked as @hono/node-server hands it to the app.
 */

const proxies = TrustedProxies.parse('10.0.0.0/8, fd00::/8');
if (!(proxies instanceof TrustedProxies)) throw new Error(proxies.problem);

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ trustedProxies: proxies });
});

afterAll(async () => {
  await api.close();
});

/** A sign-in attempt (a wrong password) arriving on a socket from `socketAddress`. */
function signInFrom(socketAddress: string, headers: Record<string, string> = {}) {
  return api.app.request(
    '/api/v1/users/sign_in',
    jsonRequest({ user: { email: uniqueEmail(), password: TEST_PASSWORD } }, headers),
    { incoming: { socket: { remoteAddress: socketAddress } } },
  );
}

const bucketKey = (address: string) => `${SIGN_IN_PER_IP.name}:${rateLimitKey(address)}`;

/** The sign-in attempts counted against `address` in this window. */
async function attemptsCountedFor(address: string): Promise<number> {
  const rows = await api.db
    .select()
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.key, bucketKey(address)));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

async function spendSignInLimit(address: string): Promise<void> {
  await api.db.insert(rateLimitBuckets).values({
    key: bucketKey(address),
    windowStart: windowStartFor(api.clock.now(), SIGN_IN_PER_IP.windowMs),
    count: SIGN_IN_PER_IP.limit,
  });
}

describe('a caller that is not a trusted proxy', () => {
  it('cannot escape the spent limit of its own address by writing X-Forwarded-For', async () => {
    const caller = randomClientAddress();
    await spendSignInLimit(caller);

    for (const forwardedFor of [randomClientAddress(), `${randomClientAddress()}, 10.0.0.2`]) {
      const response = await signInFrom(caller, { 'X-Forwarded-For': forwardedFor });
      expect(response.status, forwardedFor).toBe(429);
    }
  });

  it("cannot spend another address's limit by claiming it", async () => {
    const caller = randomClientAddress();
    const victim = randomClientAddress();

    expect((await signInFrom(caller, { 'X-Forwarded-For': victim })).status).toBe(401);

    expect(await attemptsCountedFor(victim)).toBe(0);
    expect(await attemptsCountedFor(caller)).toBe(1);
  });

  it('cannot choose the request id its answer and log lines carry', async () => {
    const response = await signInFrom('198.51.100.66', { 'X-Request-Id': 'chosen-by-the-caller' });

    expect(response.headers.get('x-request-id')).not.toBe('chosen-by-the-caller');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a trusted proxy', () => {
  it('names the client in X-Forwarded-For, never an entry the client wrote to its left', async () => {
    const client = randomClientAddress();
    const claimed = randomClientAddress();

    const response = await signInFrom('10.0.0.2', { 'X-Forwarded-For': `${claimed}, ${client}` });

    expect(response.status).toBe(401);
    expect(await attemptsCountedFor(client)).toBe(1);
    expect(await attemptsCountedFor(claimed)).toBe(0);
    expect(await attemptsCountedFor('10.0.0.2')).toBe(0);
  });

  it('is heard through a second trusted proxy, whose socket is an IPv4 address written as IPv6', async () => {
    const client = randomClientAddress();
    const claimed = randomClientAddress();
    await spendSignInLimit(client);

    // The outer proxy (fd00::7) appended the client; the inner one (10.0.0.3) appended the outer.
    const response = await signInFrom('::ffff:10.0.0.3', {
      'X-Forwarded-For': `${claimed}, ${client}, fd00::7`,
    });

    expect(response.status).toBe(429);
    expect(await attemptsCountedFor(claimed)).toBe(0);
    expect(await attemptsCountedFor('fd00::7')).toBe(0);
  });

  it('passes its request id on', async () => {
    const response = await signInFrom('10.0.0.2', {
      'X-Forwarded-For': randomClientAddress(),
      'X-Request-Id': 'lb-0123456789',
    });

    expect(response.headers.get('x-request-id')).toBe('lb-0123456789');
  });
});
