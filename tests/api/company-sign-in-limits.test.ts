import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_SIGN_IN_PER_IP } from '../../api/services/rate-limits.ts';
import { startTestApi, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: company sign-in's routes are limited per client address, generously (an
// office signs in from one), but for reading the sign-in under way.

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const start = (clientAddress: string) =>
  api.call('POST', '/api/v1/company_sign_in/start', {
    body: { email: 'someone@unclaimed.test' },
    clientAddress,
  });

/** Starts sign-ins from `clientAddress` until its limit is spent. */
async function spendLimit(clientAddress: string): Promise<void> {
  for (let started = 0; started < COMPANY_SIGN_IN_PER_IP.limit; started += 1) {
    expect((await start(clientAddress)).status).toBe(200);
  }
}

describe('the limit of company sign-ins per address', () => {
  it('lets an office start its sign-ins up to the limit, then answers 429 with when to come back', async () => {
    const office = '203.0.113.40';
    await spendLimit(office);

    const refused = await start(office);

    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await start('203.0.113.41')).status).toBe(200);
  });

  it('counts no read of a sign-in under way, which every render of its pages makes', async () => {
    const readFrom = (clientAddress: string) =>
      api.call('POST', '/api/v1/company_sign_in/current', {
        body: { token: 'a'.repeat(43) },
        clientAddress,
      });
    const office = '203.0.113.50';
    await spendLimit(office);
    expect((await start(office)).status).toBe(429);

    const read = await readFrom(office);

    expect(read.status).toBe(404);
  });
});
