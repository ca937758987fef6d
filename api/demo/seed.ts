import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.ts';
import {
  checkPasswordPolicy,
  hashPassword,
  verifyPassword,
} from '../services/sign-in/passwords.ts';
import type { Database } from '../db/client.ts';
import {
  DEFAULT_DEMO_PASSWORD,
  DEMO_COMPANY_SIGN_IN,
  DEMO_USERS,
  demoAccounts,
  type DemoAccount,
} from './demo-accounts.ts';
import { INTERNAL_COMPANY_NAMES } from '../../platform/internal-companies.ts';
import { companies, users } from '../db/schema/index.ts';

interface DemoCompany {
  name: string;
  slug: string | null;
  /** Its members must enroll in MFA. */
  mfaRequired: boolean;
}

const DEMO_COMPANIES: readonly DemoCompany[] = [
  { name: 'Acme Health', slug: 'acme', mfaRequired: false },
  { name: 'Northwind Secure', slug: 'northwind', mfaRequired: true },
  {
    name: DEMO_COMPANY_SIGN_IN.companyName,
    slug: DEMO_COMPANY_SIGN_IN.companySlug,
    mfaRequired: false,
  },
  { name: INTERNAL_COMPANY_NAMES[0], slug: null, mfaRequired: false },
  { name: INTERNAL_COMPANY_NAMES[1], slug: null, mfaRequired: false },
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
    const verdict = await checkPasswordPolicy(password, demoUser);
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
        .select({
          id: users.id,
          passwordHash: users.passwordHash,
          mfaPhone: users.mfaPhone,
          emailVerifiedAt: users.emailVerifiedAt,
        })
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
          // The demo addresses are nobody's mailbox: they start proven.
          emailVerifiedAt: now,
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
      if (!existing.emailVerifiedAt) {
        await transaction
          .update(users)
          .set({ emailVerifiedAt: now, updatedAt: now })
          .where(eq(users.id, existing.id));
      }
    }
  });

  return demoAccounts(password);
}
