import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../db/client.ts';
import { companies, companyConnections } from '../db/schema/index.ts';
import { setOidcConnection, setPolicy } from '../services/company-sign-in/connection-admin.ts';
import type { ConnectionSecrets } from '../services/company-sign-in/connections.ts';
import { DEMO_COMPANY_SIGN_IN } from './demo-accounts.ts';

/** Where the demo company's development provider listens this time, and the portal's client there. */
export interface DemoCompanySignIn {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Points the demo company's sign-in at the development provider this server started (a new address
 * and secret at every start), or turns it off when none runs (`npm run api`, a production start),
 * so that its employee's address is never sent to a provider that is not there. Run after the
 * demo companies are seeded.
 */
export async function seedDemoCompanySignIn(
  database: Database,
  clock: Clock,
  secrets: ConnectionSecrets,
  provider: DemoCompanySignIn | undefined,
): Promise<void> {
  const { companySlug, domain } = DEMO_COMPANY_SIGN_IN;
  if (provider) {
    await setOidcConnection(database, clock, secrets, {
      companySlug,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      domains: [domain],
    });
    await setPolicy(database, clock, companySlug, { enabled: true });
    return;
  }
  const [existing] = await database
    .select({ id: companyConnections.id, enabled: companyConnections.enabled })
    .from(companyConnections)
    .innerJoin(companies, eq(companies.id, companyConnections.companyId))
    .where(eq(companies.slug, companySlug));
  if (existing?.enabled) await setPolicy(database, clock, companySlug, { enabled: false });
}
