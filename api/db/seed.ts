import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../services/clock.ts';
import { checkPasswordPolicy, hashPassword, verifyPassword } from '../services/passwords.ts';
import type { Database } from './client.ts';
import { companies, users } from './schema.ts';

/** A ready-made account, printed at start-up so that people can sign in to a fresh install. */
export interface DemoAccount {
  email: string;
  password: string;
  description: string;
}

export const DEFAULT_DEMO_PASSWORD = 'portal-demo-2026';

/**
 * The web tier flags members of these companies as internal staff. They have no slug, so nobody
 * can join them through a sign-up link.
 */
export const INTERNAL_COMPANY_NAMES = ['Portal Concierge HQ', 'Portal Operations'] as const;

interface DemoCompany {
  name: string;
  slug: string | null;
  /** Its members must enroll in MFA (docs/PRODUCT.md §12). */
  mfaRequired: boolean;
}

const DEMO_COMPANIES: readonly DemoCompany[] = [
  { name: 'Acme Health', slug: 'acme', mfaRequired: false },
  { name: 'Northwind Secure', slug: 'northwind', mfaRequired: true },
  { name: INTERNAL_COMPANY_NAMES[0], slug: null, mfaRequired: false },
  { name: INTERNAL_COMPANY_NAMES[1], slug: null, mfaRequired: false },
];

interface DemoUser {
  email: string;
  name: string;
  lastName: string;
  companyName: string;
  /** The phone enrolled for two-step verification (E.164), or null. */
  mfaPhone: string | null;
  /**
   * Created as having said "not now" to the phone offer, so that it signs in straight to the
   * Dashboard for 30 days; new sign-ups show the offer.
   */
  offerDeclined: boolean;
  description: string;
}

const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'member@example.com',
    name: 'Avery',
    lastName: 'Jordan',
    companyName: 'Acme Health',
    mfaPhone: null,
    offerDeclined: true,
    description: 'Member of Acme Health',
  },
  {
    email: 'verified@example.com',
    name: 'Morgan',
    lastName: 'Ellis',
    companyName: 'Acme Health',
    mfaPhone: '+15555550123',
    offerDeclined: false,
    description: 'Member with a phone for two-step verification',
  },
  {
    email: 'secure@example.com',
    name: 'Casey',
    lastName: 'Nguyen',
    companyName: 'Northwind Secure',
    mfaPhone: null,
    offerDeclined: false,
    description: 'Member of Northwind Secure, which requires two-step verification',
  },
  {
    email: 'concierge@example.com',
    name: 'Jordan',
    lastName: 'Lee',
    companyName: INTERNAL_COMPANY_NAMES[0],
    mfaPhone: null,
    offerDeclined: true,
    description: `Internal staff (${INTERNAL_COMPANY_NAMES[0]})`,
  },
  {
    email: 'operations@example.com',
    name: 'Sam',
    lastName: 'Rivera',
    companyName: INTERNAL_COMPANY_NAMES[1],
    mfaPhone: null,
    offerDeclined: true,
    description: `Internal staff (${INTERNAL_COMPANY_NAMES[1]})`,
  },
];

/** Arbitrary but fixed, so that two servers seeding one database at once take turns. */
const SEED_LOCK_ID = 7_310_254_119;

/**
 * Makes sure the demo companies and accounts exist; running it again changes nothing, except
 * that a demo account whose password or enrolled phone no longer matches gets it back (and a demo
 * company its MFA requirement), so the accounts printed at start-up always work and show what
 * they say: `verified@example.com` has the phone +15555550123 enrolled (code required at sign-in),
 * `secure@example.com` belongs to Northwind Secure, which requires MFA, and has none (it must
 * enroll and cannot skip), the others have none (enrollment offered, skippable). Under an
 * advisory lock, so that two servers seeding one database at once take turns.
 * @param password defaults to `DEMO_PASSWORD` from the environment, else `portal-demo-2026`.
 */
export async function seedDemoData(
  database: Database,
  clock: Clock,
  password: string = process.env['DEMO_PASSWORD'] ?? DEFAULT_DEMO_PASSWORD,
): Promise<DemoAccount[]> {
  for (const demoUser of DEMO_USERS) {
    const verdict = checkPasswordPolicy(password, demoUser);
    if (!verdict.acceptable) {
      throw new Error(`DEMO_PASSWORD is not acceptable for ${demoUser.email}: ${verdict.message}`);
    }
  }
  const now = clock.now();

  await database.transaction(async (transaction) => {
    await transaction.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_ID})`);

    const companyIds = new Map<string, number>();
    for (const company of DEMO_COMPANIES) {
      const [existing] = await transaction
        .select({ id: companies.id, mfaRequired: companies.mfaRequired })
        .from(companies)
        .where(
          company.slug === null
            ? eq(companies.name, company.name)
            : eq(companies.slug, company.slug),
        )
        .limit(1);
      if (existing && existing.mfaRequired !== company.mfaRequired) {
        await transaction
          .update(companies)
          .set({ mfaRequired: company.mfaRequired })
          .where(eq(companies.id, existing.id));
      }
      const id =
        existing?.id ??
        (
          await transaction
            .insert(companies)
            .values({
              name: company.name,
              slug: company.slug,
              mfaRequired: company.mfaRequired,
              createdAt: now,
            })
            .returning({ id: companies.id })
        )[0]?.id;
      if (id === undefined) throw new Error(`Could not create the company ${company.name}.`);
      companyIds.set(company.name, id);
    }

    for (const demoUser of DEMO_USERS) {
      const [existing] = await transaction
        .select({ id: users.id, passwordHash: users.passwordHash, mfaPhone: users.mfaPhone })
        .from(users)
        .where(eq(users.email, demoUser.email))
        .limit(1);
      if (!existing) {
        await transaction.insert(users).values({
          email: demoUser.email,
          passwordHash: await hashPassword(password),
          name: demoUser.name,
          lastName: demoUser.lastName,
          companyId: companyIds.get(demoUser.companyName) ?? null,
          mfaPhone: demoUser.mfaPhone,
          mfaDeclinedAt: demoUser.offerDeclined ? now : null,
          createdAt: now,
          updatedAt: now,
        });
        continue;
      }
      if (!(await verifyPassword(password, existing.passwordHash))) {
        await transaction
          .update(users)
          .set({ passwordHash: await hashPassword(password), updatedAt: now })
          .where(eq(users.id, existing.id));
      }
      if (existing.mfaPhone !== demoUser.mfaPhone) {
        await transaction
          .update(users)
          .set({ mfaPhone: demoUser.mfaPhone, pendingMfaPhone: null, updatedAt: now })
          .where(eq(users.id, existing.id));
      }
    }
  });

  return DEMO_USERS.map(({ email, description }) => ({ email, password, description }));
}
