// @module-tag database
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../api/db/schema/index.ts';
import { DEFAULT_DEMO_PASSWORD } from '../../api/demo/demo-accounts.ts';
import { seedDemoData } from '../../api/demo/seed.ts';
import { startReferenceApi, type ReferenceApi } from '../../api/index.ts';
import { createMovableClock } from '../../platform/clock.ts';
import { verifyPassword } from '../../api/services/sign-in/passwords.ts';
import { createFreshDatabase, openTestDatabase, type FreshDatabase } from './support.ts';

describe('startReferenceApi', () => {
  let fresh: FreshDatabase;
  let storageDir: string;
  let api: ReferenceApi;

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    // The demo requests come with files: they go to a folder of this test's own.
    storageDir = await mkdtemp(path.join(tmpdir(), 'reference-api-files-'));
    api = await startReferenceApi({
      ...fresh.options,
      storageDir,
      seedDemoData: true,
      clock: createMovableClock(),
    });
  });

  afterAll(async () => {
    await api.close();
    await fresh.dispose();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('lists the five demo accounts with the default password', () => {
    expect(api.demoAccounts.map(({ email, password }) => ({ email, password }))).toEqual([
      { email: 'member@example.com', password: DEFAULT_DEMO_PASSWORD },
      { email: 'verified@example.com', password: DEFAULT_DEMO_PASSWORD },
      { email: 'secure@example.com', password: DEFAULT_DEMO_PASSWORD },
      { email: 'concierge@example.com', password: DEFAULT_DEMO_PASSWORD },
      { email: 'operations@example.com', password: DEFAULT_DEMO_PASSWORD },
    ]);
    for (const account of api.demoAccounts) expect(account.description).not.toBe('');
  });

  it('says which demo account has a phone for MFA and which company requires it', () => {
    const descriptions = new Map(
      api.demoAccounts.map(({ email, description }) => [email, description]),
    );

    expect(descriptions.get('verified@example.com')).toBe(
      'Member with a phone for two-step verification',
    );
    expect(descriptions.get('secure@example.com')).toBe(
      'Member of Northwind Secure, which requires two-step verification',
    );
  });

  it('asks the demo accounts for the MFA step each one shows at sign-in', async () => {
    const flagsOf = async (email: string) => {
      const signIn = await api.fetch(
        new Request('http://embedded-api.internal/api/v1/users/sign_in', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ user: { email, password: DEFAULT_DEMO_PASSWORD } }),
        }),
      );
      const { mfa_required, mfa_requires_verification } = (await signIn.json()) as {
        mfa_required: boolean;
        mfa_requires_verification: boolean;
      };
      return { mfa_required, mfa_requires_verification };
    };

    expect(await flagsOf('verified@example.com')).toEqual({
      mfa_required: true,
      mfa_requires_verification: false,
    });
    expect(await flagsOf('secure@example.com')).toEqual({
      mfa_required: false,
      mfa_requires_verification: true,
    });
    // The other demo accounts said "not now" to the offer when they were made.
    expect(await flagsOf('member@example.com')).toEqual({
      mfa_required: false,
      mfa_requires_verification: false,
    });
  });

  it('answers plain Requests in-process, as over HTTP', async () => {
    const signIn = await api.fetch(
      new Request('http://embedded-api.internal/api/v1/users/sign_in', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          user: { email: 'member@example.com', password: DEFAULT_DEMO_PASSWORD },
        }),
      }),
    );
    expect(signIn.status).toBe(200);
    const authorization = signIn.headers.get('Authorization') ?? '';

    const current = await api.fetch(
      new Request('http://embedded-api.internal/api/v1/users/current', {
        headers: { Authorization: authorization },
      }),
    );

    expect(await current.json()).toMatchObject({
      full_name: 'Avery Jordan',
      email: 'member@example.com',
      company: { name: 'Acme Health' },
    });
  });

  it('puts the staff accounts in the two internal companies', async () => {
    const companyOf = async (email: string) => {
      const signIn = await api.fetch(
        new Request('http://embedded-api.internal/api/v1/users/sign_in', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ user: { email, password: DEFAULT_DEMO_PASSWORD } }),
        }),
      );
      const current = await api.fetch(
        new Request('http://embedded-api.internal/api/v1/users/current', {
          headers: { Authorization: signIn.headers.get('Authorization') ?? '' },
        }),
      );
      return ((await current.json()) as { company: { name: string } | null }).company;
    };

    expect(await companyOf('concierge@example.com')).toEqual({ name: 'Portal Concierge HQ' });
    expect(await companyOf('operations@example.com')).toEqual({ name: 'Portal Operations' });
  });
});

describe('seedDemoData', () => {
  it('can run any number of times without duplicating anything', async () => {
    const database = await openTestDatabase();
    try {
      const clock = createMovableClock();
      await seedDemoData(database.db, clock);
      await seedDemoData(database.db, clock);

      const [userRows] = await database.db.select({ total: count() }).from(users);
      const [companyRows] = await database.db.select({ total: count() }).from(companies);
      expect(userRows?.total).toBe(5);
      expect(companyRows?.total).toBe(5);
      const [acme] = await database.db.select().from(companies).where(eq(companies.slug, 'acme'));
      expect(acme?.name).toBe('Acme Health');
      const internal = await database.db
        .select({ slug: companies.slug })
        .from(companies)
        .where(eq(companies.name, 'Portal Operations'));
      expect(internal).toEqual([{ slug: null }]);
      const [northwind] = await database.db
        .select()
        .from(companies)
        .where(eq(companies.slug, 'northwind'));
      expect(northwind).toMatchObject({ name: 'Northwind Secure', mfaRequired: true });
      expect(acme?.mfaRequired).toBe(false);
      const enrolled = await database.db
        .select({ email: users.email })
        .from(users)
        .where(isNotNull(users.mfaPhone));
      expect(enrolled).toEqual([{ email: 'verified@example.com' }]);
    } finally {
      await database.close();
    }
  });

  it('gives the demo accounts a changed demo password, so the printed one always works', async () => {
    const database = await openTestDatabase();
    try {
      const clock = createMovableClock();
      await seedDemoData(database.db, clock);

      const accounts = await seedDemoData(database.db, clock, 'a different demo password');

      expect(accounts[0]?.password).toBe('a different demo password');
      const [member] = await database.db
        .select()
        .from(users)
        .where(eq(users.email, 'member@example.com'));
      expect(await verifyPassword('a different demo password', member?.passwordHash ?? '')).toBe(
        true,
      );
    } finally {
      await database.close();
    }
  });

  it('puts back the demo accounts’ enrolled phones, so they show what is printed', async () => {
    const database = await openTestDatabase();
    try {
      const clock = createMovableClock();
      await seedDemoData(database.db, clock);
      await database.db
        .update(users)
        .set({ mfaPhone: null })
        .where(eq(users.email, 'verified@example.com'));
      await database.db
        .update(users)
        .set({ mfaPhone: '+15555550199' })
        .where(eq(users.email, 'secure@example.com'));

      await seedDemoData(database.db, clock);

      const phones = await database.db
        .select({ email: users.email, phone: users.mfaPhone })
        .from(users)
        .where(isNotNull(users.mfaPhone));
      expect(phones).toEqual([{ email: 'verified@example.com', phone: '+15555550123' }]);
    } finally {
      await database.close();
    }
  });

  it('seeds the same data once when two servers seed one database at the same moment', async () => {
    const database = await openTestDatabase();
    try {
      const clock = createMovableClock();
      await Promise.all([seedDemoData(database.db, clock), seedDemoData(database.db, clock)]);

      const [userRows] = await database.db.select({ total: count() }).from(users);
      const [companyRows] = await database.db.select({ total: count() }).from(companies);
      expect(userRows?.total).toBe(5);
      expect(companyRows?.total).toBe(5);
    } finally {
      await database.close();
    }
  });

  it('refuses a demo password that the password policy refuses', async () => {
    const database = await openTestDatabase();
    try {
      await expect(seedDemoData(database.db, createMovableClock(), 'password123')).rejects.toThrow(
        /DEMO_PASSWORD is not acceptable/,
      );
    } finally {
      await database.close();
    }
  });
});
