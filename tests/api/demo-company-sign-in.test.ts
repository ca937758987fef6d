import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_PASSWORD, DEMO_COMPANY_SIGN_IN } from '../../api/demo/demo-accounts.ts';
import { seedDemoCompanySignIn } from '../../api/demo/seed-company-sign-in.ts';
import { seedDemoData } from '../../api/demo/seed.ts';
import { listConnections } from '../../api/services/company-sign-in/connection-admin.ts';
import {
  connectionForEmail,
  createConnectionSecrets,
} from '../../api/services/company-sign-in/connections.ts';
import { startTestApi, type TestApi } from './support.ts';

// docs/PRODUCT.md §15: the newcomer's demo company, whose provider runs with `npm start` alone.
let api: TestApi;
const secrets = createConnectionSecrets(randomBytes(32));
const { companySlug, domain, employee } = DEMO_COMPANY_SIGN_IN;

const provider = (port: number) => ({
  issuer: `http://127.0.0.1:${String(port)}`,
  clientId: 'member-portal-demo',
  clientSecret: `secret-of-the-provider-on-${String(port)}-long-enough`,
});

async function demoConnection() {
  const all = await listConnections(api.db);
  return all.filter((connection) => connection.companySlug === companySlug);
}

beforeAll(async () => {
  api = await startTestApi();
  await seedDemoData(api.db, api.clock, DEFAULT_DEMO_PASSWORD);
});

afterAll(async () => {
  await api.close();
});

describe('seedDemoCompanySignIn', () => {
  it('points the demo company at the provider the server started, claiming its domain', async () => {
    await seedDemoCompanySignIn(api.db, api.clock, secrets, provider(41001));

    expect(await demoConnection()).toEqual([
      expect.objectContaining({
        protocol: 'oidc',
        enabled: true,
        signInRequired: false,
        issuerOrEntityId: 'http://127.0.0.1:41001',
        domains: [domain],
      }),
    ]);
    const found = await connectionForEmail(api.db, employee.email);
    expect(
      secrets.open(found?.connection.oidcClientSecret ?? '', found?.connection.companyId ?? 0),
    ).toBe(provider(41001).clientSecret);
  });

  it('follows the provider to its new address at the next start, keeping one connection', async () => {
    await seedDemoCompanySignIn(api.db, api.clock, secrets, provider(41001));
    await seedDemoCompanySignIn(api.db, api.clock, secrets, provider(41002));

    expect(await demoConnection()).toEqual([
      expect.objectContaining({ enabled: true, issuerOrEntityId: 'http://127.0.0.1:41002' }),
    ]);
  });

  it('turns the sign-in off when no provider runs, so the employee’s address asks for a password', async () => {
    await seedDemoCompanySignIn(api.db, api.clock, secrets, provider(41003));

    await seedDemoCompanySignIn(api.db, api.clock, secrets, undefined);

    expect(await demoConnection()).toEqual([expect.objectContaining({ enabled: false })]);
    expect(await connectionForEmail(api.db, employee.email)).toBeUndefined();

    await seedDemoCompanySignIn(api.db, api.clock, secrets, provider(41004));
    expect(await connectionForEmail(api.db, employee.email)).toBeDefined();
  });
});
