import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../api/db/schema/index.ts';
import { COMPANY_LOOKUPS_PER_IP } from '../../api/services/rate-limits.ts';
import { randomClientAddress, startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await api.db.insert(companies).values([
    { name: 'Lookup Health', slug: 'lookup-health', createdAt: api.clock.now() },
    { name: 'No Link Ltd', slug: null, createdAt: api.clock.now() },
  ]);
});

afterAll(async () => {
  await api.close();
});

const UNKNOWN_COMPANY = 'We do not know that company. Check the link you were given.';

const lookUp = (slug: string, clientAddress = randomClientAddress()) =>
  api.call('GET', `/api/v1/companies/${encodeURIComponent(slug)}`, { clientAddress });

describe('GET /api/v1/companies/{slug}', () => {
  it('names the company of a sign-up link, without a session', async () => {
    const response = await lookUp('lookup-health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      company: { slug: 'lookup-health', name: 'Lookup Health' },
      company_sign_in: null,
    });
  });

  it('finds the link whatever its case', async () => {
    expect((await lookUp('Lookup-HEALTH')).status).toBe(200);
  });

  it('answers 404 with the sign-up’s own sentence for a link nobody gave', async () => {
    for (const slug of ['does-not-exist', ' ', 'x'.repeat(101)]) {
      const response = await lookUp(slug);
      expect(response.status, slug).toBe(404);
      expect(await response.json(), slug).toEqual({ error: UNKNOWN_COMPANY });
    }
  });

  it('tells nothing of a company that cannot be joined by link', async () => {
    expect((await lookUp('No Link Ltd')).status).toBe(404);
    expect((await lookUp('null')).status).toBe(404);
  });

  it(`answers 429 with Retry-After after ${COMPANY_LOOKUPS_PER_IP.limit} look-ups an hour from one address`, async () => {
    const clientAddress = randomClientAddress();
    for (let asked = 0; asked < COMPANY_LOOKUPS_PER_IP.limit; asked += 1) {
      expect((await lookUp(`guess-${asked}`, clientAddress)).status).toBe(404);
    }
    const refused = await lookUp('lookup-health', clientAddress);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    expect((await lookUp('lookup-health')).status).toBe(200);
  });
});
